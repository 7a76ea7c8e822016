import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { stateTable } from '#contracts/tables.ts';
import { dynamo } from '../aws/dynamo.ts';
import { ConflictError } from '../errors.ts';
import { epochSeconds, tableName, writeIf } from './tables.ts';

/**
 * A lease is a short exclusive hold on one key (an item in the state table that expires by
 * itself), so that the steps of two opposite changes to the same thing (e.g. assign and
 * remove the same dashboard for the same user) never interleave. No transactions needed: a
 * conditional put takes it, a conditional delete gives it back; a holder that dies leaves a
 * lease that expires after LEASE_SECONDS.
 */
const LEASE_SECONDS = 30;
const ACQUIRE_ATTEMPTS = 40;
const RETRY_DELAY_MS = 50;

const leaseKey = (key: string) => ({ pk: `LEASE#${key}`, sk: 'LEASE' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const tryAcquire = (key: string, holder: string): Promise<boolean> => {
  const now = epochSeconds();
  return writeIf(() =>
    dynamo.send(
      new PutCommand({
        TableName: tableName(stateTable),
        Item: { ...leaseKey(key), holder, expiresAt: now + LEASE_SECONDS },
        ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now',
        ExpressionAttributeValues: { ':now': now },
      }),
    ),
  );
};

const release = async (key: string, holder: string): Promise<void> => {
  try {
    await dynamo.send(
      new DeleteCommand({
        TableName: tableName(stateTable),
        Key: leaseKey(key),
        ConditionExpression: 'holder = :holder',
        ExpressionAttributeValues: { ':holder': holder },
      }),
    );
  } catch {
    // Nothing to undo: a lease that cannot be given back expires after LEASE_SECONDS.
  }
};

const busyByDefault = () => new ConflictError('Another change to the same item is in progress. Please try again.');

/**
 * Runs `work` while holding the lease on `key`, waiting up to ~2 s for a current holder; past
 * that, `busy` is thrown (a 409 by default) and `work` never runs.
 */
export const withLease = async <T>(
  key: string,
  work: () => Promise<T>,
  busy: () => Error = busyByDefault,
): Promise<T> => {
  const holder = randomUUID();
  for (let attempt = 0; !(await tryAcquire(key, holder)); attempt += 1) {
    if (attempt >= ACQUIRE_ATTEMPTS) throw busy();
    await sleep(RETRY_DELAY_MS + Math.floor(Math.random() * RETRY_DELAY_MS));
  }
  try {
    return await work();
  } finally {
    await release(key, holder);
  }
};

/** The lease every change to one user's assignment of one dashboard takes (function and GraphQL alike). */
export const assignmentLease = (userEmail: string, dashboardId: string): string =>
  `ASSIGNMENT#${userEmail}#${dashboardId}`;
