import { seedCompany, seedMembership } from './support/companies.ts';
import { GenerateEmbedUrlForRegisteredUserCommand } from '@aws-sdk/client-quicksight';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { USAGE_RECORD_FAILURES_METRIC } from '#contracts/metrics.ts';
import {
  ADMIN,
  type Handler,
  type Harness,
  invoke,
  loadHandler,
  observeDynamoCommands,
  OTHER_USER,
  startHarness,
  USER,
} from './support/harness.ts';

let h: Harness;
let embedHandler: Handler;
let adminHandler: Handler;
let stdout: MockInstance<typeof process.stdout.write>;
let recordDashboardView: typeof import('#lambdas/shared/data/usage.ts').recordDashboardView;

const DAY = 86_400_000;
const usage = () => h.tables.scan('USAGE_TABLE');

beforeAll(async () => {
  h = await startHarness({ USAGE_RETENTION_DAYS: '30', POWERTOOLS_METRICS_NAMESPACE: 'Portal-usage-test' });
  embedHandler = await loadHandler('embed');
  adminHandler = await loadHandler('quicksight-admin');
  ({ recordDashboardView } = await import('#lambdas/shared/data/usage.ts'));
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  const view = (id: string, userEmail: string, dashboard: string) =>
    h.tables.put('VIEWS_TABLE', {
      id,
      userEmail,
      quicksightDashboardId: dashboard,
      name: `View ${dashboard}`,
      createdAt: 't',
      updatedAt: 't',
    });
  // Each user's company is their membership; the views refer to the user only.
  await seedCompany(h, 'c-acme', 'Acme Tools');
  await seedCompany(h, 'c-bolt', 'Bolt Distribution');
  await seedMembership(h, USER.email, ['c-acme']);
  await seedMembership(h, OTHER_USER.email, ['c-bolt']);
  await view('v1', USER.email, 'sales');
  await view('v2', USER.email, 'inventory');
  await view('v3', OTHER_USER.email, 'sales');
  for (const [id, name] of [
    ['sales', 'Sales Performance'],
    ['inventory', 'Inventory'],
    ['margins', 'Margins'],
  ]) {
    await h.tables.put('DASHBOARDS_TABLE', {
      id: `m-${id}`,
      dashboardId: id,
      dashboardName: name,
      dashboardLink: `https://bi.example.com/${id}`,
      isActive: true,
      createdAt: 't',
      updatedAt: 't',
    });
  }
  h.quicksight
    .on(GenerateEmbedUrlForRegisteredUserCommand)
    .resolves({ EmbedUrl: 'https://quicksight.example.com/embed/abc', Status: 200, RequestId: 'r' });
  stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => stdout.mockRestore());

const embed = async (dashboardId: string, headers: Record<string, string> = {}, account = USER) =>
  invoke(embedHandler, {
    method: 'GET',
    token: await h.token(account),
    headers: { 'x-dashboard-id': dashboardId, ...headers },
  });
const insights = async (body: Record<string, unknown>, account = ADMIN) =>
  invoke(adminHandler, { token: await h.token(account), body: { action: 'GET_INSIGHTS', ...body } });
const usageMetrics = () =>
  stdout.mock.calls
    .flatMap(([chunk]) => String(chunk).split('\n'))
    .filter((line) => line.includes(USAGE_RECORD_FAILURES_METRIC) && line.includes('CloudWatchMetrics'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('view events from the embed function', () => {
  it("records who opened which dashboard, when, from which page, with the viewer's company and a TTL", async () => {
    await seedCompany(h, 'c-acme', 'Acme Tools');
    await seedMembership(h, USER.email, ['c-acme']);
    const before = Date.now();
    const res = await embed('sales', { 'x-embed-source': 'switch' });
    expect(res.status).toBe(200);
    const items = await usage();
    const event = items.find((item) => String(item.pk).startsWith('EVENT#'));
    expect(event).toMatchObject({
      pk: `EVENT#${USER.email}`,
      email: USER.email,
      company: 'Acme Tools',
      dashboardId: 'sales',
      source: 'switch',
    });
    const at = Date.parse(String(event!.at));
    expect(at).toBeGreaterThanOrEqual(before);
    // USAGE_RETENTION_DAYS=30: the event expires 30 days after the view.
    expect(event!.expiresAt).toBe(Math.floor((at + 30 * DAY) / 1000));
    const day = new Date(at).toISOString().slice(0, 10);
    expect(items.find((item) => item.pk === 'DAY#ALL' && item.sk === day)).toMatchObject({ views: 1, 'd:sales': 1 });
    expect(items.find((item) => item.pk === 'DAY#C#acme tools' && item.sk === day)).toMatchObject({
      views: 1,
      'd:sales': 1,
    });
    expect(items.find((item) => item.pk === 'USER' && item.sk === USER.email)).toMatchObject({
      company: 'Acme Tools',
      's:sales': event!.at,
      views: 1,
    });
    expect(
      items.filter((item) => String(item.pk).startsWith('WEEK#')).map((item) => [item.pk, item.activeUsers]),
    ).toEqual(
      expect.arrayContaining([
        ['WEEK#ALL', 1],
        ['WEEK#C#acme tools', 1],
      ]),
    );
    for (const item of items) expect(typeof item.expiresAt).toBe('number');
  });

  it('calls a request without a page the default page', async () => {
    expect((await embed('inventory')).status).toBe(200);
    expect((await usage()).find((item) => String(item.pk).startsWith('EVENT#'))).toMatchObject({ source: 'default' });
  });

  it('refuses an unknown page with 400 before any QuickSight call and records nothing', async () => {
    const res = await embed('sales', { 'x-embed-source': 'homepage' });
    expect(res).toMatchObject({ status: 400, body: { fields: ['x-embed-source'] } });
    expect(String(res.body.error)).toContain('x-embed-source must be one of default, switch, refresh, renewal');
    expect(h.quicksight.calls()).toHaveLength(0);
    expect(await usage()).toEqual([]);
  });

  it('records nothing when no URL is issued', async () => {
    expect((await embed('margins')).status).toBe(403);
    h.quicksight
      .on(GenerateEmbedUrlForRegisteredUserCommand)
      .rejects(Object.assign(new Error('slow down'), { name: 'ThrottlingException' }));
    expect((await embed('sales')).status).toBe(502);
    expect(await usage()).toEqual([]);
  });

  it('still returns the URL when the view cannot be recorded, and logs and counts the failure', async () => {
    const table = process.env.USAGE_TABLE;
    process.env.USAGE_TABLE = 'missing-table';
    try {
      const res = await embed('sales');
      expect(res.status).toBe(200);
      expect(res.body.url).toBe('https://quicksight.example.com/embed/abc');
    } finally {
      process.env.USAGE_TABLE = table;
    }
    expect(usageMetrics()).toEqual([
      expect.objectContaining({ [USAGE_RECORD_FAILURES_METRIC]: 1, reason: 'error', service: 'embed' }),
    ]);
  });

  it('answers once the 1 s recording budget is spent when the table does not answer, counting a timeout', async () => {
    const { recordViewWithinBudget } = await import('#lambdas/embed/record-view.ts');
    const { createLogger } = await import('#lambdas/shared/logger.ts');
    const usageModule = await import('#lambdas/shared/data/usage.ts');
    const companiesModule = await import('#lambdas/shared/data/companies.ts');
    const stuck = vi.spyOn(usageModule, 'recordDashboardView').mockReturnValue(new Promise<never>(() => {}));
    const companies = vi.spyOn(companiesModule, 'companyNamesOfUser').mockResolvedValue([]);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let answered = false;
      const answer = recordViewWithinBudget(
        { email: USER.email, dashboardId: 'sales', source: 'renewal', at: new Date() },
        createLogger('embed'),
      ).then(() => {
        answered = true;
      });
      // setImmediate stays real: waiting for it lets every settled promise run its callbacks.
      const settle = () => new Promise((resolve) => setImmediate(resolve));
      await vi.advanceTimersByTimeAsync(999);
      await settle();
      expect(answered).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await settle();
      expect(answered).toBe(true);
      await answer;
      expect(stuck).toHaveBeenCalledTimes(1);
      expect(usageMetrics()).toEqual([expect.objectContaining({ reason: 'timeout' })]);
    } finally {
      vi.useRealTimers();
      stuck.mockRestore();
      companies.mockRestore();
    }
  });
});

describe('usage aggregates', () => {
  it('counts concurrent views of one user on one day exactly, and the user once in the week', async () => {
    const at = new Date('2026-03-04T10:00:00Z');
    await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        recordDashboardView(
          { email: USER.email, dashboardId: index % 2 ? 'sales' : 'inventory', source: 'refresh', at },
          400,
        ),
      ),
    );
    const items = await usage();
    expect(items.find((item) => item.pk === 'DAY#ALL' && item.sk === '2026-03-04')).toMatchObject({
      views: 12,
      'd:sales': 6,
      'd:inventory': 6,
    });
    expect(items.find((item) => item.pk === 'WEEK#ALL' && item.sk === '2026-W10')).toMatchObject({
      activeUsers: 1,
      start: '2026-03-02',
    });
    expect(items.filter((item) => String(item.pk).startsWith('EVENT#'))).toHaveLength(12);
  });
});

