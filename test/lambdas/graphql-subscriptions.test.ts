import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DescribeDashboardCommand, DescribeDataSetCommand } from '@aws-sdk/client-quicksight';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SUBSCRIPTION_MESSAGES } from '#contracts/subscriptions.ts';
import { STATE_DUE_INDEX } from '#contracts/tables.ts';
import { fakeQuickSight, scopedDataSet, seedCompany, seedMembership, unscopedDataSet } from './support/companies.ts';
import {
  account,
  ADMIN,
  type Harness,
  lambdaContext,
  loadHandler,
  observeDynamoCommands,
  OTHER_USER,
  type Resolver,
  startHarness,
  type TestAccount,
  USER,
} from './support/harness.ts';
import { WEEKLY_PDF } from './support/subscriptions.ts';

/**
 * The subscription fields of lambdas/graphql/subscriptions.ts: every rule enforced on the server
 * (assignment, company, deliverable data, the per-user limit, ownership), the stored item and its
 * place in the due index, and the audit trail of every create, pause, resume and delete.
 */

let h: Harness;
let handler: Resolver;
let documents: DynamoDBDocumentClient;
/** The DynamoDB commands the handler sent, with the table each acts on. */
const commandsSent: { command: string; table: unknown }[] = [];

const NOW = '2026-03-02T10:00:00.000Z'; // a Monday
const AT = '2026-01-01T00:00:00.000Z';
const NORTHWIND = 'Northwind Manufacturing';
const CONTOSO = 'Contoso Distribution';

beforeAll(async () => {
  h = await startHarness();
  handler = (await loadHandler('graphql')) as Resolver;
  await observeDynamoCommands((command, input) => commandsSent.push({ command, table: input.TableName }));
  documents = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: h.dynamo.endpoint,
      region: 'us-east-2',
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    }),
  );
});
afterAll(() => {
  documents.destroy();
  return h.close();
});
afterEach(() => {
  vi.useRealTimers();
});

beforeEach(async () => {
  await h.reset();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(NOW));
  const view = (userEmail: string, dashboard: string) =>
    h.tables.put('VIEWS_TABLE', {
      id: randomUUID(),
      userEmail,
      quicksightDashboardId: dashboard,
      name: dashboard,
      createdAt: AT,
      updatedAt: AT,
      createdBy: ADMIN.email,
    });
  for (const dashboard of ['sales', 'shared', 'open', 'gone', 'untagged', 'uncatalogued'])
    await view(USER.email, dashboard);
  await view(OTHER_USER.email, 'sales');
  await view(OTHER_USER.email, 'secret');
  await view(ADMIN.email, 'sales');
  const entry = (dashboardId: string, dashboardName: string, sharedData?: boolean) =>
    h.tables.put('DASHBOARDS_TABLE', {
      id: `m-${dashboardId}`,
      dashboardId,
      dashboardName,
      dashboardLink: `https://bi.example.com/${dashboardId}`,
      isActive: true,
      createdAt: AT,
      updatedAt: AT,
      ...(sharedData === undefined ? {} : { sharedData }),
    });
  await entry('sales', 'Sales');
  await entry('shared', 'Price list', true);
  await entry('open', 'Open data', false);
  await entry('secret', 'Secret');
  await entry('untagged', 'Untagged');
  // 'uncatalogued' is company-scoped in QuickSight but has no catalogue entry.
  // 'gone' is assigned but in neither the catalogue nor QuickSight.
  const world = fakeQuickSight(h);
  world.dashboards.set('sales', ['sales-data']);
  world.dashboards.set('secret', ['sales-data']);
  world.dashboards.set('open', ['sales-data', 'open-data']);
  world.dashboards.set('shared', ['shared-data']);
  world.dashboards.set('untagged', ['untagged-data']);
  world.dashboards.set('uncatalogued', ['sales-data']);
  // The group rules, and the tag rule an emailed file's rows are chosen by.
  world.dataSets.set('sales-data', {
    ...scopedDataSet('sales-data'),
    RowLevelPermissionTagConfiguration: {
      Status: 'ENABLED',
      TagRules: [{ TagKey: 'company', ColumnName: 'company', TagMultiValueDelimiter: ',' }],
    },
  });
  world.dataSets.set('untagged-data', scopedDataSet('untagged-data'));
  world.dataSets.set('open-data', unscopedDataSet('open-data'));
  world.dataSets.set('shared-data', unscopedDataSet('shared-data'));
  await seedCompany(h, 'c-north', NORTHWIND);
  await seedCompany(h, 'c-contoso', CONTOSO, 'distributor');
  await seedCompany(h, 'c-fabrikam', 'Fabrikam Industries');
  await seedMembership(h, USER.email, ['c-north', 'c-contoso'], true);
  await seedMembership(h, OTHER_USER.email, ['c-fabrikam']);
  commandsSent.length = 0;
});

