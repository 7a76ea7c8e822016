import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  listSubscriptionsResponseSchema,
  SUBSCRIPTION_ADMIN_MESSAGES,
  subscriptionActionResponseSchema,
} from '#contracts/admin-subscriptions.ts';
import { SUBSCRIPTION_MESSAGES, type CreateSubscriptionInput } from '#contracts/subscriptions.ts';
import type * as SubscriptionItems from '#lambdas/shared/data/subscription-items.ts';
import type * as SubscriptionData from '#lambdas/shared/data/subscriptions.ts';
import { seedCompany, seedMembership } from './support/companies.ts';
import {
  ADMIN,
  type Handler,
  type Harness,
  invoke,
  loadHandler,
  OTHER_USER,
  startHarness,
  USER,
} from './support/harness.ts';
import { WEEKLY_PDF } from './support/subscriptions.ts';

/**
 * The subscription actions of the QuickSight management function (the admin portal's Deliveries
 * page): Admins only, every subscription listed with its recipient's companies, Send now making an
 * active subscription due at once, Cancel deleting it and freeing the recipient's place, each
 * change audited under the recipient.
 */

let h: Harness;
let handler: Handler;
let data: typeof SubscriptionData;
let items: typeof SubscriptionItems;
let adminToken: string;

/** When the seeded subscriptions were created: a Monday, 10:00 UTC. */
const CREATED = new Date('2026-03-02T10:00:00.000Z');
const NORTHWIND = 'Northwind Manufacturing';
const CONTOSO = 'Contoso Distribution';
const FABRIKAM = 'Fabrikam Industries';

beforeAll(async () => {
  h = await startHarness();
  handler = await loadHandler('quicksight-admin');
  data = await import('#lambdas/shared/data/subscriptions.ts');
  items = await import('#lambdas/shared/data/subscription-items.ts');
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  adminToken = await h.token(ADMIN);
  await seedCompany(h, 'c-north', NORTHWIND);
  await seedCompany(h, 'c-contoso', CONTOSO, 'distributor');
  await seedCompany(h, 'c-fabrikam', FABRIKAM);
  await seedMembership(h, USER.email, ['c-north', 'c-contoso'], true);
  await seedMembership(h, OTHER_USER.email, ['c-fabrikam']);
});

const call = (body: unknown, token = adminToken) => invoke(handler, { token, body });

const weekly = WEEKLY_PDF;
const daily: CreateSubscriptionInput = {
  ...weekly,
  format: 'CSV',
  frequency: 'DAILY',
  weekday: null,
  company: NORTHWIND,
};
const monthly: CreateSubscriptionInput = {
  ...weekly,
  dashboardId: 'inventory',
  frequency: 'MONTHLY',
  weekday: null,
  dayOfMonth: 15,
  time: '09:30',
  timeZone: 'America/New_York',
};

const seed = (email: string, input: CreateSubscriptionInput, name: string | null, at = CREATED) =>
  data.createSubscription(email, input, name, at);

const stored = async () => (await h.tables.state()).filter((item) => item.pk === 'SUBSCRIPTIONS');
const auditTrail = async () =>
  (await h.tables.audit()).map((entry) => [entry.action, entry.actor, entry.target, entry.outcome, entry.detail]);

describe('admin only', () => {
  it.each([
    { action: 'LIST_SUBSCRIPTIONS' },
    { action: 'SEND_SUBSCRIPTION_NOW', subscriptionId: 'seeded' },
    { action: 'CANCEL_SUBSCRIPTION', subscriptionId: 'seeded' },
  ])('refuses $action from a Users caller with 403 and changes nothing', async (body) => {
    const subscription = await seed(USER.email, weekly, 'Sales');
    const before = await h.tables.state();
    const asked = 'subscriptionId' in body ? { ...body, subscriptionId: subscription.id } : body;
    const res = await call(asked, await h.token(USER));
    expect(res).toMatchObject({ status: 403, body: { error: "Access denied. You don't have admin privileges." } });
    expect(await h.tables.state()).toEqual(before);
    expect(await h.tables.audit()).toEqual([]);
  });

  it('refuses an id that is not a subscription id with 400, before reading anything', async () => {
    const res = await call({ action: 'SEND_SUBSCRIPTION_NOW', subscriptionId: 'sales' });
    expect(res).toMatchObject({
      status: 400,
      body: { error: 'Subscription id must be the id of a subscription', fields: ['subscriptionId'] },
    });
  });
});

