import type { TableDefinition } from '#contracts/tables.ts';
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
