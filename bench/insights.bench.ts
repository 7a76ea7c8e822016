/**
 * The Insights page's load at 10,000 users with 365 days of recorded views (200 users and 30 days with `smoke`),
 * against 100 users
 * with 7 days: what the page asks before it shows its figures and first rows (GET_INSIGHTS and
 * the first GET_INSIGHT_USERS page, in parallel), and, without a target, every page of users.
 * The handler is the real one, DynamoDB is dynalite (local mode's DynamoDB) and Cognito is
 * mocked (its only calls are the caller's session and Admins checks, the same in both cases). The small set is
 * recorded through the embed function's own
 * code (recordDashboardView); the large one is written straight into the tables with the
 * same item shapes, aggregates only: the read never queries events, so millions of them
 * would change nothing but the seeding time. Each figure is the median of 5 reads.
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ADMIN, type Handler, type Harness, invoke, loadHandler, startHarness } from '#test/lambdas/support/harness.ts';
import { FIRST_INSIGHT_USERS_PAGE_SIZE, INSIGHT_USERS_PAGE_SIZE } from '#contracts/insights.ts';
import { writeAll } from './batch-write.ts';
import type { BenchOptions, BenchRow } from './types.ts';
import { median } from './median.ts';

const DAY_MS = 86_400_000;
/** The large set and the reads per figure; a smoke run reads a small large set once. */
const FULL = { users: 10_000, days: 365, runs: 5 };
const SMOKE = { users: 200, days: 30, runs: 1 };
const TARGET_RATIO = 2;
const DASHBOARDS = ['sales-performance', 'inventory-margins', 'distributor-scorecard'];
const COMPANIES = 20;

const day = (offset: number, now: Date) => new Date(now.getTime() - offset * DAY_MS);
const utcDay = (date: Date) => date.toISOString().slice(0, 10);
const emailOf = (set: string, index: number) => `${set}${String(index).padStart(5, '0')}@example.com`;
const companyOf = (index: number) => `Company ${index % COMPANIES}`;

const companyIdOf = (index: number) => `bench-company-${index % COMPANIES}`;

/** Each user is assigned two dashboards through their company. */
const views = (set: string, users: number) =>
  Array.from({ length: users }, (_, index) =>
    DASHBOARDS.slice(index % 2, (index % 2) + 2).map((dashboard) => ({
      id: `${set}-${index}-${dashboard}`,
      userEmail: emailOf(set, index),
      quicksightDashboardId: dashboard,
      name: dashboard,
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
    })),
  ).flat();

/** The companies, and each user's membership of one (lambdas/shared/data/companies.ts's item shapes). */
const companyRecords = () =>
  Array.from({ length: COMPANIES }, (_, index) => ({
    pk: 'COMPANY',
    sk: companyIdOf(index),
    name: companyOf(index),
    kind: 'distributor',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  }));
const memberships = (set: string, users: number) =>
  Array.from({ length: users }, (_, index) => ({
    pk: 'MEMBERSHIP',
    sk: emailOf(set, index),
    companyIds: [companyIdOf(index)],
    owner: false,
    updatedAt: '2025-01-01T00:00:00.000Z',
  }));