describe('GET_INSIGHTS', () => {
  const seed = async () => {
    const view = (email: string, dashboardId: string, at: string, company?: string) =>
      recordDashboardView(
        { email, dashboardId, companies: company ? [company] : [], source: 'default', at: new Date(at) },
        400,
      );
    // 40 days before: USER once; week 2026-W10 (Mon 2 March): USER twice, OTHER_USER once; week W11: USER once.
    await view(USER.email, 'sales', '2026-01-20T09:00:00Z', 'Acme Tools');
    await view(USER.email, 'sales', '2026-03-03T09:00:00Z', 'Acme Tools');
    await view(USER.email, 'sales', '2026-03-04T09:00:00Z', 'Acme Tools');
    await view(OTHER_USER.email, 'sales', '2026-03-05T09:00:00Z', 'Bolt Distribution');
    await view(USER.email, 'sales', '2026-03-10T09:00:00Z', 'Acme Tools');
  };

  it('answers active users per ISO week and views per dashboard from the aggregates, never reading events', async () => {
    await seed();
    const queried: string[] = [];
    await observeDynamoCommands((command, input) => {
      if (input.TableName === process.env.USAGE_TABLE)
        queried.push(`${command} ${JSON.stringify(input.ExpressionAttributeValues ?? {})}`);
    });
    const res = await insights({ from: '2026-03-01', to: '2026-03-12' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      from: '2026-03-01',
      to: '2026-03-12',
      company: null,
      totalViews: 4,
      retentionDays: 30,
      weeks: [
        { week: '2026-W09', start: '2026-02-23', activeUsers: 0, views: 0 },
        { week: '2026-W10', start: '2026-03-02', activeUsers: 2, views: 3 },
        { week: '2026-W11', start: '2026-03-09', activeUsers: 1, views: 1 },
      ],
      dashboards: [
        {
          dashboardId: 'sales',
          name: 'Sales Performance',
          inCatalogue: true,
          views: 4,
          lastViewedAt: '2026-03-10T09:00:00.000Z',
        },
        { dashboardId: 'inventory', name: 'Inventory', inCatalogue: true, views: 0, lastViewedAt: null },
        { dashboardId: 'margins', name: 'Margins', inCatalogue: true, views: 0, lastViewedAt: null },
      ],
    });
    // Daily items of the range, weekly items of its weeks, the dashboards' last views: no events, no scan.
    expect(queried.filter((call) => call.startsWith('Query'))).toHaveLength(3);
    expect(queried.some((call) => call.includes('EVENT#') || call.startsWith('Scan'))).toBe(false);
  });

  it('narrows the figures to one company, case-insensitively', async () => {
    await seed();
    const res = await insights({ from: '2026-03-01', to: '2026-03-12', company: 'acme tools' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ company: 'acme tools', totalViews: 3 });
    expect((res.body.weeks as { activeUsers: number }[]).map((week) => week.activeUsers)).toEqual([0, 1, 1]);
    expect(res.body.dashboards).toEqual(
      expect.arrayContaining([expect.objectContaining({ dashboardId: 'sales', views: 3 })]),
    );
  });

  it('counts a user once per week however many views they make', async () => {
    await seed();
    const res = await insights({ from: '2026-03-02', to: '2026-03-08' });
    expect(res.body.weeks).toEqual([{ week: '2026-W10', start: '2026-03-02', activeUsers: 2, views: 3 }]);
  });

  it.each([
    [{ from: '2026-03-12', to: '2026-03-01' }, 'The start date must not be after the end date', 'from'],
    [{ from: '2025-01-01', to: '2026-03-01' }, 'The date range may cover at most 400 days', 'to'],
    [{ from: '2026-02-30', to: '2026-03-01' }, 'must be a real calendar date', 'from'],
    [{ from: '03/01/2026', to: '2026-03-01' }, 'must be a date written YYYY-MM-DD', 'from'],
    [
      { from: '2026-03-01', to: '2026-03-02', company: 'x'.repeat(201) },
      'Company must be at most 200 characters',
      'company',
    ],
    [{ to: '2026-03-02' }, undefined, 'from'],
  ])('refuses %j with 400 and changes nothing', async (body, message, field) => {
    await seed();
    const before = await usage();
    const res = await insights(body);
    expect(res.status).toBe(400);
    if (message !== undefined) expect(res.body.error).toBe(message);
    expect(res.body.fields).toContain(field);
    expect(await usage()).toEqual(before);
  });

  it('refuses a caller outside Admins with 403', async () => {
    const res = await insights({ from: '2026-03-01', to: '2026-03-12' }, USER);
    expect(res).toMatchObject({ status: 403, body: { error: "Access denied. You don't have admin privileges." } });
  });
});