const gql = async (
  who: TestAccount,
  parentTypeName: 'Query' | 'Mutation',
  fieldName: string,
  args: Record<string, unknown> = {},
) =>
  handler(
    {
      arguments: args,
      identity: { sub: who.username, username: who.username, claims: {}, groups: who.groups },
      source: null,
      request: { headers: { authorization: await h.token(who) } },
      info: { fieldName, parentTypeName, variables: {}, selectionSetList: [] },
      prev: null,
      stash: {},
    },
    lambdaContext(),
  ) as Promise<Record<string, unknown>>;

/** What the subscription form sends: a weekly PDF on Mondays at 08:00 in London, for all companies. */
const weekly = (changes: Record<string, unknown> = {}) => ({
  ...WEEKLY_PDF,
  ...changes,
});

const create = (who: TestAccount, changes: Record<string, unknown> = {}) =>
  gql(who, 'Mutation', 'createSubscription', { input: weekly(changes) });

const stored = async () => (await h.tables.state()).filter((item) => item.pk === 'SUBSCRIPTIONS');
const WRITES = ['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand'];
const stateWrites = () =>
  commandsSent.filter(({ command, table }) => table === process.env.STATE_TABLE && WRITES.includes(command));
/** The due index as the delivery function reads it: every active subscription, by due time. */
const dueIndex = async () =>
  (
    await documents.send(
      new QueryCommand({
        TableName: process.env.STATE_TABLE,
        IndexName: STATE_DUE_INDEX,
        KeyConditionExpression: 'dueKey = :due',
        ExpressionAttributeValues: { ':due': 'DUE' },
      }),
    )
  ).Items ?? [];
const auditTrail = async () =>
  (await h.tables.audit()).map((entry) => [entry.action, entry.actor, entry.target, entry.outcome, entry.detail]);

