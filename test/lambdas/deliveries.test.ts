import {
  DescribeDashboardCommand,
  DescribeDashboardDefinitionCommand,
  DescribeDashboardSnapshotJobCommand,
  DescribeDashboardSnapshotJobResultCommand,
  DescribeDataSetCommand,
  StartDashboardSnapshotJobCommand,
  type RowLevelPermissionTagConfiguration,
} from '@aws-sdk/client-quicksight';
import { AdminGetUserCommand, UserNotFoundException } from '@aws-sdk/client-cognito-identity-provider';
import { SendEmailCommand } from '@aws-sdk/client-sesv2';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CreateSubscriptionInput } from '#contracts/subscriptions.ts';
import { scopedDataSet, seedCompany, seedMembership, unscopedDataSet } from './support/companies.ts';
import { type Harness, startHarness, USER } from './support/harness.ts';

let h: Harness;
let data: typeof import('#lambdas/shared/data/subscriptions.ts');
let run: typeof import('#lambdas/deliveries/run.ts');
let logger: import('#lambdas/shared/logger.ts').Logger;

const DASHBOARD = 'sales-overview';
const FILE_URL = 'https://snapshots.example.com/file?token=abc';
const CSV = 'company,revenue\nNorthwind,100\n';
const TAG_RULE = { TagKey: 'company', ColumnName: 'company', TagMultiValueDelimiter: ',' };
const TAG_RULES: RowLevelPermissionTagConfiguration = { Status: 'ENABLED', TagRules: [TAG_RULE] };

beforeAll(async () => {
  h = await startHarness({ POWERTOOLS_SERVICE_NAME: 'deliveries' });
  data = await import('#lambdas/shared/data/subscriptions.ts');
  run = await import('#lambdas/deliveries/run.ts');
  logger = (await import('#lambdas/shared/logger.ts')).createLogger('deliveries');
});
afterAll(() => h.close());

let enabled: boolean;
let jobs: { input: Record<string, unknown>; describes: number }[];
let fetched: string[];

beforeEach(async () => {
  await h.reset();
  enabled = true;
  jobs = [];
  fetched = [];
  await seedCompany(h, 'c-north', 'Northwind');
  await seedCompany(h, 'c-contoso', 'Contoso');
  await seedMembership(h, USER.email, ['c-north', 'c-contoso'], true);
  await h.tables.put('VIEWS_TABLE', {
    id: 'view-1',
    userEmail: USER.email,
    quicksightDashboardId: DASHBOARD,
    name: 'Sales overview',
    link: '',
    isDefault: true,
  });
  await h.tables.put('DASHBOARDS_TABLE', {
    id: 'cat-1',
    dashboardId: DASHBOARD,
    dashboardName: 'Sales overview',
    dashboardLink: 'https://example.com',
    isActive: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  });
  h.cognito.on(AdminGetUserCommand).callsFake(() => {
    if (!enabled) return { Username: USER.username, Enabled: false };
    return { Username: USER.username, Enabled: true, UserStatus: 'CONFIRMED' };
  });
  h.quicksight.on(DescribeDashboardCommand).resolves({
    Dashboard: { DashboardId: DASHBOARD, Version: { DataSetArns: ['arn:aws:quicksight:us-east-2:1:dataset/sales'] } },
  });
  h.quicksight
    .on(DescribeDataSetCommand)
    .resolves({ DataSet: { ...scopedDataSet('sales'), RowLevelPermissionTagConfiguration: TAG_RULES } });
  h.quicksight.on(DescribeDashboardDefinitionCommand).resolves({
    Definition: {
      DataSetIdentifierDeclarations: [],
      Sheets: [
        {
          SheetId: 'sheet-1',
          Visuals: [{ BarChartVisual: { VisualId: 'bar' } }, { TableVisual: { VisualId: 'table' } }],
        },
      ],
    },
  });
  h.quicksight.on(StartDashboardSnapshotJobCommand).callsFake((input: Record<string, unknown>) => {
    jobs.push({ input, describes: 0 });
    return { SnapshotJobId: input.SnapshotJobId };
  });
  h.quicksight.on(DescribeDashboardSnapshotJobCommand).callsFake(() => {
    const job = jobs.at(-1)!;
    job.describes += 1;
    return { JobStatus: job.describes < 2 ? 'RUNNING' : 'COMPLETED' };
  });
  h.quicksight.on(DescribeDashboardSnapshotJobResultCommand).resolves({
    JobStatus: 'COMPLETED',
    Result: { AnonymousUsers: [{ FileGroups: [{ S3Results: [{ S3Uri: FILE_URL }] }] }] },
  });
  h.ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
  vi.stubGlobal('fetch', async (url: string) => {
    fetched.push(url);
    return new Response(CSV, { status: 200 });
  });
});
afterEach(() => vi.unstubAllGlobals());

