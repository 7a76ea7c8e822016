import { AdminGetUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { ENV } from '#contracts/env.ts';
import type { FileSheetSelection } from '#contracts/snapshot-files.ts';
import { scheduleInSentence, subscriptionName } from '#contracts/subscriptions.ts';
import { isAwsError } from '../shared/aws/config.ts';
import { cognito } from '../shared/aws/cognito.ts';
import { dashboardScope } from '../shared/companies/scope.ts';
import { mapWithLimit } from '../shared/concurrency.ts';
import { writeAuditEntry } from '../shared/data/audit.ts';
import { listDashboards } from '../shared/data/catalogue.ts';
import { companyNamesOfUser } from '../shared/data/companies.ts';
import { claimDelivery, deleteSubscription, recordDelivery } from '../shared/data/subscriptions.ts';
import type { SubscriptionItem } from '../shared/data/subscription-items.ts';
import { hasViewOfDashboard } from '../shared/data/views.ts';
import { requireEnv } from '../shared/env.ts';
import { sendDeliveryMail } from './mail.ts';
import { downloadSnapshot, sheetSelection, SnapshotError, snapshotState, startSnapshot } from './snapshot.ts';
import type { RunOptions, RunSummary } from './run.ts';

/**
 * The deliveries of one run that found subscriptions due (lambdas/deliveries/run.ts): each taken
 * with a lease, checked again, made by QuickSight as an anonymous user tagged with the
 * subscriber's companies, and mailed. Loaded only when something is due.
 */

/** Snapshot jobs running at once. */
const PARALLEL_JOBS = 3;
/** A delivery taken by a run is not due again for this long, unless the run records otherwise. */
const LEASE_MS = 10 * 60_000;
/** Attempts before a delivery is marked failed; retries wait 5, 10, then 20 minutes. */
const MAX_ATTEMPTS = 4;
const RETRY_BASE_MS = 5 * 60_000;
/** The wait between describe calls while a job runs (QuickSight's describe quota is per second). */
const POLL_MS = 2_000;

type Outcome = keyof Omit<RunSummary, 'due'>;

const SYSTEM_ACTOR = 'schedule';

const audit = (action: string, subscription: SubscriptionItem, outcome: 'success' | 'failure', detail: string) =>
  writeAuditEntry({
    actor: SYSTEM_ACTOR,
    action,
    target: subscription.email,
    outcome,
    detail: `${subscriptionName(subscription)} (${subscription.format}, subscription ${subscription.id}): ${detail}`,
  });

const accountEnabled = async (email: string): Promise<boolean> => {
  try {
    const user = await cognito.send(
      new AdminGetUserCommand({ UserPoolId: requireEnv(ENV.userPoolId), Username: email }),
    );
    return user.Enabled !== false;
  } catch (error) {
    if (isAwsError(error, 'UserNotFoundException')) return false;
    throw error;
  }
};

/** Why the subscription may no longer be delivered at all (it is canceled), or null. */
const cancelReason = async (subscription: SubscriptionItem): Promise<string | null> => {
  if (!(await accountEnabled(subscription.email))) return 'the account is disabled or deleted';
  if (!(await hasViewOfDashboard(subscription.email, subscription.dashboardId)))
    return 'the dashboard is no longer assigned to the subscriber';
  return null;
};

/** Why this dashboard cannot be delivered now (a failure, not retried), or null. */
const undeliverableReason = async (
  dashboardId: string,
  catalogue: ReturnType<typeof listDashboards>,
): Promise<string | null> => {
  const entry = (await catalogue).find((item) => item.dashboardId === dashboardId);
  if (!entry) return 'the dashboard is no longer in the catalogue';
  if (entry.sharedData === true) return null;
  const verdict = await dashboardScope(dashboardId);
  if (verdict.scope !== 'company-scoped') return `the dashboard is not company-scoped: ${verdict.detail}`;
  return verdict.tagRules === undefined ? null : `its files would not be limited to companies: ${verdict.tagRules}`;
};

/** The companies the file holds: the owner's choice where it is still theirs, else all their companies. */
const companiesFor = async (subscription: SubscriptionItem): Promise<string[]> => {
  const companies = await companyNamesOfUser(subscription.email);
  if (subscription.company === null) return companies;
  return companies.includes(subscription.company) ? [subscription.company] : companies;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const makeFile = async (
  subscription: SubscriptionItem,
  companies: string[],
  selection: FileSheetSelection,
  now: Date,
  options: RunOptions,
) => {
  const jobId = `${subscription.id}-${now.getTime()}`;
  const { dashboardId, format } = subscription;
  await startSnapshot({ jobId, dashboardId, format, companies, selection });
  for (;;) {
    await sleep(options.pollMs ?? POLL_MS);
    const state = await snapshotState(subscription.dashboardId, jobId);
    if (state.done) return downloadSnapshot(state.url);
    if (Date.now() > options.deadline) throw new SnapshotError('QuickSight had not finished the file in time', true);
  }
};

const failureText = (error: unknown) =>
  error instanceof SnapshotError
    ? error.message
    : error instanceof Error
      ? `${error.name}: ${error.message}`
      : 'Unknown failure';

/**
 * What one run reads once for all its subscriptions: the catalogue, each dashboard's
 * deliverability (a DescribeDashboard and a DescribeDataSet per dataset) and, per dashboard and
 * format, the part of it a file holds (DescribeDashboardDefinition), however many subscriptions
 * name them.
 */
interface RunReads {
  readonly catalogue: ReturnType<typeof listDashboards>;
  readonly verdicts: Map<string, Promise<string | null>>;
  readonly selections: Map<string, Promise<FileSheetSelection>>;
}

/** `read()` once per `key` in a run: later subscriptions wait on the same answer. */
const once = <T>(cache: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> => {
  let answer = cache.get(key);
  if (answer === undefined) {
    answer = read();
    cache.set(key, answer);
  }
  return answer;
};

const deliverOne = async (subscription: SubscriptionItem, now: Date, options: RunOptions, reads: RunReads) => {
  const { logger } = options;
  const { dueAt } = subscription;
  if (dueAt === null || !(await claimDelivery(subscription, dueAt, now, LEASE_MS))) return 'skipped' as const;
  try {
    const cancel = await cancelReason(subscription);
    if (cancel !== null) {
      await deleteSubscription(subscription.email, subscription.id);
      await audit('CANCEL_SUBSCRIPTION', subscription, 'success', cancel);
      return 'canceled' as const;
    }
    const { dashboardId, format } = subscription;
    const undeliverable = await once(reads.verdicts, dashboardId, () =>
      undeliverableReason(dashboardId, reads.catalogue),
    );
    const companies = await companiesFor(subscription);
    const refusal = undeliverable ?? (companies.length === 0 ? 'the subscriber belongs to no company' : null);
    if (refusal !== null) throw new SnapshotError(`Not delivered: ${refusal}`, false);
    const selection = await once(reads.selections, `${dashboardId} ${format}`, () =>
      sheetSelection(dashboardId, format),
    );
    const file = await makeFile(subscription, companies, selection, now, options);
    await sendDeliveryMail({
      to: subscription.email,
      dashboardId: subscription.dashboardId,
      dashboardName: subscriptionName(subscription),
      format: subscription.format,
      schedule: scheduleInSentence(subscription),
      companies,
      file,
      at: now,
    });
    await recordDelivery(subscription, { outcome: 'DELIVERED' }, new Date());
    await audit('DELIVER_SUBSCRIPTION', subscription, 'success', `sent, ${companies.join(', ')}`);
    return 'delivered' as const;
  } catch (error) {
    const text = failureText(error);
    const retry = !(error instanceof SnapshotError && !error.retryable) && subscription.attempts + 1 < MAX_ATTEMPTS;
    logger.warn('Delivery failed', { subscription: subscription.id, attempts: subscription.attempts + 1, retry, text });
    if (retry) {
      const retryAt = new Date(Date.now() + RETRY_BASE_MS * 2 ** subscription.attempts);
      await recordDelivery(subscription, { outcome: 'RETRYING', error: text, retryAt });
      return 'retrying' as const;
    }
    await recordDelivery(subscription, { outcome: 'FAILED', error: text });
    await audit('DELIVER_SUBSCRIPTION', subscription, 'failure', text);
    return 'failed' as const;
  }
};

/** Delivers `due`, read at `now`. */
export const deliverDue = async (
  due: readonly SubscriptionItem[],
  now: Date,
  options: RunOptions,
): Promise<RunSummary> => {
  const reads: RunReads = { catalogue: listDashboards(), verdicts: new Map(), selections: new Map() };
  // A catalogue read that fails fails each delivery that awaits it (retried), not the run.
  reads.catalogue.catch(() => undefined);
  const outcomes = await mapWithLimit(due, PARALLEL_JOBS, (subscription) =>
    deliverOne(subscription, now, options, reads),
  );
  const count = (outcome: Outcome) => outcomes.filter((value) => value === outcome).length;
  return {
    due: due.length,
    delivered: count('delivered'),
    retrying: count('retrying'),
    failed: count('failed'),
    canceled: count('canceled'),
    skipped: count('skipped'),
  };
};