describe('LIST_SUBSCRIPTIONS', () => {
  it('lists every subscription with its recipient and their companies, by recipient then dashboard', async () => {
    const sales = await seed(USER.email, daily, 'Sales');
    const inventory = await seed(USER.email, monthly, 'Inventory');
    const other = await seed(OTHER_USER.email, weekly, null);
    const failed = await seed(OTHER_USER.email, { ...weekly, dashboardId: 'margins' }, 'Margins');
    const failedAt = new Date('2026-03-09T08:03:00.000Z');
    await data.recordDelivery(failed, { outcome: 'FAILED', error: 'QuickSight refused the snapshot job' }, failedAt);
    await data.setPaused(inventory, true, CREATED);

    const res = await call({ action: 'LIST_SUBSCRIPTIONS' });
    expect(res.status).toBe(200);
    expect(listSubscriptionsResponseSchema.parse(res.body)).toEqual(res.body);
    const never = { lastDeliveryAt: null, lastOutcome: null, lastError: null, createdAt: CREATED.toISOString() };
    expect(res.body.subscriptions).toEqual([
      {
        id: failed.id,
        email: OTHER_USER.email,
        dashboardId: 'margins',
        dashboardName: 'Margins',
        format: 'PDF',
        frequency: 'WEEKLY',
        weekday: 'MONDAY',
        dayOfMonth: null,
        time: '08:00',
        timeZone: 'Europe/London',
        company: null,
        status: 'ACTIVE',
        nextDeliveryAt: '2026-03-16T08:00:00.000Z',
        lastDeliveryAt: failedAt.toISOString(),
        lastOutcome: 'FAILED',
        lastError: 'QuickSight refused the snapshot job',
        createdAt: CREATED.toISOString(),
        dueAt: '2026-03-16T08:00:00.000Z',
        companies: [FABRIKAM],
      },
      // No catalogue name: it sorts by its dashboard id.
      {
        id: other.id,
        email: OTHER_USER.email,
        dashboardId: 'sales',
        dashboardName: null,
        format: 'PDF',
        frequency: 'WEEKLY',
        weekday: 'MONDAY',
        dayOfMonth: null,
        time: '08:00',
        timeZone: 'Europe/London',
        company: null,
        status: 'ACTIVE',
        nextDeliveryAt: '2026-03-09T08:00:00.000Z',
        ...never,
        dueAt: '2026-03-09T08:00:00.000Z',
        companies: [FABRIKAM],
      },
      {
        id: inventory.id,
        email: USER.email,
        dashboardId: 'inventory',
        dashboardName: 'Inventory',
        format: 'PDF',
        frequency: 'MONTHLY',
        weekday: null,
        dayOfMonth: 15,
        time: '09:30',
        timeZone: 'America/New_York',
        company: null,
        status: 'PAUSED',
        nextDeliveryAt: null,
        ...never,
        dueAt: null,
        companies: [CONTOSO, NORTHWIND],
      },
      {
        id: sales.id,
        email: USER.email,
        dashboardId: 'sales',
        dashboardName: 'Sales',
        format: 'CSV',
        frequency: 'DAILY',
        weekday: null,
        dayOfMonth: null,
        time: '08:00',
        timeZone: 'Europe/London',
        company: NORTHWIND,
        status: 'ACTIVE',
        nextDeliveryAt: '2026-03-03T08:00:00.000Z',
        ...never,
        dueAt: '2026-03-03T08:00:00.000Z',
        companies: [CONTOSO, NORTHWIND],
      },
    ]);
    // Reading is not audited.
    expect(await h.tables.audit()).toEqual([]);
  });

  it('answers an empty list, and a recipient in no company with no companies', async () => {
    expect(await call({ action: 'LIST_SUBSCRIPTIONS' })).toMatchObject({ status: 200, body: { subscriptions: [] } });
    await seed('nobody@example.com', weekly, 'Sales');
    const res = await call({ action: 'LIST_SUBSCRIPTIONS' });
    expect(res.body.subscriptions).toMatchObject([{ email: 'nobody@example.com', companies: [] }]);
  });
});

