import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { stateTable } from '#contracts/tables.ts';
import { dashboardIdExistsMessage } from '#contracts/fields.ts';
import { dynamo } from '../aws/dynamo.ts';
import { ConflictError } from '../errors.ts';
import { isConditionFailure, tableName, writeIf } from './tables.ts';

/**
 * Catalogue dashboard IDs are unique case-insensitively. A claim item per lowercased ID
 * (pk DASHBOARD#<id>, sk CLAIM, metadataId) is taken with a conditional put BEFORE the
 * catalogue record is written and given back after the record is deleted or renamed, so two
 * concurrent creates of "Sales" and "sales" cannot both succeed.
 *
 * A claim whose catalogue record does not hold the ID is left over by a request that died
 * between its steps. It is taken over once older than CLAIM_STALE_AFTER_MS (Lambda's longest
 * timeout), when its holder cannot still be running.
 */
const CLAIM_STALE_AFTER_MS = 15 * 60 * 1000;

interface ClaimItem {
  metadataId: string;
  claimedAt: number;
}

const claimKey = (dashboardId: string) => ({ pk: `DASHBOARD#${dashboardId.toLowerCase()}`, sk: 'CLAIM' });

/** Whether a catalogue record currently carries this dashboard ID (any case). */
export type HoldsDashboardId = (metadataId: string, dashboardId: string) => Promise<boolean>;

const putClaim = async (
  dashboardId: string,
  metadataId: string,
  condition: { expression: string; values: Record<string, unknown> },
) => {
  await dynamo.send(
    new PutCommand({
      TableName: tableName(stateTable),
      Item: { ...claimKey(dashboardId), metadataId, claimedAt: Date.now() },
      ConditionExpression: condition.expression,
      ExpressionAttributeValues: Object.keys(condition.values).length > 0 ? condition.values : undefined,
    }),
  );
};

/**
 * Claims `dashboardId` for the record `metadataId` (idempotent for the same record).
 * Throws the spec's 409 when another record holds it.
 */
export const claimDashboardId = async (
  dashboardId: string,
  metadataId: string,
  holds: HoldsDashboardId,
): Promise<void> => {
  try {
    await putClaim(dashboardId, metadataId, {
      expression: 'attribute_not_exists(pk) OR metadataId = :id',
      values: { ':id': metadataId },
    });
    return;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  const conflict = new ConflictError(dashboardIdExistsMessage(dashboardId));
  const current = await dynamo.send(
    new GetCommand({ TableName: tableName(stateTable), Key: claimKey(dashboardId), ConsistentRead: true }),
  );
  const claim = current.Item as ClaimItem | undefined;
  if (claim === undefined) {
    // Given back between the two reads: one more conditional attempt decides.
    try {
      await putClaim(dashboardId, metadataId, { expression: 'attribute_not_exists(pk)', values: {} });
      return;
    } catch (error) {
      if (isConditionFailure(error)) throw conflict;
      throw error;
    }
  }
  if (await holds(claim.metadataId, dashboardId)) throw conflict;
  if (Date.now() - claim.claimedAt < CLAIM_STALE_AFTER_MS) throw conflict;
  try {
    await putClaim(dashboardId, metadataId, {
      expression: 'metadataId = :stale AND claimedAt = :claimedAt',
      values: { ':stale': claim.metadataId, ':claimedAt': claim.claimedAt },
    });
  } catch (error) {
    if (isConditionFailure(error)) throw conflict;
    throw error;
  }
};

/** Gives a claim back if this record still holds it (idempotent). */
export const releaseDashboardId = async (dashboardId: string, metadataId: string): Promise<void> => {
  await writeIf(() =>
    dynamo.send(
      new DeleteCommand({
        TableName: tableName(stateTable),
        Key: claimKey(dashboardId),
        ConditionExpression: 'metadataId = :id',
        ExpressionAttributeValues: { ':id': metadataId },
      }),
    ),
  );
};