describe('createSubscription', () => {
  it('stores the subscription with its next delivery and answers it', async () => {
    const answer = await create(USER, { company: NORTHWIND });
    const id = String(answer.id);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const subscription = {
      id,
      dashboardId: 'sales',
      dashboardName: 'Sales',
      format: 'PDF',
      frequency: 'WEEKLY',
      weekday: 'MONDAY',
      dayOfMonth: null,
      time: '08:00',
      timeZone: 'Europe/London',
      company: NORTHWIND,
      status: 'ACTIVE',
      // Monday 10:00 UTC is past this Monday's 08:00 in London (GMT): next Monday.
      nextDeliveryAt: '2026-03-09T08:00:00.000Z',
    };
    expect(answer).toEqual({
      ...subscription,
      lastDeliveryAt: null,
      lastOutcome: null,
      lastError: null,
      createdAt: NOW,
    });
    expect(await stored()).toEqual([
      {
        pk: 'SUBSCRIPTIONS',
        sk: `${USER.email}#${id}`,
        email: USER.email,
        ...subscription,
        attempts: 0,
        createdAt: NOW,
        dueKey: 'DUE',
        dueAt: '2026-03-09T08:00:00.000Z',
      },
    ]);
    // The lease taken for the limit is given back.
    expect((await h.tables.state()).filter((item) => String(item.pk).startsWith('LEASE#'))).toEqual([]);
    expect(await dueIndex()).toEqual([expect.objectContaining({ id, dueAt: '2026-03-09T08:00:00.000Z' })]);
  });

  it('takes daily and monthly schedules, time zones with "/" and "_", and a dashboard confirmed as shared data', async () => {
    const daily = await create(USER, {
      dashboardId: 'shared',
      format: 'CSV',
      frequency: 'DAILY',
      weekday: null,
      time: '23:45',
      timeZone: 'America/Argentina/Buenos_Aires',
    });
    expect(daily).toMatchObject({ dashboardName: 'Price list', nextDeliveryAt: '2026-03-03T02:45:00.000Z' });
    // Shared data needs no look at its datasets.
    expect(h.quicksight.commandCalls(DescribeDashboardCommand)).toHaveLength(0);
    const monthly = await create(USER, { frequency: 'MONTHLY', weekday: null, dayOfMonth: 1, timeZone: 'Asia/Tokyo' });
    expect(monthly).toMatchObject({ dayOfMonth: 1, nextDeliveryAt: '2026-03-31T23:00:00.000Z' });
    expect((await stored()).map((item) => item.id).sort()).toEqual([daily.id, monthly.id].sort());
  });

  const refusals: [string, () => Promise<unknown>, { name: string; message: string }][] = [
    ['a time off the quarter hour', () => create(USER, { time: '08:10' }), bad(SUBSCRIPTION_MESSAGES.timeInvalid)],
    ['an unknown time zone', () => create(USER, { timeZone: 'Mars/Olympus_Mons' }), bad('timeZoneInvalid')],
    ['a weekly delivery without its day', () => create(USER, { weekday: null }), bad('weekdayRequired')],
    ['a day of the month on a weekly delivery', () => create(USER, { dayOfMonth: 3 }), bad('dayOfMonthUnexpected')],
    ['an unknown format', () => create(USER, { format: 'XLSX' }), bad('formatInvalid')],
    ['a dashboard assigned to another user', () => create(USER, { dashboardId: 'secret' }), refused('notAssigned')],
    ['a dashboard that does not exist', () => create(USER, { dashboardId: 'nowhere' }), refused('notAssigned')],
    ['another company', () => create(USER, { company: 'Fabrikam Industries' }), bad('companyInvalid')],
    ['a company spelt otherwise', () => create(USER, { company: 'northwind manufacturing' }), bad('companyInvalid')],
    ['a company for a user in none', () => create(ADMIN, { company: NORTHWIND }), refused('noCompany')],
    ['all companies for a user in none', () => create(ADMIN), refused('noCompany')],
    ['a dashboard not company-scoped', () => create(USER, { dashboardId: 'open' }), refused('notDeliverable')],
    ['a dataset without the tag rule', () => create(USER, { dashboardId: 'untagged' }), refused('notDeliverable')],
    [
      'a dashboard not in the catalogue',
      () => create(USER, { dashboardId: 'uncatalogued' }),
      refused('notDeliverable'),
    ],
    ['a dashboard QuickSight lacks', () => create(USER, { dashboardId: 'gone' }), refused('notDeliverable')],
    // The rules in order: assignment before company, company before the dashboard's data.
    [
      'not assigned, and another company',
      () => create(USER, { dashboardId: 'secret', company: 'X' }),
      refused('notAssigned'),
    ],
    [
      'not scoped, and another company',
      () => create(USER, { dashboardId: 'open', company: 'X' }),
      bad('companyInvalid'),
    ],
  ];

  it.each(refusals)('refuses %s with its message, storing nothing', async (_what, call, error) => {
    await expect(call()).rejects.toMatchObject(error);
    expect(await stored()).toEqual([]);
    expect(stateWrites()).toEqual([]);
    expect(await auditTrail()).toEqual([
      ['CREATE_SUBSCRIPTION', expect.any(String), expect.any(String), 'failure', error.message],
    ]);
  });

  it('refuses the 11th subscription, and a deleted one frees its place', async () => {
    const ids: unknown[] = [];
    for (let n = 0; n < 10; n += 1) ids.push((await create(USER)).id);
    await expect(create(USER)).rejects.toMatchObject({ name: 'Conflict', message: SUBSCRIPTION_MESSAGES.tooMany });
    expect(await stored()).toHaveLength(10);
    // Another user's limit is their own.
    await create(OTHER_USER);
    expect(await gql(USER, 'Mutation', 'deleteSubscription', { id: ids[3] })).toMatchObject({ id: ids[3] });
    await create(USER);
    expect((await stored()).filter((item) => item.email === USER.email)).toHaveLength(10);
  });

  it('lets only one of two concurrent creates take the last place', async () => {
    for (let n = 1; n < 10; n += 1) await create(USER);
    const outcomes = await Promise.allSettled([create(USER), create(USER, { format: 'CSV' })]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(outcomes.find((outcome) => outcome.status === 'rejected')).toMatchObject({
      reason: { name: 'Conflict', message: SUBSCRIPTION_MESSAGES.tooMany },
    });
    expect(await stored()).toHaveLength(10);
  });

  it('checks the arguments before reading anything: the character rule refuses a hidden character', async () => {
    await expect(create(USER, { timeZone: 'Europe/London\u202e' })).rejects.toMatchObject({
      name: 'BadRequest',
      message:
        'input.timeZone must not contain control characters, line separators or bidirectional formatting characters',
    });
    await expect(gql(USER, 'Mutation', 'deleteSubscription', { id: `${randomUUID()}\u0007` })).rejects.toMatchObject({
      name: 'BadRequest',
    });
    expect(commandsSent).toEqual([]);
    expect(h.quicksight.commandCalls(DescribeDataSetCommand)).toHaveLength(0);
  });
});

describe('listMySubscriptions', () => {
  it("lists the caller's own subscriptions only, oldest first; an administrator's are their own", async () => {
    const first = await create(USER);
    vi.setSystemTime(new Date('2026-03-02T10:05:00.000Z'));
    await create(OTHER_USER);
    const second = await create(USER, { format: 'CSV' });
    vi.setSystemTime(new Date('2026-03-02T10:01:00.000Z'));
    const between = await create(USER, { frequency: 'DAILY', weekday: null });
    expect((await gql(USER, 'Query', 'listMySubscriptions')) as unknown).toEqual([first, between, second]);
    expect(((await gql(OTHER_USER, 'Query', 'listMySubscriptions')) as unknown as unknown[]).length).toBe(1);
    expect(await gql(ADMIN, 'Query', 'listMySubscriptions')).toEqual([]);
  });
});

describe('setSubscriptionPaused and deleteSubscription', () => {
  it('pausing takes it out of the due index; resuming puts it back at its next time from now', async () => {
    const { id } = await create(USER);
    const paused = await gql(USER, 'Mutation', 'setSubscriptionPaused', { id, paused: true });
    expect(paused).toMatchObject({ id, status: 'PAUSED', nextDeliveryAt: null });
    expect(await dueIndex()).toEqual([]);
    expect((await stored())[0]).not.toHaveProperty('dueKey');
    vi.setSystemTime(new Date('2026-03-09T09:00:00.000Z'));
    const resumed = await gql(USER, 'Mutation', 'setSubscriptionPaused', { id, paused: false });
    expect(resumed).toMatchObject({ id, status: 'ACTIVE', nextDeliveryAt: '2026-03-16T08:00:00.000Z' });
    expect(await dueIndex()).toEqual([expect.objectContaining({ id, dueAt: '2026-03-16T08:00:00.000Z', attempts: 0 })]);
  });

  it('deletes and answers the subscription as it was', async () => {
    const created = await create(USER);
    expect(await gql(USER, 'Mutation', 'deleteSubscription', { id: created.id })).toEqual(created);
    expect(await stored()).toEqual([]);
    expect(await dueIndex()).toEqual([]);
    await expect(gql(USER, 'Mutation', 'deleteSubscription', { id: created.id })).rejects.toMatchObject({
      name: 'NotFound',
      message: SUBSCRIPTION_MESSAGES.notFound,
    });
  });

  it("finds another user's subscription for nobody else, administrators included", async () => {
    const { id } = await create(USER);
    const before = await stored();
    const notFound = { name: 'NotFound', message: SUBSCRIPTION_MESSAGES.notFound };
    for (const who of [OTHER_USER, ADMIN, account('user@example.com.evil', ['Users'])]) {
      await expect(gql(who, 'Mutation', 'setSubscriptionPaused', { id, paused: true })).rejects.toMatchObject(notFound);
      await expect(gql(who, 'Mutation', 'deleteSubscription', { id })).rejects.toMatchObject(notFound);
    }
    await expect(gql(USER, 'Mutation', 'deleteSubscription', { id: randomUUID() })).rejects.toMatchObject(notFound);
    await expect(gql(USER, 'Mutation', 'deleteSubscription', { id: 'not-an-id' })).rejects.toMatchObject({
      name: 'BadRequest',
      message: 'id must be the id of a subscription',
    });
    expect(await stored()).toEqual(before);
  });
});

describe('audit trail', () => {
  it('records every create, pause, resume and delete, for every caller, refusals included', async () => {
    const { id } = await create(USER, { company: CONTOSO });
    await gql(USER, 'Mutation', 'setSubscriptionPaused', { id, paused: true });
    await gql(USER, 'Mutation', 'setSubscriptionPaused', { id, paused: false });
    await expect(gql(OTHER_USER, 'Mutation', 'deleteSubscription', { id })).rejects.toMatchObject({ name: 'NotFound' });
    await gql(USER, 'Mutation', 'deleteSubscription', { id });
    await seedMembership(h, ADMIN.email, ['c-north']);
    const { id: adminsId } = await create(ADMIN);
    const what = `subscription ${String(id)}: Sales, PDF, WEEKLY on MONDAY at 08:00 (Europe/London)`;
    expect((await auditTrail()).reverse()).toEqual([
      ['CREATE_SUBSCRIPTION', USER.email, 'sales', 'success', `${what}, company ${CONTOSO}`],
      ['PAUSE_SUBSCRIPTION', USER.email, 'sales', 'success', `${what}, company ${CONTOSO}`],
      ['RESUME_SUBSCRIPTION', USER.email, 'sales', 'success', `${what}, company ${CONTOSO}`],
      [
        'DELETE_SUBSCRIPTION',
        OTHER_USER.email,
        `subscription ${String(id)}`,
        'failure',
        SUBSCRIPTION_MESSAGES.notFound,
      ],
      ['DELETE_SUBSCRIPTION', USER.email, 'sales', 'success', `${what}, company ${CONTOSO}`],
      // An administrator's own subscription is audited once, as anyone's.
      [
        'CREATE_SUBSCRIPTION',
        ADMIN.email,
        'sales',
        'success',
        `subscription ${String(adminsId)}: Sales, PDF, WEEKLY on MONDAY at 08:00 (Europe/London), all companies`,
      ],
    ]);
  });
});

function bad(message: string) {
  const text =
    message in SUBSCRIPTION_MESSAGES ? SUBSCRIPTION_MESSAGES[message as keyof typeof SUBSCRIPTION_MESSAGES] : message;
  return { name: 'BadRequest', message: text };
}

function refused(message: keyof typeof SUBSCRIPTION_MESSAGES) {
  return { name: 'Unauthorized', message: SUBSCRIPTION_MESSAGES[message] };
}