describe('SEND_SUBSCRIPTION_NOW', () => {
  it('makes the subscription due now, so the next delivery run takes it, and audits it', async () => {
    // Created now: neither is due yet.
    const subscription = await seed(USER.email, weekly, 'Sales', new Date());
    await seed(OTHER_USER.email, weekly, 'Sales', new Date());
    const before = new Date().toISOString();
    expect(await items.dueSubscriptions(new Date(), 10)).toEqual([]);

    const res = await call({ action: 'SEND_SUBSCRIPTION_NOW', subscriptionId: subscription.id });
    const after = new Date().toISOString();
    expect(res.status).toBe(200);
    const answer = subscriptionActionResponseSchema.parse(res.body);
    expect(answer.message).toBe('Sales will be sent to user@example.com within a few minutes.');
    expect(answer.message).toBe(SUBSCRIPTION_ADMIN_MESSAGES.sendScheduled(answer.subscription));
    expect(answer.subscription).toMatchObject({
      id: subscription.id,
      email: USER.email,
      status: 'ACTIVE',
      // The regular schedule is unchanged: only the due time moved.
      nextDeliveryAt: subscription.nextDeliveryAt,
      companies: [CONTOSO, NORTHWIND],
    });
    expect(answer.subscription.dueAt! >= before && answer.subscription.dueAt! <= after).toBe(true);

    const due = await items.dueSubscriptions(new Date(), 10);
    expect(due.map((item) => [item.id, item.dueAt])).toEqual([[subscription.id, answer.subscription.dueAt]]);
    const item = (await stored()).find((row) => row.id === subscription.id)!;
    expect(item).toMatchObject({ dueKey: 'DUE', dueAt: answer.subscription.dueAt, attempts: 0 });
    expect(await auditTrail()).toEqual([
      [
        'SEND_SUBSCRIPTION_NOW',
        ADMIN.email,
        USER.email,
        'success',
        `Sales (dashboard sales, PDF, subscription ${subscription.id}): due now`,
      ],
    ]);
  });

  it('refuses a paused subscription with 400, changing nothing, and audits the refusal', async () => {
    const subscription = await seed(USER.email, weekly, 'Sales');
    await data.setPaused(subscription, true, CREATED);
    const before = await stored();
    const res = await call({ action: 'SEND_SUBSCRIPTION_NOW', subscriptionId: subscription.id });
    expect(res).toMatchObject({ status: 400, body: { error: SUBSCRIPTION_ADMIN_MESSAGES.paused } });
    expect(await stored()).toEqual(before);
    expect(await items.dueSubscriptions(new Date('2027-01-01T00:00:00.000Z'), 10)).toEqual([]);
    expect(await auditTrail()).toEqual([
      ['SEND_SUBSCRIPTION_NOW', ADMIN.email, USER.email, 'failure', SUBSCRIPTION_ADMIN_MESSAGES.paused],
    ]);
  });

  it('answers 404 for an unknown subscription, changing nothing', async () => {
    await seed(USER.email, weekly, 'Sales');
    const before = await stored();
    const unknown = randomUUID();
    const res = await call({ action: 'SEND_SUBSCRIPTION_NOW', subscriptionId: unknown });
    expect(res).toMatchObject({ status: 404, body: { error: SUBSCRIPTION_MESSAGES.notFound } });
    expect(await stored()).toEqual(before);
    expect(await auditTrail()).toEqual([
      ['SEND_SUBSCRIPTION_NOW', ADMIN.email, `subscription ${unknown}`, 'failure', SUBSCRIPTION_MESSAGES.notFound],
    ]);
  });
});

