import * as z from 'zod';
import {
  createSubscriptionInputSchema,
  SUBSCRIPTION_MESSAGES,
  subscriptionName,
  type Subscription,
} from '#contracts/subscriptions.ts';
import { auditorFor } from '../shared/audit.ts';
import type { Caller } from '../shared/auth/caller.ts';
import { type DashboardItem, listDashboards } from '../shared/data/catalogue.ts';
import { companyNamesOfUser } from '../shared/data/companies.ts';
import { hasViewOfDashboard } from '../shared/data/views.ts';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../shared/errors.ts';
import type { Logger } from '../shared/logger.ts';
import { parseWith } from '../shared/validation.ts';

/**
 * Dashboard subscriptions (contracts/subscriptions.ts): user operations on the caller's own
 * subscriptions, whoever calls; an administrator acts on their own too. Every rule is checked
 * here, whatever the browser checked: the dashboard is assigned to the caller (a view of theirs),
 * the company is one of theirs, the dashboard's data is limited to the subscriber's companies
 * (company-scoped in QuickSight) or confirmed as shared data, and the per-user limit. A
 * subscription is found under the caller's email only, so another user's id is not found.
 * Every create, pause, resume and delete is written to the audit trail, refusals included.
 *
 * The data layer (luxon, through the schedule) and the scope check (the QuickSight client) are
 * loaded by the first request that needs them, so the other fields' requests never load them.
 */
const store = () => import('./subscription-store.ts');

const subscriptionId = z.uuid({ error: 'id must be the id of a subscription' });
const createArgs = z.object({ input: createSubscriptionInputSchema });
const pauseArgs = z.object({ id: subscriptionId, paused: z.boolean({ error: 'paused must be true or false' }) });
const deleteArgs = z.object({ id: subscriptionId });

/** The audit actions, as the Activity page filters them. */
const SUBSCRIPTION_AUDIT_ACTIONS = {
  create: 'CREATE_SUBSCRIPTION',
  pause: 'PAUSE_SUBSCRIPTION',
  resume: 'RESUME_SUBSCRIPTION',
  delete: 'DELETE_SUBSCRIPTION',
} as const;

/** The schedule as the audit trail records it: the stored values, as the Activity page's search finds them. */
const auditScheduleText = (subscription: Subscription): string => {
  const day =
    subscription.frequency === 'WEEKLY'
      ? ` on ${subscription.weekday}`
      : subscription.frequency === 'MONTHLY'
        ? ` on day ${subscription.dayOfMonth}`
        : '';
  return `${subscription.frequency}${day} at ${subscription.time} (${subscription.timeZone})`;
};

/** The audit entry's detail: which subscription, of which dashboard, what it sends and when. */
const describeSubscription = (subscription: Subscription): string =>
  `subscription ${subscription.id}: ${subscriptionName(subscription)}, ` +
  `${subscription.format}, ${auditScheduleText(subscription)}, ` +
  `${subscription.company === null ? 'all companies' : `company ${subscription.company}`}`;

/** Longest target an audit entry keeps of a raw argument (the longest dashboard id). */
const TARGET_LENGTH = 512;

/** What a refused request is audited under before anything is read: the raw argument, as sent. */
const asked = (value: unknown, prefix = ''): string | null =>
  typeof value === 'string' ? `${prefix}${value.slice(0, TARGET_LENGTH)}` : null;

/** The catalogue entry of a QuickSight dashboard id (the catalogue is a short list: one scan). */
const catalogueEntry = async (dashboardId: string): Promise<DashboardItem | undefined> =>
  (await listDashboards()).find((entry) => entry.dashboardId === dashboardId);

/**
 * A file may be mailed only when it holds no other company's rows: the dashboard is in the
 * catalogue and either an administrator confirmed it as shared data, or it applies the portal's
 * company rules to every dataset with the company tag rule that chooses an emailed file's rows
 * (the delivery function checks the same again before each file).
 */
const isDeliverable = async (dashboardId: string, entry: DashboardItem | undefined): Promise<boolean> => {
  if (entry === undefined) return false;
  if (entry.sharedData === true) return true;
  const { dashboardScope } = await import('../shared/companies/scope.ts');
  const verdict = await dashboardScope(dashboardId);
  return verdict.scope === 'company-scoped' && verdict.tagRules === undefined;
};

