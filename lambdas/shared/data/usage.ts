import { randomUUID } from 'node:crypto';
import { PutCommand, QueryCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { EmbedSource } from '#contracts/embed.ts';
import { RECENT_VIEWS_DAYS } from '#contracts/insights.ts';
import { usageTable } from '#contracts/tables.ts';
import { companiesLabel } from '#contracts/companies.ts';
import { isVerificationAccount } from '#contracts/verification.ts';
import { ENV } from '#contracts/env.ts';
import { dynamo } from '../aws/dynamo.ts';
import { optionalEnv } from '../env.ts';
import { ConfigurationError } from '../errors.ts';
import { epochSeconds, isConditionFailure, tableName, writeIf } from './tables.ts';

/**
 * Dashboard usage: one event per issued embed URL, and aggregates kept up to date as events
 * arrive with atomic ADD updates (no transactions), so the Insights page never reads events.
 * Every item carries `expiresAt` (TTL) at the end of the retention period.
 *
 * | pk | sk | holds |
 * | --- | --- | --- |
 * | EVENT#<email> | <ISO time>#<id> | one view: email, company, dashboardId, source, at |
 * | DAY#<scope> | <YYYY-MM-DD> | views that day, and `d:<dashboard id>` views per dashboard |
 * | WEEK#<scope> | <YYYY-Www> | activeUsers: users whose first view of the ISO week it was |
 * | USER | <email> | last seen, company, `s:<dashboard id>` last view per dashboard, a 32-day ring of daily counts
 * (`e<slot>` day, `n<slot>` views) and `w`/`w:<company>` the last active week |
 * | DASHBOARD | <dashboard id> | last viewed |
 *
 * A scope is ALL, or C#<company> (lowercased) for the views made through an assignment with
 * that Company Name. Reading a range costs one query per kind of aggregate, bounded by the
 * days and weeks in the range, plus the USER and DASHBOARD partitions (one item per user and
 * per dashboard), whatever the history.
 */

/** Days events and aggregates are kept when USAGE_RETENTION_DAYS is not set. */
export const DEFAULT_USAGE_RETENTION_DAYS = 400;

/** USAGE_RETENTION_DAYS: a whole number of days from 1 to 3650. */
export const usageRetentionDays = (): number => {
  const configured = optionalEnv(ENV.usageRetentionDays);
  if (configured === undefined) return DEFAULT_USAGE_RETENTION_DAYS;
  const days = Number(configured);
  if (!Number.isInteger(days) || days < 1 || days > 3650) {
    throw new ConfigurationError([ENV.usageRetentionDays], {
      reason: `${ENV.usageRetentionDays} must be a whole number of days from 1 to 3650`,
    });
  }
  return days;
};

export const ALL_SCOPE = 'ALL';
export const companyScope = (company: string): string => `C#${company.trim().toLowerCase()}`;

const DAY_MS = 86_400_000;
const RING_SLOTS = 32;
const USER_PARTITION = 'USER';
const DASHBOARD_PARTITION = 'DASHBOARD';

export const utcDay = (date: Date): string => date.toISOString().slice(0, 10);
const epochDay = (date: Date): number => Math.floor(date.getTime() / DAY_MS);
const dayStart = (day: string): Date => new Date(`${day}T00:00:00Z`);

/** ISO 8601 week of a date (weeks start on Monday; week 1 holds the year's first Thursday). */
export const isoWeekOf = (date: Date): { week: string; start: string } => {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const weekday = (day.getUTCDay() + 6) % 7;
  const monday = new Date(day.getTime() - weekday * DAY_MS);
  const thursday = new Date(monday.getTime() + 3 * DAY_MS);
  const year = thursday.getUTCFullYear();
  const firstThursday = new Date(Date.UTC(year, 0, 4));
  const firstMonday = new Date(firstThursday.getTime() - ((firstThursday.getUTCDay() + 6) % 7) * DAY_MS);
  const number = Math.round((monday.getTime() - firstMonday.getTime()) / (7 * DAY_MS)) + 1;
  return { week: `${year}-W${String(number).padStart(2, '0')}`, start: utcDay(monday) };
};

export interface ViewEvent {
  readonly email: string;
  /** The viewer's companies (company model): the view counts in each company's figures. */
  readonly companies?: readonly string[] | undefined;
  readonly dashboardId: string;
  readonly source: EmbedSource;
  readonly at: Date;
}

const expiry = (from: Date, retentionDays: number): number =>
  epochSeconds(new Date(from.getTime() + retentionDays * DAY_MS));

const update = (
  key: { pk: string; sk: string },
  input: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName' | 'Key'>,
) => dynamo.send(new UpdateCommand({ TableName: tableName(usageTable), Key: key, ...input }));

/**
 * The user's summary: last seen, last view per dashboard and today's slot of the ring. The
 * slot is counted up while it holds today, else restarted at 1 for today; each step is one
 * conditional update, so concurrent views never lose a count. Answers the active weeks the
 * item held before (`w`, `w:<company>`), which tell whether this was the week's first view.
 */
const updateUserSummary = async (event: ViewEvent, scopes: readonly string[], week: string, expiresAt: number) => {
  const today = epochDay(event.at);
  const slot = today % RING_SLOTS;
  const names: Record<string, string> = {
    '#e': `e${slot}`,
    '#n': `n${slot}`,
    '#seen': `s:${event.dashboardId}`,
    '#views': 'views',
  };
  const values: Record<string, unknown> = {
    ':at': event.at.toISOString(),
    ':exp': expiresAt,
    ':one': 1,
    ':day': today,
    ':week': week,
  };
  const weekSets = scopes.map((scope, index) => {
    names[`#w${index}`] = scope === ALL_SCOPE ? 'w' : `w:${scope.slice(2)}`;
    return `#w${index} = :week`;
  });
  const company = companiesLabel(event.companies ?? []);
  if (company) values[':company'] = company;
  const common = [
    'lastSeenAt = :at',
    'expiresAt = :exp',
    '#seen = :at',
    ...weekSets,
    ...(company ? ['company = :company'] : []),
  ];
  const key = { pk: USER_PARTITION, sk: event.email };
  for (let attempt = 0; attempt < 3; attempt += 1) {
    for (const step of ['same day', 'new day'] as const) {
      try {
        const output = await update(key, {
          UpdateExpression:
            step === 'same day'
              ? `SET ${common.join(', ')} ADD #n :one, #views :one`
              : `SET ${common.join(', ')}, #e = :day, #n = :one ADD #views :one`,
          ConditionExpression: step === 'same day' ? '#e = :day' : 'attribute_not_exists(#e) OR #e <> :day',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'UPDATED_OLD',
        });
        const old = output.Attributes ?? {};
        return scopes.filter((_, index) => old[names[`#w${index}`]!] !== week);
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    }
  }
  throw new Error('The user summary kept changing while a view was recorded');
};

/** Records one dashboard view: the event and every aggregate it counts in. */
export const recordDashboardView = async (event: ViewEvent, retentionDays: number): Promise<void> => {
  const at = event.at.toISOString();
  const day = utcDay(event.at);
  const { week, start } = isoWeekOf(event.at);
  const company = companiesLabel(event.companies ?? []) || undefined;
  const scopes = [
    ALL_SCOPE,
    ...new Set(
      (event.companies ?? [])
        .map((name) => name.trim())
        .filter((name) => name !== '')
        .map(companyScope),
    ),
  ];
  const expiresAt = expiry(event.at, retentionDays);
  const countDay = (scope: string) =>
    update(
      { pk: `DAY#${scope}`, sk: day },
      {
        UpdateExpression: 'SET expiresAt = :exp ADD #views :one, #dashboard :one',
        ExpressionAttributeNames: { '#views': 'views', '#dashboard': `d:${event.dashboardId}` },
        ExpressionAttributeValues: { ':exp': expiry(dayStart(day), retentionDays + 1), ':one': 1 },
      },
    );
  const countActiveUser = (scope: string) =>
    update(
      { pk: `WEEK#${scope}`, sk: week },
      {
        UpdateExpression: 'SET expiresAt = :exp, #start = :start ADD activeUsers :one',
        ExpressionAttributeNames: { '#start': 'start' },
        ExpressionAttributeValues: { ':exp': expiry(dayStart(start), retentionDays + 7), ':start': start, ':one': 1 },
      },
    );
  await Promise.all([
    dynamo.send(
      new PutCommand({
        TableName: tableName(usageTable),
        Item: {
          pk: `EVENT#${event.email}`,
          sk: `${at}#${randomUUID()}`,
          email: event.email,
          ...(company ? { company } : {}),
          dashboardId: event.dashboardId,
          source: event.source,
          at,
          expiresAt,
          // A view by npm run verify-deployment's temporary user, which the tool removes afterwards.
          ...(isVerificationAccount(event.email) && { verification: true }),
        },
      }),
    ),
    ...scopes.map(countDay),
    // A view that arrives after a later one (concurrent requests) leaves the later time.
    writeIf(() =>
      update(
        { pk: DASHBOARD_PARTITION, sk: event.dashboardId },
        {
          UpdateExpression: 'SET lastViewedAt = :at, expiresAt = :exp',
          ConditionExpression: 'attribute_not_exists(lastViewedAt) OR lastViewedAt < :at',
          ExpressionAttributeValues: { ':at': at, ':exp': expiresAt },
        },
      ),
    ),
    updateUserSummary(event, scopes, week, expiresAt).then((firstOfWeek) =>
      Promise.all(firstOfWeek.map(countActiveUser)),
    ),
  ]);
};

const queryAll = async (input: Omit<QueryCommandInput, 'TableName'>): Promise<Record<string, unknown>[]> => {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(
      new QueryCommand({ ...input, TableName: tableName(usageTable), ExclusiveStartKey: startKey }),
    );
    items.push(...((page.Items ?? []) as Record<string, unknown>[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);
  return items;
};

const between = (pk: string, from: string, to: string) =>
  queryAll({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': pk, ':from': from, ':to': to },
  });

const partition = (pk: string) =>
  queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } });

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Attributes `<prefix><key>` of an item as a map from key to value. */
const prefixed = <T>(item: Record<string, unknown>, prefix: string, read: (value: unknown) => T): Map<string, T> => {
  const found = new Map<string, T>();
  for (const [name, value] of Object.entries(item))
    if (name.startsWith(prefix)) found.set(name.slice(prefix.length), read(value));
  return found;
};

export interface DayUsage {
  readonly day: string;
  readonly views: number;
  readonly byDashboard: ReadonlyMap<string, number>;
}

/** Views per day of the scope, days without views left out. */
export const dailyUsage = async (scope: string, from: string, to: string): Promise<DayUsage[]> =>
  (await between(`DAY#${scope}`, from, to)).map((item) => ({
    day: String(item.sk),
    views: count(item.views),
    byDashboard: prefixed(item, 'd:', count),
  }));

/** Active users per ISO week of the scope (weeks without views left out). */
export const weeklyActiveUsers = async (
  scope: string,
  fromWeek: string,
  toWeek: string,
): Promise<Map<string, number>> =>
  new Map((await between(`WEEK#${scope}`, fromWeek, toWeek)).map((item) => [String(item.sk), count(item.activeUsers)]));

export interface UserUsage {
  readonly email: string;
  readonly company: string | null;
  readonly lastSeenAt: string | null;
  /** Views in the RECENT_VIEWS_DAYS days up to and including `today`. */
  readonly recentViews: number;
  readonly lastViewByDashboard: ReadonlyMap<string, string>;
}

const toUserUsage = (item: Record<string, unknown>, today: Date): UserUsage => {
  const last = epochDay(today);
  let recentViews = 0;
  for (let slot = 0; slot < RING_SLOTS; slot += 1) {
    const day = item[`e${slot}`];
    if (typeof day === 'number' && day <= last && day > last - RECENT_VIEWS_DAYS)
      recentViews += count(item[`n${slot}`]);
  }
  const seen = new Map<string, string>();
  for (const [dashboardId, at] of prefixed(item, 's:', text)) if (at !== null) seen.set(dashboardId, at);
  return {
    email: String(item.sk),
    company: text(item.company),
    lastSeenAt: text(item.lastSeenAt),
    recentViews,
    lastViewByDashboard: seen,
  };
};

/** Up to `limit` users with a recorded view whose email sorts after `afterEmail`, in email order. */
export const pageUserUsage = async (
  afterEmail: string | undefined,
  limit: number,
  today: Date = new Date(),
): Promise<{ items: UserUsage[]; more: boolean }> => {
  const page = await dynamo.send(
    new QueryCommand({
      TableName: tableName(usageTable),
      KeyConditionExpression: afterEmail === undefined ? 'pk = :pk' : 'pk = :pk AND sk > :after',
      ExpressionAttributeValues: {
        ':pk': USER_PARTITION,
        ...(afterEmail === undefined ? {} : { ':after': afterEmail }),
      },
      Limit: limit,
    }),
  );
  return {
    items: (page.Items ?? []).map((item) => toUserUsage(item, today)),
    more: page.LastEvaluatedKey !== undefined,
  };
};

/** Last view of every dashboard with a recorded view. */
export const dashboardLastViews = async (): Promise<Map<string, string>> =>
  new Map(
    (await partition(DASHBOARD_PARTITION)).flatMap((item) => {
      const at = text(item.lastViewedAt);
      return at === null ? [] : [[String(item.sk), at] as const];
    }),
  );
