import { randomUUID } from 'node:crypto';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { AuditEntry } from '../../../contracts/user-admin.ts';
import { auditTable } from '../../../contracts/tables.ts';
import { dynamo } from '../aws/dynamo.ts';
import { decodePageToken, encodePageToken } from './page-token.ts';
import { nowIso, tableName } from './tables.ts';

/**
 * The admin activity trail: one item per admin mutation under one partition (pk AUDIT) with
 * a sort key of time, sequence and id, so the newest entries are one reverse Query away.
 */
const AUDIT_PARTITION = 'AUDIT';

export type AuditDraft = Omit<AuditEntry, 'id' | 'at'>;

/** Orders entries written by this instance within the same millisecond. */
let sequence = 0;

export const writeAuditEntry = async (draft: AuditDraft): Promise<AuditEntry> => {
  const entry: AuditEntry = { id: randomUUID(), at: nowIso(), ...draft };
  await dynamo.send(
    new PutCommand({
      TableName: tableName(auditTable),
      Item: { pk: AUDIT_PARTITION, sk: `${entry.at}#${String(sequence++ % 1e6).padStart(6, '0')}#${entry.id}`, ...entry },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return entry;
};

const auditKeySchema = z.object({ pk: z.literal(AUDIT_PARTITION), sk: z.string().min(1).max(200) }).strict();

export const readAuditPage = async (limit: number, nextToken: string | undefined): Promise<{ entries: AuditEntry[]; nextToken: string | null }> => {
  const page = await dynamo.send(
    new QueryCommand({
      TableName: tableName(auditTable),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': AUDIT_PARTITION },
      ScanIndexForward: false,
      Limit: limit,
      ExclusiveStartKey: decodePageToken(nextToken, auditKeySchema),
    }),
  );
  const entries = (page.Items ?? []).map(
    (item): AuditEntry => ({
      id: String(item.id),
      at: String(item.at),
      actor: String(item.actor),
      action: String(item.action),
      target: typeof item.target === 'string' ? item.target : null,
      outcome: item.outcome === 'success' ? 'success' : 'failure',
      detail: typeof item.detail === 'string' ? item.detail : null,
    }),
  );
  return { entries, nextToken: encodePageToken(page.LastEvaluatedKey) };
};
