import { createHash } from 'node:crypto';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Passkey } from '#contracts/passkeys.ts';
import { stateTable } from '#contracts/tables.ts';
import { dynamo } from '../aws/dynamo.ts';
import { queryStatePartition } from './state-partition.ts';
import { nowIso, tableName, writeIf, writeStateBatch } from './tables.ts';

/**
 * The portal's record of each user's passkeys, in the user's State partition (pk USER#<email>):
 * one item per passkey (sk PASSKEY#<hash of its id>) and, after an administrator's reset, one
 * marker (sk PASSKEYS_RESET) with the reset's time.
 *
 * Cognito keeps the credentials but lists and deletes them only with the user's own access
 * token (ListWebAuthnCredentials, DeleteWebAuthnCredential: no administrator variant exists), so
 * administrators read this record, and the MFA function brings it in line with Cognito's list
 * whenever it holds a token that may read it. The record adds what Cognito does not keep: the
 * last sign-in with each passkey.
 */
const userKey = (email: string) => `USER#${email}`;
const PASSKEY_PREFIX = 'PASSKEY#';
const RESET_SK = 'PASSKEYS_RESET';
/** Credential ids are up to 1,400 characters and sort keys 1,024 bytes: the key holds a digest. */
const passkeySk = (credentialId: string) =>
  `${PASSKEY_PREFIX}${createHash('sha256').update(credentialId).digest('base64url')}`;

export interface PasskeyRecord {
  readonly passkeys: Passkey[];
  /** Epoch milliseconds of an administrator's reset whose passkeys Cognito may still hold. */
  readonly resetAt?: number;
}

const asPasskey = (item: Record<string, unknown>): Passkey | undefined => {
  const { credentialId, name, createdAt, lastUsedAt, attachment } = item;
  if (typeof credentialId !== 'string' || typeof name !== 'string' || typeof createdAt !== 'number') return undefined;
  return {
    credentialId,
    name,
    createdAt,
    ...(typeof lastUsedAt === 'number' ? { lastUsedAt } : {}),
    ...(typeof attachment === 'string' ? { attachment } : {}),
  };
};

/** The user's recorded passkeys, oldest first, and a pending reset. */
export const readPasskeys = async (email: string): Promise<PasskeyRecord> => {
  const items = await queryStatePartition(userKey(email));
  const passkeys = items
    .filter((item) => typeof item.sk === 'string' && item.sk.startsWith(PASSKEY_PREFIX))
    .map(asPasskey)
    .filter((passkey): passkey is Passkey => passkey !== undefined)
    .sort((a, b) => a.createdAt - b.createdAt);
  const reset = items.find((item) => item.sk === RESET_SK)?.resetAt;
  return { passkeys, ...(typeof reset === 'number' ? { resetAt: reset } : {}) };
};

const passkeyKey = (email: string, credentialId: string) => ({ pk: userKey(email), sk: passkeySk(credentialId) });
const sameRecord = (a: Passkey, b: Passkey | undefined) =>
  b !== undefined && a.name === b.name && a.createdAt === b.createdAt && a.attachment === b.attachment;

/**
 * Makes the record say what Cognito holds: a passkey Cognito lists that the record lacks (or
 * holds otherwise) is written, keeping its recorded last use; a recorded one Cognito no longer
 * lists is removed. An unchanged list writes nothing.
 */
export const syncPasskeys = async (
  email: string,
  held: readonly Omit<Passkey, 'lastUsedAt'>[],
  recorded: readonly Passkey[],
): Promise<Passkey[]> => {
  const byId = new Map(recorded.map((passkey) => [passkey.credentialId, passkey]));
  const current: Passkey[] = held.map((passkey) => {
    const lastUsedAt = byId.get(passkey.credentialId)?.lastUsedAt;
    return { ...passkey, ...(lastUsedAt !== undefined ? { lastUsedAt } : {}) };
  });
  const heldIds = new Set(held.map((passkey) => passkey.credentialId));
  await writeStateBatch(
    [
      ...current
        .filter((passkey) => !sameRecord(passkey, byId.get(passkey.credentialId)))
        .map((passkey) => ({
          PutRequest: { Item: { ...passkeyKey(email, passkey.credentialId), ...passkey, updatedAt: nowIso() } },
        })),
      ...recorded
        .filter((passkey) => !heldIds.has(passkey.credentialId))
        .map((passkey) => ({ DeleteRequest: { Key: passkeyKey(email, passkey.credentialId) } })),
    ],
    'passkey record writes',
  );
  return current.sort((a, b) => a.createdAt - b.createdAt);
};

/** Records a sign-in with one of the user's recorded passkeys; false when it is not recorded. */
export const recordPasskeyUse = (email: string, credentialId: string, at: number): Promise<boolean> =>
  writeIf(() =>
    dynamo.send(
      new UpdateCommand({
        TableName: tableName(stateTable),
        Key: passkeyKey(email, credentialId),
        UpdateExpression: 'SET lastUsedAt = :at',
        // Only an existing passkey of this user, and never back in time.
        ConditionExpression: 'credentialId = :id AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :at)',
        ExpressionAttributeValues: { ':id': credentialId, ':at': at },
      }),
    ),
  );

/** Removes the user's recorded passkeys and, with `resetAt`, records a reset (without, removes its marker). */
const clearRecord = async (email: string, resetAt?: number): Promise<void> => {
  const { passkeys } = await readPasskeys(email);
  await writeStateBatch(
    [
      ...passkeys.map((passkey) => ({ DeleteRequest: { Key: passkeyKey(email, passkey.credentialId) } })),
      resetAt === undefined
        ? { DeleteRequest: { Key: { pk: userKey(email), sk: RESET_SK } } }
        : { PutRequest: { Item: { pk: userKey(email), sk: RESET_SK, resetAt } } },
    ],
    'passkey record writes',
  );
};

/**
 * An administrator's reset: the record forgets the user's passkeys at once and keeps the reset's
 * time, so that the MFA function deletes, with the user's next token that may, every passkey
 * Cognito still holds from before it.
 */
export const recordPasskeyReset = (email: string, at: number): Promise<void> => clearRecord(email, at);

/** The reset's passkeys are gone from Cognito: the marker goes, unless a later reset replaced it. */
export const clearPasskeyReset = (email: string, at: number): Promise<boolean> =>
  writeIf(() =>
    dynamo.send(
      new DeleteCommand({
        TableName: tableName(stateTable),
        Key: { pk: userKey(email), sk: RESET_SK },
        ConditionExpression: 'resetAt = :at',
        ExpressionAttributeValues: { ':at': at },
      }),
    ),
  );

/** The account is gone: its passkey record and reset marker go too. */
export const forgetPasskeys = (email: string): Promise<void> => clearRecord(email);
