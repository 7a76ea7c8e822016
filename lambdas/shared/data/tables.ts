import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { stateTable, type TableDefinition } from '#contracts/tables.ts';
import { dynamo } from '../aws/dynamo.ts';
import { requireEnv } from '../env.ts';

/** The deployed name of a table, read when first needed so a function only requires its own tables. */
export const tableName = (table: TableDefinition): string => requireEnv(table.envVar);

/** ConditionalCheckFailedException from a conditional write. */
export const isConditionFailure = (error: unknown): boolean =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';

/** Runs a conditional write: true when it happened, false when its condition did not hold. */
export const writeIf = async (write: () => Promise<unknown>): Promise<boolean> => {
  try {
    await write();
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

export const nowIso = (): string => new Date().toISOString();
export const epochSeconds = (date: Date = new Date()): number => Math.floor(date.getTime() / 1000);

/** One put or delete of a BatchWriteItem call. */
export type StateWrite =
  { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Record<string, unknown> } };

/** BatchWriteItem takes at most 25 writes a call; unprocessed ones are retried with back-off this many times. */
const BATCH_SIZE = 25;
const BATCH_ATTEMPTS = 8;

/** Puts and deletes many State-table items, 25 a call, retrying what DynamoDB leaves unprocessed (`what`). */
export const writeStateBatch = async (requests: readonly StateWrite[], what: string): Promise<void> => {
  const table = tableName(stateTable);
  for (let start = 0; start < requests.length; start += BATCH_SIZE) {
    let pending = requests.slice(start, start + BATCH_SIZE);
    for (let attempt = 1; pending.length > 0; attempt += 1) {
      if (attempt > BATCH_ATTEMPTS) throw new Error(`DynamoDB left ${pending.length} ${what} unprocessed`);
      const answer = await dynamo.send(new BatchWriteCommand({ RequestItems: { [table]: [...pending] } }));
      pending = (answer.UnprocessedItems?.[table] ?? []) as StateWrite[];
      if (pending.length > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
    }
  }
};
