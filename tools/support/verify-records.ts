import {
  DeleteCommand,
  GetCommand,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';

/**
 * What `npm run verify-deployment` leaves in the tables, and the part of it that it removes.
 * The functions mark what a verification account does (contracts/verification.ts): audit
 * entries and view events carry `verification: true`. The audit entries stay (the trail is
 * never edited or shortened); the temporary user's usage record is removed, and only items
 * the functions marked are touched. Item layout: lambdas/shared/data/usage.ts and audit.ts.
 */
export interface VerificationRecords {
  readonly dynamo: DynamoDBDocumentClient;
  readonly auditTable: string;
  readonly usageTable: string;
}

type Item = Record<string, unknown>;

async function partition(records: VerificationRecords, table: string, pk: string, from?: string): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Item | undefined;
  do {
    const page = await records.dynamo.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: from === undefined ? 'pk = :pk' : 'pk = :pk AND sk >= :from',
        ExpressionAttributeValues: { ':pk': pk, ...(from === undefined ? {} : { ':from': from }) },
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...((page.Items ?? []) as Item[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);
  return items;
}

/** The usage scopes a view counted in: every view in ALL, and in C#<company> for each of the viewer's companies. */
const scopesOf = (company: unknown): string[] => [
  'ALL',
  ...(typeof company === 'string' && company !== ''
    ? company.split(', ').map((name) => `C#${name.trim().toLowerCase()}`)
    : []),
];

/**
 * Takes one back out of each counter of an item, never below zero (a count already expired or removed stays as it
 * is).
 */
async function countDown(
  records: VerificationRecords,
  key: { pk: string; sk: string },
  counters: readonly string[],
): Promise<void> {
  const names = Object.fromEntries(counters.map((counter, index) => [`#c${index}`, counter]));
  try {
    await records.dynamo.send(
      new UpdateCommand({
        TableName: records.usageTable,
        Key: key,
        UpdateExpression: `ADD ${counters.map((_, index) => `#c${index} :minus`).join(', ')}`,
        ConditionExpression: counters.map((_, index) => `#c${index} >= :one`).join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':minus': -1, ':one': 1 },
      }),
    );
  } catch (error) {
    if (!(error instanceof Error && error.name === 'ConditionalCheckFailedException')) throw error;
  }
}

export interface RemovedUsage {
  /** View events removed (and taken back out of the daily counts). */
  readonly events: number;
  /** Whether the user's summary (last seen, recent views, active week) was removed. */
  readonly summary: boolean;
  /** Events of the account that were not marked as verification, left alone. */
  readonly unmarked: number;
}

/**
 * Removes a verification account's usage record: each view event marked `verification`,
 * taken back out of its day's view counts (ALL and its companies); the user's summary item,
 * taken back out of the active users of the week it counted in. The dashboard's last-viewed
 * time stays: the time it held before the run is not kept anywhere.
 */
export async function removeUsageRecord(records: VerificationRecords, email: string): Promise<RemovedUsage> {
  const events = await partition(records, records.usageTable, `EVENT#${email}`);
  let removed = 0;
  let unmarked = 0;
  for (const event of events) {
    if (event.verification !== true) {
      unmarked += 1;
      continue;
    }
    const day = String(event.at).slice(0, 10);
    for (const scope of scopesOf(event.company))
      await countDown(records, { pk: `DAY#${scope}`, sk: day }, ['views', `d:${String(event.dashboardId)}`]);
    await records.dynamo.send(
      new DeleteCommand({ TableName: records.usageTable, Key: { pk: event.pk, sk: event.sk } }),
    );
    removed += 1;
  }
  const summaryKey = { pk: 'USER', sk: email };
  const summary = (await records.dynamo.send(new GetCommand({ TableName: records.usageTable, Key: summaryKey }))).Item;
  if (summary === undefined || unmarked > 0) return { events: removed, summary: false, unmarked };
  // `w` is the ISO week the user last counted as active in ALL, `w:<company>` in a company.
  for (const [name, week] of Object.entries(summary)) {
    if (typeof week !== 'string' || !(name === 'w' || name.startsWith('w:'))) continue;
    const scope = name === 'w' ? 'ALL' : `C#${name.slice(2).toLowerCase()}`;
    await countDown(records, { pk: `WEEK#${scope}`, sk: week }, ['activeUsers']);
  }
  await records.dynamo.send(new DeleteCommand({ TableName: records.usageTable, Key: summaryKey }));
  return { events: removed, summary: true, unmarked };
}

/** The audit entries an actor wrote since `since` (ISO time), and how many of them carry the verification mark. */
export async function auditEntriesOf(
  records: VerificationRecords,
  actor: string,
  since: string,
): Promise<{ entries: number; marked: number }> {
  const entries = (await partition(records, records.auditTable, 'AUDIT', since)).filter((item) => item.actor === actor);
  return { entries: entries.length, marked: entries.filter((item) => item.verification === true).length };
}