/** The aggregates of `users` users viewing one dashboard a day for `days` days (usage.ts's item shapes). */
async function largeAggregates(users: number, days: number, now: Date) {
  const { isoWeekOf } = await import('#lambdas/shared/data/usage.ts');
  const expiresAt = Math.floor(now.getTime() / 1000) + 400 * 86_400;
  const items: Record<string, unknown>[] = [];
  const weeks = new Set<string>();
  for (let offset = 0; offset < days; offset += 1) {
    const date = day(offset, now);
    const perDashboard = Object.fromEntries(
      DASHBOARDS.map((dashboard, index) => [`d:${dashboard}`, Math.floor(users / 3) + (index === 0 ? users % 3 : 0)]),
    );
    items.push({ pk: 'DAY#ALL', sk: utcDay(date), views: users, ...perDashboard, expiresAt });
    for (let company = 0; company < COMPANIES; company += 1) {
      items.push({
        pk: `DAY#C#company ${company}`,
        sk: utcDay(date),
        views: users / COMPANIES,
        [`d:${DASHBOARDS[0]}`]: users / COMPANIES,
        expiresAt,
      });
    }
    weeks.add(JSON.stringify(isoWeekOf(date)));
  }
  for (const text of weeks) {
    const { week, start } = JSON.parse(text) as { week: string; start: string };
    items.push({ pk: 'WEEK#ALL', sk: week, start, activeUsers: users, expiresAt });
    for (let company = 0; company < COMPANIES; company += 1)
      items.push({ pk: `WEEK#C#company ${company}`, sk: week, start, activeUsers: users / COMPANIES, expiresAt });
  }
  const today = Math.floor(now.getTime() / DAY_MS);
  for (let index = 0; index < users; index += 1) {
    const ring: Record<string, number> = {};
    for (let slot = 0; slot < 32; slot += 1) {
      const epochDay = today - ((today - slot) % 32);
      ring[`e${slot}`] = epochDay;
      ring[`n${slot}`] = 1;
    }
    const at = now.toISOString();
    items.push({
      pk: 'USER',
      sk: emailOf('large', index),
      lastSeenAt: at,
      company: companyOf(index),
      [`s:${DASHBOARDS[index % 2]}`]: at,
      [`s:${DASHBOARDS[(index % 2) + 1]}`]: at,
      w: JSON.parse([...weeks][0]!).week,
      [`w:company ${index % COMPANIES}`]: JSON.parse([...weeks][0]!).week,
      views: days,
      expiresAt,
      ...ring,
    });
  }
  for (const dashboard of DASHBOARDS)
    items.push({ pk: 'DASHBOARD', sk: dashboard, lastViewedAt: now.toISOString(), expiresAt });
  return items;
}

