import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { stateTable } from '#contracts/tables.ts';
import { dynamo } from '../aws/dynamo.ts';
import { queryStatePartition } from './state-partition.ts';
import { nowIso, tableName, writeIf, writeStateBatch } from './tables.ts';

/**
 * The portal's copy of the user directory, in the State table, so that the admin pages open
 * from one partition instead of paging through Cognito's ListUsers 60 accounts at a time:
 *
 * | pk | sk | item |
 * | --- | --- | --- |
 * | DIRECTORY | <lowercased email> | username, enabled, status, group, created, modified |
 * | DIRECTORY_LISTED | LAST | at: when the copy was last rebuilt from a full Cognito listing |
 *
 * lambdas/shared/directory.ts keeps it: the account actions write what they changed, reads
 * correct what can change outside the portal, and a full listing rebuilds it.
 */

const ENTRY_PK = 'DIRECTORY';
const LISTED_KEY = { pk: 'DIRECTORY_LISTED', sk: 'LAST' };

export interface DirectoryEntry {
  /** The sign-in email, lowercased: the key. */
  readonly email: string;
  readonly username: string;
  readonly enabled: boolean;
  /** Cognito's UserStatus (CONFIRMED, FORCE_CHANGE_PASSWORD, ...). */
  readonly status: string;
  /** The group the account is shown in (Admins before Users), or null. */
  readonly group: string | null;
  /** ISO times of the account's creation and last change in Cognito. */
  readonly created: string | null;
  readonly modified: string | null;
}

const toEntry = (item: Record<string, unknown>): DirectoryEntry => ({
  email: String(item.sk),
  username: String(item.username ?? ''),
  enabled: item.enabled === true,
  status: String(item.status ?? 'UNKNOWN'),
  group: typeof item.group === 'string' ? item.group : null,
  created: typeof item.created === 'string' ? item.created : null,
  modified: typeof item.modified === 'string' ? item.modified : null,
});

const toItem = (entry: DirectoryEntry) => ({
  pk: ENTRY_PK,
  sk: entry.email.toLowerCase(),
  username: entry.username,
  enabled: entry.enabled,
  status: entry.status,
  group: entry.group,
  created: entry.created,
  modified: entry.modified,
});

export const sameEntry = (a: DirectoryEntry | undefined, b: DirectoryEntry): boolean =>
  a !== undefined &&
  a.email === b.email &&
  a.username === b.username &&
  a.enabled === b.enabled &&
  a.status === b.status &&
  a.group === b.group &&
  a.created === b.created &&
  a.modified === b.modified;

/** Every entry (one partition, read in 1 MB pages). */
export const readDirectoryEntries = async (): Promise<DirectoryEntry[]> =>
  (await queryStatePartition(ENTRY_PK)).map(toEntry);

export const readDirectoryEntry = async (email: string): Promise<DirectoryEntry | undefined> => {
  const answer = await dynamo.send(
    new GetCommand({
      TableName: tableName(stateTable),
      Key: { pk: ENTRY_PK, sk: email.toLowerCase() },
      ConsistentRead: true,
    }),
  );
  return answer.Item ? toEntry(answer.Item) : undefined;
};

export const putDirectoryEntry = async (entry: DirectoryEntry): Promise<void> => {
  await dynamo.send(new PutCommand({ TableName: tableName(stateTable), Item: toItem(entry) }));
};

export const deleteDirectoryEntry = async (email: string): Promise<void> => {
  await dynamo.send(
    new DeleteCommand({ TableName: tableName(stateTable), Key: { pk: ENTRY_PK, sk: email.toLowerCase() } }),
  );
};

export type EntryChange = Partial<Pick<DirectoryEntry, 'enabled' | 'status' | 'group' | 'modified'>>;

/**
 * Changes an entry that exists; an account the copy does not hold yet is left to the next
 * read, which adds it from Cognito. With `unlessGroup`, an entry shown in that group is left
 * as it is too (one conditional write, no read first).
 */
export const updateDirectoryEntry = async (email: string, change: EntryChange, unlessGroup?: string): Promise<void> => {
  const fields = Object.entries(change).filter(([, value]) => value !== undefined);
  if (fields.length === 0) return;
  await writeIf(() =>
    dynamo.send(
      new UpdateCommand({
        TableName: tableName(stateTable),
        Key: { pk: ENTRY_PK, sk: email.toLowerCase() },
        ConditionExpression:
          unlessGroup === undefined
            ? 'attribute_exists(sk)'
            : 'attribute_exists(sk) AND (attribute_not_exists(#shown) OR #shown <> :unless)',
        UpdateExpression: `SET ${fields.map((_, index) => `#f${index} = :v${index}`).join(', ')}`,
        ExpressionAttributeNames: {
          ...Object.fromEntries(fields.map(([name], index) => [`#f${index}`, name])),
          ...(unlessGroup === undefined ? {} : { '#shown': 'group' }),
        },
        ExpressionAttributeValues: {
          ...Object.fromEntries(fields.map(([, value], index) => [`:v${index}`, value])),
          ...(unlessGroup === undefined ? {} : { ':unless': unlessGroup }),
        },
      }),
    ),
  );
};

/** Puts and deletes many entries, 25 a call, retrying what DynamoDB leaves unprocessed. */
export const writeDirectoryEntries = (puts: readonly DirectoryEntry[], deletes: readonly string[]): Promise<void> =>
  writeStateBatch(
    [
      ...puts.map((entry) => ({ PutRequest: { Item: toItem(entry) } })),
      ...deletes.map((email) => ({ DeleteRequest: { Key: { pk: ENTRY_PK, sk: email.toLowerCase() } } })),
    ],
    'directory writes',
  );

/** When the copy was last rebuilt from a full listing, or null if it never was (or must be again). */
export const readLastFullListing = async (): Promise<string | null> => {
  const answer = await dynamo.send(
    new GetCommand({ TableName: tableName(stateTable), Key: LISTED_KEY, ConsistentRead: true }),
  );
  return typeof answer.Item?.at === 'string' ? answer.Item.at : null;
};

export const recordFullListing = async (at: string = nowIso()): Promise<void> => {
  await dynamo.send(new PutCommand({ TableName: tableName(stateTable), Item: { ...LISTED_KEY, at } }));
};

/** Makes the next read rebuild the copy from a full listing. */
export const forgetFullListing = async (): Promise<void> => {
  await dynamo.send(new DeleteCommand({ TableName: tableName(stateTable), Key: LISTED_KEY }));
};