describe('GET_INSIGHT_USERS', () => {
  const users = async (body: Record<string, unknown>, account = ADMIN) =>
    invoke(adminHandler, { token: await h.token(account), body: { action: 'GET_INSIGHT_USERS', ...body } });
  const FORMER = 'former@example.com';

  const seedViews = async () => {
    const view = (email: string, dashboardId: string, at: string, company?: string) =>
      recordDashboardView(
        { email, dashboardId, companies: company ? [company] : [], source: 'default', at: new Date(at) },
        400,
      );
    const now = Date.now();
    await view(USER.email, 'sales', new Date(now - 40 * DAY).toISOString(), 'Acme Tools');
    await view(USER.email, 'sales', new Date(now - 2 * DAY).toISOString(), 'Acme Tools');
    await view(USER.email, 'sales', new Date(now - DAY).toISOString(), 'Acme Tools');
    // Someone whose assignments are gone but whose views are recorded.
    await view(FORMER, 'margins', new Date(now - 3 * DAY).toISOString(), 'Bolt Distribution');
    return now;
  };

  it('lists every user with an assignment or a recorded view: last seen, views in 30 days, assignments never opened', async () => {
    const now = await seedViews();
    const res = await users({});
    expect(res.status).toBe(200);
    expect(res.body.nextToken).toBeNull();
    expect(res.body.users).toEqual([
      {
        email: FORMER,
        companies: ['Bolt Distribution'],
        lastSeenAt: new Date(now - 3 * DAY).toISOString(),
        recentViews: 1,
        assigned: [],
      },
      {
        email: OTHER_USER.email,
        companies: ['Bolt Distribution'],
        lastSeenAt: null,
        recentViews: 0,
        assigned: [{ dashboardId: 'sales', name: 'View sales', companyName: 'Bolt Distribution', lastViewedAt: null }],
      },
      {
        email: USER.email,
        companies: ['Acme Tools'],
        lastSeenAt: new Date(now - DAY).toISOString(),
        // The view of 40 days ago is outside the last 30 days.
        recentViews: 2,
        assigned: expect.arrayContaining([
          {
            dashboardId: 'sales',
            name: 'View sales',
            companyName: 'Acme Tools',
            lastViewedAt: new Date(now - DAY).toISOString(),
          },
          { dashboardId: 'inventory', name: 'View inventory', companyName: 'Acme Tools', lastViewedAt: null },
        ]),
      },
    ]);
  });

  it('pages through the users in email order without repeating or missing anyone', async () => {
    await seedViews();
    const seen: string[] = [];
    let nextToken: string | undefined;
    let pages = 0;
    do {
      const res = await users({ limit: 1, ...(nextToken ? { nextToken } : {}) });
      expect(res.status).toBe(200);
      seen.push(...(res.body.users as { email: string }[]).map((user) => user.email));
      nextToken = (res.body.nextToken as string | null) ?? undefined;
      pages += 1;
    } while (nextToken !== undefined && pages < 10);
    expect(seen).toEqual([FORMER, OTHER_USER.email, USER.email]);
  });

  it('keeps to one company: its assignments, and its recorded viewers', async () => {
    await seedViews();
    const res = await users({ company: 'BOLT distribution' });
    expect(
      (res.body.users as { email: string; assigned: unknown[] }[]).map((user) => [user.email, user.assigned.length]),
    ).toEqual([
      [FORMER, 0],
      [OTHER_USER.email, 1],
    ]);
  });

  it("shows a company's new name, and an owner under each of their companies, from the records alone", async () => {
    await seedViews();
    // A rename writes the company's record only; an owner holds both companies.
    await seedCompany(h, 'c-acme', 'Acme Industrial');
    await seedMembership(h, OTHER_USER.email, ['c-acme', 'c-bolt'], true);
    const all = await users({});
    const rows = new Map((all.body.users as { email: string; companies: string[] }[]).map((u) => [u.email, u]));
    expect(rows.get(USER.email)).toMatchObject({
      companies: ['Acme Industrial'],
      assigned: expect.arrayContaining([expect.objectContaining({ companyName: 'Acme Industrial' })]),
    });
    expect(rows.get(OTHER_USER.email)).toMatchObject({ companies: ['Acme Industrial', 'Bolt Distribution'] });
    for (const company of ['acme INDUSTRIAL', 'Bolt Distribution']) {
      const listed = await users({ company });
      expect((listed.body.users as { email: string }[]).map((user) => user.email)).toContain(OTHER_USER.email);
    }
    // The old name finds only what was recorded under it (the views of the past), no assignment.
    const former = await users({ company: 'Acme Tools' });
    expect(
      (former.body.users as { email: string; assigned: unknown[] }[]).map((user) => [user.email, user.assigned.length]),
    ).toEqual([[USER.email, 0]]);
  });

  it.each([
    [{ limit: 0 }, 'limit'],
    [{ limit: 501 }, 'limit'],
    [{ nextToken: 'not-a-token' }, 'nextToken'],
    [{ nextToken: Buffer.from(JSON.stringify({ pk: 'USER', sk: 'x' })).toString('base64url') }, 'nextToken'],
    [{ company: '' }, 'company'],
  ])('refuses %j with 400', async (body, field) => {
    const res = await users(body);
    expect(res.status).toBe(400);
    expect(res.body.fields).toContain(field);
  });

  it('refuses a caller outside Admins with 403', async () => {
    expect((await users({}, USER)).status).toBe(403);
  });
});