const call = async (handler: Handler, token: string, body: Record<string, unknown>) => {
  const answer = await invoke(handler, { token, body });
  if (answer.status !== 200)
    throw new Error(`${String(body.action)} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
};

/** The page's first requests, as it makes them: the figures and the first (smaller) page of users, in parallel. */
const pageLoad = (handler: Handler, token: string, range: Record<string, unknown>) =>
  Promise.all([
    call(handler, token, { action: 'GET_INSIGHTS', ...range }),
    call(handler, token, { action: 'GET_INSIGHT_USERS', limit: FIRST_INSIGHT_USERS_PAGE_SIZE }),
  ]);

/** Median time of the page's first requests. */
async function timePageLoad(
  handler: Handler,
  token: string,
  range: Record<string, unknown>,
  runs: number,
): Promise<number> {
  // One untimed load first, so neither case pays for compiling the handler's code.
  await pageLoad(handler, token, range);
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    await pageLoad(handler, token, range);
    times.push(performance.now() - started);
  }
  return median(times);
}

/** Time to read every page of users, and how many there are. */
async function timeAllUsers(handler: Handler, token: string): Promise<{ ms: number; users: number; pages: number }> {
  const started = performance.now();
  let users = 0;
  let pages = 0;
  let nextToken: string | null = null;
  do {
    // As the page asks: a smaller first page, then pages of the default size.
    const limit = nextToken === null ? FIRST_INSIGHT_USERS_PAGE_SIZE : INSIGHT_USERS_PAGE_SIZE;
    const page = await call(handler, token, {
      action: 'GET_INSIGHT_USERS',
      limit,
      ...(nextToken ? { nextToken } : {}),
    });
    users += (page.users as unknown[]).length;
    nextToken = page.nextToken as string | null;
    pages += 1;
  } while (nextToken !== null);
  return { ms: performance.now() - started, users, pages };
}

export async function run(options: BenchOptions = { smoke: false }): Promise<BenchRow[]> {
  const large = options.smoke ? SMOKE : FULL;
  const RUNS = large.runs;
  const h: Harness = await startHarness({ POWERTOOLS_LOG_LEVEL: 'SILENT' });
  try {
    await h.reset();
    const handler = await loadHandler('quicksight-admin');
    const { recordDashboardView } = await import('#lambdas/shared/data/usage.ts');
    const client = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        endpoint: h.dynamo.endpoint,
        region: 'us-east-2',
        credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      }),
    );
    const token = await h.token(ADMIN);
    const now = new Date();
    for (const [index, dashboard] of DASHBOARDS.entries()) {
      await h.tables.put('DASHBOARDS_TABLE', {
        id: `m-${index}`,
        dashboardId: dashboard,
        dashboardName: dashboard,
        dashboardLink: `https://bi.example.com/${dashboard}`,
        isActive: true,
        createdAt: 't',
        updatedAt: 't',
      });
    }

    // 100 users, 7 days, one view a day each, recorded as the embed function records them.
    await writeAll(client, process.env.STATE_TABLE!, [...companyRecords(), ...memberships('small', 100)]);
    await writeAll(client, process.env.VIEWS_TABLE!, views('small', 100));
    for (let offset = 0; offset < 7; offset += 1) {
      const at = day(offset, now);
      for (let index = 0; index < 100; index += 10) {
        await Promise.all(
          Array.from({ length: 10 }, (_, step) =>
            recordDashboardView(
              {
                email: emailOf('small', index + step),
                companies: [companyOf(index + step)],
                dashboardId: DASHBOARDS[(index + step) % 2]!,
                source: 'default',
                at,
              },
              400,
            ),
          ),
        );
      }
    }
    const week = { from: utcDay(day(6, now)), to: utcDay(now) };
    const small = await timePageLoad(handler, token, week, RUNS);
    const smallUsers = await timeAllUsers(handler, token);

    await writeAll(client, process.env.STATE_TABLE!, memberships('large', large.users));
    await writeAll(client, process.env.VIEWS_TABLE!, views('large', large.users));
    await writeAll(client, process.env.USAGE_TABLE!, await largeAggregates(large.users, large.days, now));
    const year = await timePageLoad(handler, token, { from: utcDay(day(large.days - 1, now)), to: utcDay(now) }, RUNS);
    const month = await timePageLoad(handler, token, { from: utcDay(day(29, now)), to: utcDay(now) }, RUNS);
    const largeUsers = await timeAllUsers(handler, token);
    client.destroy();
    const row = (metric: string, ms: number): BenchRow => ({
      area: 'insights',
      metric,
      value: `${ms.toFixed(0)} ms (${(ms / small).toFixed(2)}x)`,
      target: `<= ${TARGET_RATIO}x the 100-user load`,
      ok: ms / small <= TARGET_RATIO,
      kind: 'time',
    });
    /** Every user row is listed once: the 100 small-set users, then the small and large sets together. */
    const listed = (metric: string, count: number, expected: number): BenchRow => ({
      area: 'insights',
      metric,
      value: count.toLocaleString('en-US'),
      target: `= ${expected.toLocaleString('en-US')}`,
      ok: count === expected,
      kind: 'count',
    });
    return [
      {
        area: 'insights',
        metric: `page load, ${smallUsers.users} users × 7 days, 7-day range (median of ${RUNS})`,
        value: `${small.toFixed(0)} ms`,
      },
      row(
        `page load, ${largeUsers.users.toLocaleString('en-US')} users × ${large.days} days, ${large.days}-day range`,
        year,
      ),
      row(
        `page load, ${largeUsers.users.toLocaleString('en-US')} users × ${large.days} days, 30-day range (the default)`,
        month,
      ),
      listed('users listed, small set (every page)', smallUsers.users, 100),
      listed('users listed, both sets (every page)', largeUsers.users, 100 + large.users),
      {
        area: 'insights',
        metric: `every user row, ${smallUsers.users} users (${smallUsers.pages} page${smallUsers.pages === 1 ? '' : 's'})`,
        value: `${smallUsers.ms.toFixed(0)} ms`,
      },
      {
        area: 'insights',
        metric: `every user row, ${largeUsers.users.toLocaleString('en-US')} users (${largeUsers.pages} pages, after the first rows show)`,
        value: `${largeUsers.ms.toFixed(0)} ms`,
      },
    ];
  } finally {
    await h.close();
  }
}