export const listMySubscriptions = async (caller: Caller): Promise<Subscription[]> => {
  const { subscriptionsOf, publicSubscription } = await store();
  return (await subscriptionsOf(caller.email)).map(publicSubscription);
};

const createOwn = async (caller: Caller, args: unknown): Promise<Subscription> => {
  const { input } = parseWith(createArgs, args);
  if (!(await hasViewOfDashboard(caller.email, input.dashboardId)))
    throw new ForbiddenError(SUBSCRIPTION_MESSAGES.notAssigned);
  const company = input.company ?? null;
  const companies = await companyNamesOfUser(caller.email);
  if (companies.length === 0) throw new ForbiddenError(SUBSCRIPTION_MESSAGES.noCompany);
  if (company !== null && !companies.includes(company))
    throw new BadRequestError(SUBSCRIPTION_MESSAGES.companyInvalid, { fields: ['input.company'] });
  const entry = await catalogueEntry(input.dashboardId);
  if (!(await isDeliverable(input.dashboardId, entry))) throw new ForbiddenError(SUBSCRIPTION_MESSAGES.notDeliverable);
  const data = await store();
  try {
    const stored = await data.createSubscription(caller.email, input, entry?.dashboardName ?? null);
    return data.publicSubscription(stored);
  } catch (error) {
    if (error instanceof data.TooManySubscriptionsError) throw new ConflictError(SUBSCRIPTION_MESSAGES.tooMany);
    throw error;
  }
};

const createSubscription = (caller: Caller, args: unknown, logger: Logger): Promise<Subscription> => {
  const dashboardId = (args as { input?: { dashboardId?: unknown } } | null)?.input?.dashboardId;
  return auditorFor(logger, caller, SUBSCRIPTION_AUDIT_ACTIONS.create)(
    asked(dashboardId),
    () => createOwn(caller, args),
    describeSubscription,
  );
};

/** The caller's own subscription `id`; not found when it is another user's or gone. */
const ownSubscription = async (caller: Caller, id: string) => {
  const data = await store();
  const subscription = await data.getSubscription(caller.email, id);
  if (subscription === undefined) throw new NotFoundError(SUBSCRIPTION_MESSAGES.notFound);
  return { data, subscription };
};

/** Audits a change to one subscription: its dashboard is the target once found, the id asked for until then. */
const auditChange = (
  logger: Logger,
  caller: Caller,
  action: string,
  args: unknown,
  work: () => Promise<Subscription>,
): Promise<Subscription> =>
  auditorFor(logger, caller, action)(
    {
      before: asked((args as { id?: unknown } | null)?.id, 'subscription ') ?? 'subscription',
      fromResult: (subscription: Subscription) => subscription.dashboardId,
    },
    work,
    describeSubscription,
  );

const setSubscriptionPaused = (caller: Caller, args: unknown, logger: Logger): Promise<Subscription> => {
  const resume = (args as { paused?: unknown } | null)?.paused === false;
  const action = resume ? SUBSCRIPTION_AUDIT_ACTIONS.resume : SUBSCRIPTION_AUDIT_ACTIONS.pause;
  return auditChange(logger, caller, action, args, async () => {
    const { id, paused } = parseWith(pauseArgs, args);
    const { data, subscription } = await ownSubscription(caller, id);
    const changed = await data.setPaused(subscription, paused);
    if (changed === undefined) throw new NotFoundError(SUBSCRIPTION_MESSAGES.notFound);
    return data.publicSubscription(changed);
  });
};

/** Deletes the caller's own subscription, answered as it was; its place under the limit is free again. */
const deleteSubscription = (caller: Caller, args: unknown, logger: Logger): Promise<Subscription> =>
  auditChange(logger, caller, SUBSCRIPTION_AUDIT_ACTIONS.delete, args, async () => {
    const { id } = parseWith(deleteArgs, args);
    const { data, subscription } = await ownSubscription(caller, id);
    if (!(await data.deleteSubscription(caller.email, id))) throw new NotFoundError(SUBSCRIPTION_MESSAGES.notFound);
    return data.publicSubscription(subscription);
  });

/** The mutations above: each audits itself, for every caller (resolve.ts audits only the admins' others). */
export const SUBSCRIPTION_MUTATIONS = { createSubscription, setSubscriptionPaused, deleteSubscription } as const;
