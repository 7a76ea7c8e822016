import { randomUUID } from 'node:crypto';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { isVerificationAccount } from '#contracts/verification.ts';
import { AUDIT_FILTER_MESSAGES, type AuditEntry, type AuditFilter } from '#contracts/user-admin.ts';
import { BadRequestError } from '../errors.ts';
import { auditTable } from '#contracts/tables.ts';
import { dynamo } from '../aws/dynamo.ts';
import { decodePageToken, encodePageToken } from './page-token.ts';
import { nowIso, tableName, writeIf } from './tables.ts';

/**
 * The admin activity trail: one item per admin mutation under one partition (pk AUDIT) with
 * a sort key of time, sequence and id, so the newest entries are one reverse Query away.
 */
const AUDIT_PARTITION = 'AUDIT';

export type AuditDraft = Omit<AuditEntry, 'id' | 'at'>;

/** Orders entries written by this instance within the same millisecond. */
let sequence = 0;

/** Keys tried per entry: the first, and a fresh one if an item already holds it. */
const KEY_ATTEMPTS = 2;

/**
 * Appends an entry to the trail. The put is conditioned on no item holding the key
 * (attribute_not_exists on the partition key), so an entry is never overwritten, whoever
 * wrote the item that is there. On that refusal the entry is written under a fresh key (a new
 * id, time and sequence); a second refusal is an error that names the key, never a silent loss.
 */
export const writeAuditEntry = async (draft: AuditDraft): Promise<AuditEntry> => {
  for (let attempt = 1; ; attempt += 1) {
    const entry: AuditEntry = { id: randomUUID(), at: nowIso(), ...draft };
    const sk = `${entry.at}#${String(sequence++ % 1e6).padStart(6, '0')}#${entry.id}`;
    const written = await writeIf(() =>
      dynamo.send(
        new PutCommand({
          TableName: tableName(auditTable),
          Item: {
            pk: AUDIT_PARTITION,
            sk,
            ...entry,
            // Entries of npm run verify-deployment's temporary administrator are kept, and marked.
            ...(isVerificationAccount(entry.actor) && { verification: true }),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
    if (written) return entry;
    if (attempt === KEY_ATTEMPTS)
      throw new Error(`Audit entry not written: an item already holds its key ${AUDIT_PARTITION}/${sk}`);
  }
};

const auditKeySchema = z.object({ pk: z.literal(AUDIT_PARTITION), sk: z.string().min(1).max(200) }).strict();

const toEntry = (item: Record<string, unknown>): AuditEntry => ({
  id: String(item.id),
  at: String(item.at),
  actor: String(item.actor),
  action: String(item.action),
  target: typeof item.target === 'string' ? item.target : null,
  outcome: item.outcome === 'success' ? 'success' : 'failure',
  detail: typeof item.detail === 'string' ? item.detail : null,
});

/**
 * The filter as a Query: the time range on the sort key (which starts with the ISO time,
 * `to` inclusive), actor, action, outcome and target as a filter expression.
 */
const auditQuery = (filter: AuditFilter) => {
  const values: Record<string, unknown> = { ':pk': AUDIT_PARTITION };
  const names: Record<string, string> = {};
  let keyCondition = 'pk = :pk';
  const from = filter.from === undefined ? undefined : new Date(filter.from).toISOString();
  // Every sort key of that millisecond sorts before "#~".
  const to = filter.to === undefined ? undefined : `${new Date(filter.to).toISOString()}#~`;
  if (from !== undefined && to !== undefined) {
    keyCondition += ' AND sk BETWEEN :from AND :to';
    Object.assign(values, { ':from': from, ':to': to });
  } else if (from !== undefined) {
    keyCondition += ' AND sk >= :from';
    values[':from'] = from;
  } else if (to !== undefined) {
    keyCondition += ' AND sk <= :to';
    values[':to'] = to;
  }
  const conditions: string[] = [];
  if (filter.actor !== undefined) {
    conditions.push('contains(actor, :actor)');
    values[':actor'] = filter.actor.toLowerCase();
  }
  if (filter.action !== undefined) {
    conditions.push('#action = :action');
    names['#action'] = 'action';
    values[':action'] = filter.action;
  }
  if (filter.outcome !== undefined) {
    conditions.push('outcome = :outcome');
    values[':outcome'] = filter.outcome;
  }
  if (filter.target !== undefined) {
    conditions.push('contains(#target, :target)');
    names['#target'] = 'target';
    values[':target'] = filter.target;
  }
  return {
    TableName: tableName(auditTable),
    KeyConditionExpression: keyCondition,
    ...(conditions.length > 0 ? { FilterExpression: conditions.join(' AND ') } : {}),
    ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
    ExpressionAttributeValues: values,
    ScanIndexForward: false,
  };
};

/** A filtered page reads on until it is full, but at most this many Query calls per request. */
const MAX_QUERIES_PER_PAGE = 20;

/**
 * One page of the trail, newest first. With a filter, DynamoDB applies it after reading, so
 * a Query may return fewer entries than asked for: the page reads on (never past `limit`
 * items read per call) until it is full or the trail ends; a page cut short by the call cap
 * still carries a nextToken.
 */
export const readAuditPage = async (
  limit: number,
  nextToken: string | undefined,
  filter: AuditFilter = {},
): Promise<{ entries: AuditEntry[]; nextToken: string | null }> => {
  const query = auditQuery(filter);
  const entries: AuditEntry[] = [];
  let startKey: Record<string, unknown> | undefined = decodePageToken(nextToken, auditKeySchema);
  for (let calls = 0; calls < MAX_QUERIES_PER_PAGE && entries.length < limit; calls += 1) {
    const page = await dynamo.send(
      new QueryCommand({ ...query, Limit: limit - entries.length, ExclusiveStartKey: startKey }),
    );
    entries.push(...(page.Items ?? []).map(toEntry));
    startKey = page.LastEvaluatedKey;
    if (startKey === undefined) break;
  }
  return { entries, nextToken: encodePageToken(startKey) };
};

/** Items read per Query while exporting. */
const EXPORT_PAGE_SIZE = 1000;

/**
 * Every entry matching the filter, newest first; more than `max` is refused (a file that
 * silently misses entries would mislead an auditor).
 */
export const readAllAuditEntries = async (filter: AuditFilter, max: number): Promise<AuditEntry[]> => {
  const query = auditQuery(filter);
  const entries: AuditEntry[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(
      new QueryCommand({ ...query, Limit: EXPORT_PAGE_SIZE, ExclusiveStartKey: startKey }),
    );
    entries.push(...(page.Items ?? []).map(toEntry));
    if (entries.length > max) throw new BadRequestError(AUDIT_FILTER_MESSAGES.tooMany(max), { fields: ['filter'] });
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);
  return entries;
};