describe('CANCEL_SUBSCRIPTION', () => {
  it('deletes the subscription, frees its place under the limit, and audits it under the recipient', async () => {
    const subscriptions = [];
    for (let n = 0; n < 10; n += 1)
      subscriptions.push(await seed(USER.email, { ...weekly, dashboardId: `dashboard-${n}` }, `Dashboard ${n}`));
    const kept = await seed(OTHER_USER.email, weekly, 'Sales');
    await expect(seed(USER.email, weekly, 'Sales')).rejects.toBeInstanceOf(data.TooManySubscriptionsError);
    const canceled = subscriptions[3]!;

    const res = await call({ action: 'CANCEL_SUBSCRIPTION', subscriptionId: canceled.id });
    expect(res.status).toBe(200);
    const answer = subscriptionActionResponseSchema.parse(res.body);
    expect(answer.message).toBe('Subscription canceled: user@example.com no longer receives Dashboard 3.');
    expect(answer.subscription).toMatchObject({
      id: canceled.id,
      email: USER.email,
      dashboardId: 'dashboard-3',
      companies: [CONTOSO, NORTHWIND],
    });
    const ids = (await stored()).map((item) => item.id);
    expect(ids).toHaveLength(10);
    expect(ids).not.toContain(canceled.id);
    expect(ids).toContain(kept.id);
    // The recipient's place is free again: they can subscribe once more.
    await expect(seed(USER.email, weekly, 'Sales')).resolves.toMatchObject({ email: USER.email });

    const list = await call({ action: 'LIST_SUBSCRIPTIONS' });
    expect((list.body.subscriptions as { id: string }[]).map((item) => item.id)).not.toContain(canceled.id);
    expect(await auditTrail()).toEqual([
      [
        'CANCEL_SUBSCRIPTION',
        ADMIN.email,
        USER.email,
        'success',
        `Dashboard 3 (dashboard dashboard-3, PDF, subscription ${canceled.id}): deleted`,
      ],
    ]);
  });

  it('cancels a paused subscription too', async () => {
    const subscription = await seed(USER.email, weekly, 'Sales');
    await data.setPaused(subscription, true, CREATED);
    const res = await call({ action: 'CANCEL_SUBSCRIPTION', subscriptionId: subscription.id });
    expect(res.status).toBe(200);
    expect(await stored()).toEqual([]);
  });

  it('answers 404 for an unknown subscription, and for one canceled already, changing nothing', async () => {
    const subscription = await seed(USER.email, weekly, 'Sales');
    const unknown = randomUUID();
    const res = await call({ action: 'CANCEL_SUBSCRIPTION', subscriptionId: unknown });
    expect(res).toMatchObject({ status: 404, body: { error: SUBSCRIPTION_MESSAGES.notFound } });
    expect(await stored()).toHaveLength(1);

    expect((await call({ action: 'CANCEL_SUBSCRIPTION', subscriptionId: subscription.id })).status).toBe(200);
    const again = await call({ action: 'CANCEL_SUBSCRIPTION', subscriptionId: subscription.id });
    expect(again).toMatchObject({ status: 404, body: { error: SUBSCRIPTION_MESSAGES.notFound } });
    expect((await auditTrail()).map(([action, , target, outcome]) => [action, target, outcome])).toEqual([
      ['CANCEL_SUBSCRIPTION', `subscription ${subscription.id}`, 'failure'],
      ['CANCEL_SUBSCRIPTION', USER.email, 'success'],
      ['CANCEL_SUBSCRIPTION', `subscription ${unknown}`, 'failure'],
    ]);
  });
});

describe('the steps that make subscriptions undeliverable cancel them at once, audited', () => {
  const emails = async () => (await stored()).map((item) => [item.email, item.dashboardId, item.company ?? null]);

  it('REMOVE_FROM_DASHBOARD cancels the user’s subscriptions of that dashboard only', async () => {
    await seed(USER.email, weekly, 'Sales');
    await seed(USER.email, { ...weekly, dashboardId: 'margins' }, 'Margins');
    await seed(OTHER_USER.email, weekly, 'Sales');
    const res = await call({ action: 'REMOVE_FROM_DASHBOARD', userEmail: USER.email, dashboardId: 'sales' });
    expect(res.status).toBe(200);
    expect((await emails()).sort()).toEqual([
      [OTHER_USER.email, 'sales', null],
      [USER.email, 'margins', null],
    ]);
    const [entry] = await auditTrail();
    expect(entry?.slice(0, 2)).toEqual(['REMOVE_FROM_DASHBOARD', ADMIN.email]);
    expect(entry?.[4]).toBe('dashboard sales; subscriptions canceled: 1');
  });

  it('SET_USER_COMPANIES cancels a file chosen for a company the user leaves, and keeps the others', async () => {
    await seed(USER.email, { ...weekly, company: CONTOSO }, 'Sales');
    await seed(USER.email, { ...weekly, company: NORTHWIND }, 'Sales');
    await seed(USER.email, weekly, 'Sales');
    const res = await call({ action: 'SET_USER_COMPANIES', userEmail: USER.email, companies: [NORTHWIND] });
    expect(res.status).toBe(200);
    expect((await emails()).map(([, , company]) => company).sort()).toEqual([NORTHWIND, null]);
    const [entry] = await auditTrail();
    expect(entry?.[0]).toBe('SET_USER_COMPANIES');
    expect(entry?.[4]).toContain('subscriptions canceled: 1');
  });
});