const WEEKLY_CSV: CreateSubscriptionInput = {
  dashboardId: DASHBOARD,
  format: 'CSV',
  frequency: 'WEEKLY',
  weekday: 'MONDAY',
  time: '08:00',
  timeZone: 'Europe/London',
};

/** A subscription whose first delivery (computed from `since`) is already due. */
const dueSubscription = (input: Partial<CreateSubscriptionInput> = {}, since = new Date('2026-11-01T00:00:00Z')) =>
  data.createSubscription(USER.email, { ...WEEKLY_CSV, ...input }, 'Sales overview', since);

const runNow = (now = new Date()) => run.runDeliveries(now, { logger, deadline: Date.now() + 10_000, pollMs: 1 });
const stored = async (id: string) => (await data.subscriptionsOf(USER.email)).find((s) => s.id === id);

describe('the delivery run', () => {
  it('mails the CSV of the first table, made as an anonymous user tagged with exactly the subscriber’s companies', async () => {
    const subscription = await dueSubscription();
    expect(subscription.nextDeliveryAt).toBe('2026-11-02T08:00:00.000Z');

    expect(await runNow()).toEqual({ due: 1, delivered: 1, retrying: 0, failed: 0, canceled: 0, skipped: 0 });
    const start = jobs[0]!.input;
    expect(start).toMatchObject({
      DashboardId: DASHBOARD,
      UserConfiguration: {
        AnonymousUsers: [{ RowLevelPermissionTags: [{ Key: 'company', Value: 'Contoso,Northwind' }] }],
      },
      SnapshotConfiguration: {
        FileGroups: [
          {
            Files: [
              {
                FormatType: 'CSV',
                SheetSelections: [{ SheetId: 'sheet-1', SelectionScope: 'SELECTED_VISUALS', VisualIds: ['table'] }],
              },
            ],
          },
        ],
      },
    });
    expect(fetched).toEqual([FILE_URL]);
    const mail = h.ses.commandCalls(SendEmailCommand)[0]!.args[0].input;
    expect(mail.Destination).toEqual({ ToAddresses: [USER.email] });
    expect(mail.Content?.Simple?.Subject?.Data).toBe('Sales overview: your scheduled CSV');
    expect(mail.Content?.Simple?.Body?.Text?.Data).toContain('https://portal.example.com/dashboards/sales-overview');
    // The schedule in the words the screens use.
    expect(mail.Content?.Simple?.Body?.Text?.Data).toContain('Schedule: weekly on Monday at 08:00 (Europe/London)');
    const attachment = mail.Content?.Simple?.Attachments?.[0];
    expect(attachment?.FileName).toMatch(/^Sales overview \d{4}-\d{2}-\d{2}\.csv$/);
    expect(attachment?.ContentType).toBe('text/csv');
    expect(Buffer.from(attachment!.RawContent!).toString()).toBe(CSV);

    const after = await stored(subscription.id);
    expect(after?.lastOutcome).toBe('DELIVERED');
    expect(after?.lastError).toBeNull();
    expect(Date.parse(after!.nextDeliveryAt!)).toBeGreaterThan(Date.now());
    const entries = await h.tables.audit();
    expect(entries.map((e) => [e.action, e.outcome, e.actor, e.target])).toEqual([
      ['DELIVER_SUBSCRIPTION', 'success', 'schedule', USER.email],
    ]);
    // Delivered once: the next run finds nothing due.
    expect((await runNow()).due).toBe(0);
  });

  it('keeps an owner’s choice of one company, and sends a PDF of the whole first sheet', async () => {
    await dueSubscription({ format: 'PDF', company: 'Northwind' });
    await runNow();
    expect(jobs[0]!.input).toMatchObject({
      UserConfiguration: { AnonymousUsers: [{ RowLevelPermissionTags: [{ Key: 'company', Value: 'Northwind' }] }] },
      SnapshotConfiguration: {
        FileGroups: [
          { Files: [{ FormatType: 'PDF', SheetSelections: [{ SheetId: 'sheet-1', SelectionScope: 'ALL_VISUALS' }] }] },
        ],
      },
    });
    expect(h.ses.commandCalls(SendEmailCommand)[0]!.args[0].input.Content?.Simple?.Attachments?.[0]?.ContentType).toBe(
      'application/pdf',
    );
  });

  it('cancels, audited, the subscriptions of a disabled account and sends nothing', async () => {
    const subscription = await dueSubscription();
    enabled = false;
    expect((await runNow()).canceled).toBe(1);
    expect(jobs).toEqual([]);
    expect(h.ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    expect(await stored(subscription.id)).toBeUndefined();
    const [entry] = await h.tables.audit();
    expect(entry).toMatchObject({ action: 'CANCEL_SUBSCRIPTION', target: USER.email });
    expect(String(entry?.detail)).toContain('disabled or deleted');
  });

  it('cancels a deleted account’s and an unassigned dashboard’s subscriptions', async () => {
    await dueSubscription();
    h.cognito
      .on(AdminGetUserCommand)
      .rejects(new UserNotFoundException({ message: 'User does not exist.', $metadata: {} }));
    expect((await runNow()).canceled).toBe(1);

    h.cognito.on(AdminGetUserCommand).resolves({ Username: USER.username, Enabled: true });
    await dueSubscription();
    await h.tables.put('VIEWS_TABLE', { id: 'view-1', userEmail: USER.email, quicksightDashboardId: 'other' });
    expect((await runNow()).canceled).toBe(1);
    expect(jobs).toEqual([]);
  });

  it('never makes a file of a dashboard that is not company-scoped: failed at once with the reason', async () => {
    const subscription = await dueSubscription();
    h.quicksight.on(DescribeDataSetCommand).resolves({ DataSet: unscopedDataSet('sales') });
    expect((await runNow()).failed).toBe(1);
    expect(jobs).toEqual([]);
    const after = await stored(subscription.id);
    expect(after?.lastOutcome).toBe('FAILED');
    expect(after?.lastError).toMatch(/^Not delivered: the dashboard is not company-scoped/);
  });

  it.each([
    ['no tag rules', undefined, 'no tag rules'],
    ['another column', { TagRules: [{ ...TAG_RULE, ColumnName: 'region' }] }, 'reads column region'],
    ['a match-all value', { TagRules: [{ ...TAG_RULE, MatchAllValue: '*' }] }, 'match-all value'],
    ['disabled rules', { ...TAG_RULES, Status: 'DISABLED' as const }, 'DISABLED'],
  ])('never makes a file when a dataset’s tag rules would not limit it to companies (%s)', async (_, rules, reason) => {
    const subscription = await dueSubscription();
    h.quicksight
      .on(DescribeDataSetCommand)
      .resolves({ DataSet: { ...scopedDataSet('sales'), RowLevelPermissionTagConfiguration: rules } });
    expect((await runNow()).failed).toBe(1);
    expect(jobs).toEqual([]);
    const after = await stored(subscription.id);
    expect(after?.lastError).toContain('Not delivered: its files would not be limited to companies');
    expect(after?.lastError).toContain(reason);
  });

  it('retries a failed job with back-off, then marks it failed with QuickSight’s reason', async () => {
    const subscription = await dueSubscription();
    h.quicksight.on(DescribeDashboardSnapshotJobCommand).resolves({ JobStatus: 'FAILED' });
    h.quicksight.on(DescribeDashboardSnapshotJobResultCommand).resolves({
      JobStatus: 'FAILED',
      ErrorInfo: { ErrorType: 'INTERNAL_ERROR', ErrorMessage: 'The visual could not be rendered' },
    });
    let now = Date.now();
    const waits: number[] = [];
    // Four attempts: three retries, then failed.
    for (let attempt = 1; attempt < 4; attempt += 1) {
      expect((await runNow(new Date(now))).retrying).toBe(1);
      const after = (await stored(subscription.id))!;
      expect(after.lastOutcome).toBe('RETRYING');
      expect(after.lastError).toBe('QuickSight could not make the file: The visual could not be rendered');
      waits.push(Math.round((Date.parse(after.dueAt!) - Date.now()) / 60_000));
      now = Date.parse(after.dueAt!) + 1;
    }
    expect(waits).toEqual([5, 10, 20]);
    expect((await runNow(new Date(now))).failed).toBe(1);
    const after = (await stored(subscription.id))!;
    expect(after.lastOutcome).toBe('FAILED');
    expect(after.attempts).toBe(0);
    expect(h.ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    expect((await h.tables.audit())[0]).toMatchObject({ action: 'DELIVER_SUBSCRIPTION', outcome: 'failure' });
  });

  it('takes at most 10 subscriptions a run, and a paused one never', async () => {
    const paused = await dueSubscription();
    await data.setPaused(paused, true);
    for (let index = 0; index < 9; index += 1) await dueSubscription();
    await data.createSubscription('second@example.com', WEEKLY_CSV, 'Sales overview', new Date('2026-11-01T00:00:00Z'));
    await data.createSubscription('third@example.com', WEEKLY_CSV, 'Sales overview', new Date('2026-11-01T00:00:00Z'));
    // 11 due (9 + 2): 10 taken; the others are not the subscriber's dashboards, so they are canceled.
    const summary = await runNow();
    expect(summary.due).toBe(10);
    // The dashboard's scope and its file's sheet are read once a run, however many of its subscriptions are due.
    // Which 10 of the 11 (all due at one time) a run takes is the index's order: 8 or 9 of them are the user's.
    expect(summary.delivered + summary.canceled).toBe(10);
    expect(summary.delivered).toBeGreaterThanOrEqual(8);
    expect(h.quicksight.commandCalls(DescribeDashboardCommand)).toHaveLength(1);
    expect(h.quicksight.commandCalls(DescribeDashboardDefinitionCommand)).toHaveLength(1);
    expect((await runNow()).due).toBe(1);
    expect((await stored(paused.id))?.status).toBe('PAUSED');
  });
});
