import { SUBSCRIPTION_MESSAGES, subscriptionName } from '#contracts/subscriptions.ts';
import { SUBSCRIPTION_ADMIN_MESSAGES, type AdminSubscription } from '#contracts/admin-subscriptions.ts';
import type { QuicksightAdminRequest } from '#contracts/quicksight-admin.ts';
import type { auditorFor } from '../shared/audit.ts';
import {
  companiesById,
  companyNamesOf,
  companyNamesOfUser,
  listCompanies,
  listMemberships,
} from '../shared/data/companies.ts';
import {
  allSubscriptions,
  deleteSubscription,
  findSubscription,
  getSubscription,
  markDueNow,
} from '../shared/data/subscriptions.ts';
import type { SubscriptionItem } from '../shared/data/subscription-items.ts';
import { BadRequestError, NotFoundError } from '../shared/errors.ts';

/**
 * The subscription actions of the QuickSight management function (the Deliveries page): every
 * user's subscriptions, Send now and Cancel. Loaded by the first request that needs them, so the
 * function's other actions never load the subscriptions' data layer and its schedule. Send now and
 * Cancel are audited with the recipient as target once the subscription is found (the id asked
 * for until then), refusals included.
 */

type RequestOf<A extends QuicksightAdminRequest['action']> = Extract<QuicksightAdminRequest, { action: A }>;
type Audit = ReturnType<typeof auditorFor>;

/** A subscription as administrators see it: every stored field but the retry count, with the companies. */
const toAdminSubscription = (
  { attempts: _attempts, ...item }: SubscriptionItem,
  companies: readonly string[],
): AdminSubscription => ({ ...item, companies: [...companies] });

const byRecipientThenDashboard = (a: AdminSubscription, b: AdminSubscription) =>
  a.email.localeCompare(b.email) ||
  subscriptionName(a).localeCompare(subscriptionName(b)) ||
  a.createdAt.localeCompare(b.createdAt);

/** Every subscription with its recipient's companies: three reads (subscriptions, memberships, companies). */
export const listSubscriptionsAction = async (): Promise<{ subscriptions: AdminSubscription[] }> => {
  const [items, memberships, companies] = await Promise.all([allSubscriptions(), listMemberships(), listCompanies()]);
  const byId = companiesById(companies);
  const subscriptions = items.map((item) =>
    toAdminSubscription(item, companyNamesOf(memberships.get(item.email), byId)),
  );
  return { subscriptions: subscriptions.sort(byRecipientThenDashboard) };
};

/** The audit entry's detail: which dashboard, in which format, which subscription. */
const describe = (item: SubscriptionItem, what: string) =>
  `${subscriptionName(item)} (dashboard ${item.dashboardId}, ${item.format}, subscription ${item.id}): ${what}`;

/** Runs `work` on the subscription `id`, audited under the recipient, or under the id when there is none. */
const onSubscription = async <T>(
  id: string,
  audit: Audit,
  work: (item: SubscriptionItem) => Promise<T>,
  detail: (item: SubscriptionItem) => string,
): Promise<T> => {
  const found = await findSubscription(id);
  return audit(
    found?.email ?? `subscription ${id}`,
    async () => {
      if (found === undefined) throw new NotFoundError(SUBSCRIPTION_MESSAGES.notFound);
      return work(found);
    },
    () => (found === undefined ? null : detail(found)),
  );
};

export const sendSubscriptionNowAction = (request: RequestOf<'SEND_SUBSCRIPTION_NOW'>, audit: Audit) =>
  onSubscription(
    request.subscriptionId,
    audit,
    async (item) => {
      if (item.status !== 'ACTIVE') throw new BadRequestError(SUBSCRIPTION_ADMIN_MESSAGES.paused);
      const due = await markDueNow(item);
      if (due === undefined) {
        // Paused or deleted since it was read.
        const now = await getSubscription(item.email, item.id);
        if (now === undefined) throw new NotFoundError(SUBSCRIPTION_MESSAGES.notFound);
        throw new BadRequestError(SUBSCRIPTION_ADMIN_MESSAGES.paused);
      }
      const subscription = toAdminSubscription(due, await companyNamesOfUser(due.email));
      return { message: SUBSCRIPTION_ADMIN_MESSAGES.sendScheduled(subscription), subscription };
    },
    (item) => describe(item, 'due now'),
  );

export const cancelSubscriptionAction = (request: RequestOf<'CANCEL_SUBSCRIPTION'>, audit: Audit) =>
  onSubscription(
    request.subscriptionId,
    audit,
    async (item) => {
      const companies = await companyNamesOfUser(item.email);
      if (!(await deleteSubscription(item.email, item.id))) throw new NotFoundError(SUBSCRIPTION_MESSAGES.notFound);
      const subscription = toAdminSubscription(item, companies);
      return { message: SUBSCRIPTION_ADMIN_MESSAGES.canceled(subscription), subscription };
    },
    (item) => describe(item, 'deleted'),
  );
