import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import {
  MAX_SUBSCRIPTIONS_PER_USER,
  SUBSCRIPTION_MESSAGES,
  type Subscription,
  scheduleInSentence,
  scheduleText,
  subscriptionName,
} from '#contracts/subscriptions.ts';
import { dashboardPath, paths } from '#web/config/paths.ts';
import { Alert } from '#web/components/alert.tsx';
import { Badge } from '#web/components/badge.tsx';
import { Button } from '#web/components/button.tsx';
import { Card } from '#web/components/card.tsx';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { EmptyList } from '#web/components/empty-list.tsx';
import { LoadFailure } from '#web/components/load-failure.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { notify } from '#web/components/toaster.tsx';
import { subscriptionErrorText, useSubscriptionsApi } from '#web/lib/subscriptions/api.ts';
import { deliveryTime } from '#web/lib/dates.ts';
import { useResource } from '#web/lib/use-resource.ts';
import { useServerCall } from '#web/lib/use-server-call.ts';
import './subscriptions-card.css';

const TEXTS = {
  title: 'Subscriptions',
  intro: "Dashboards emailed to you on a schedule. Each file holds your companies' rows only.",
  loading: 'Loading subscriptions...',
  loadFailed: 'Failed to load subscriptions',
  none: 'You have no subscriptions.',
  noneNext:
    'Choose Subscribe on a dashboard to have it emailed to you as a PDF or CSV file, on the schedule you choose.',
  toDashboards: 'Go to your dashboards',
  pause: 'Pause',
  pausing: 'Pausing...',
  resume: 'Resume',
  resuming: 'Resuming...',
  remove: 'Delete',
  pauseFailed: 'Failed to pause the subscription',
  resumeFailed: 'Failed to resume the subscription',
  deleteFailed: 'Failed to delete the subscription',
  deleteTitle: 'Delete subscription?',
  deleteConfirm: 'Delete subscription',
  deleting: 'Deleting...',
  notSentYet: 'Not sent yet',
  noneWhilePaused: 'None while paused',
  notScheduled: 'Not scheduled',
} as const;

const STATUS_BADGES = {
  ACTIVE: { tone: 'success', label: 'Active' },
  PAUSED: { tone: 'warning', label: 'Paused' },
} as const;

interface Failure {
  readonly title: string;
  readonly message: string;
}

function nextDeliveryText(subscription: Subscription): string {
  if (subscription.status === 'PAUSED') return TEXTS.noneWhilePaused;
  const next = subscription.nextDeliveryAt;
  return next ? deliveryTime(subscription, next) : TEXTS.notScheduled;
}

/** When the last file left and how that went: 'Aug 2, 2026, 8:00 AM — Failed: <the reason>'. */
function lastDeliveryText(subscription: Subscription): string {
  const { lastDeliveryAt, lastOutcome, lastError } = subscription;
  const reason = lastError ? `: ${lastError}` : '';
  const outcome =
    lastOutcome === 'DELIVERED'
      ? 'Delivered'
      : lastOutcome === 'FAILED'
        ? `Failed${reason}`
        : lastOutcome === 'RETRYING'
          ? `Failed, trying again${reason}`
          : null;
  const parts = [lastDeliveryAt && deliveryTime(subscription, lastDeliveryAt), outcome].filter(Boolean);
  return parts.length > 0 ? parts.join(' — ') : TEXTS.notSentYet;
}

interface RowProps {
  readonly subscription: Subscription;
  /** A call for this row is under way: 'pause' and 'resume' say so on their button. */
  readonly busy: boolean;
  /** Any call is under way: every action waits. */
  readonly disabled: boolean;
  readonly onSetPaused: (paused: boolean) => void;
  readonly onDelete: () => void;
}

function SubscriptionRow({ subscription, busy, disabled, onSetPaused, onDelete }: RowProps) {
  const nameId = useId();
  const name = subscriptionName(subscription);
  const paused = subscription.status === 'PAUSED';
  const badge = STATUS_BADGES[subscription.status];
  const failed = subscription.lastOutcome === 'FAILED' || subscription.lastOutcome === 'RETRYING';
  return (
    <li className="subscription" aria-labelledby={nameId}>
      <div className="subscription-heading">
        <Link id={nameId} to={dashboardPath(subscription.dashboardId)} className="subscription-name">
          {name}
        </Link>
        <Badge tone={badge.tone}>{badge.label}</Badge>
      </div>
      <dl className="subscription-details">
        <div>
          <dt>Format</dt>
          <dd>{subscription.format}</dd>
        </div>
        <div>
          <dt>Schedule</dt>
          <dd>{scheduleText(subscription)}</dd>
        </div>
        {subscription.company && (
          <div>
            <dt>Company</dt>
            <dd>{subscription.company}</dd>
          </div>
        )}
        <div>
          <dt>Next delivery</dt>
          <dd>{nextDeliveryText(subscription)}</dd>
        </div>
        <div>
          <dt>Last delivery</dt>
          <dd className={failed ? 'text-danger' : undefined}>{lastDeliveryText(subscription)}</dd>
        </div>
      </dl>
      <div className="row">
        <Button
          variant="secondary"
          size="sm"
          onClick={() => onSetPaused(!paused)}
          disabled={disabled}
          aria-label={`${paused ? TEXTS.resume : TEXTS.pause} ${name}`}
        >
          {busy ? (paused ? TEXTS.resuming : TEXTS.pausing) : paused ? TEXTS.resume : TEXTS.pause}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          onClick={onDelete}
          disabled={disabled}
          aria-label={`${TEXTS.remove} ${name}`}
        >
          {TEXTS.remove}
        </Button>
      </div>
    </li>
  );
}

/**
 * The signed-in user's subscriptions (Subscribe on a dashboard adds one): each with its
 * schedule in words, company, next and last delivery (and why the last one failed), Pause or
 * Resume, and Delete after a confirmation naming the dashboard. A refused change stays in the
 * card with the API's reason.
 */
export function SubscriptionsCard() {
  const api = useSubscriptionsApi();
  const titleId = useId();
  const load = useCallback(
    () =>
      api.list().catch((error: unknown) => {
        console.error('Error loading subscriptions:', error instanceof Error ? error.message : error);
        throw error;
      }),
    [api],
  );
  const subscriptions = useResource<readonly Subscription[]>(load);
  const [deleting, setDeleting] = useState<Subscription | null>(null);
  const call = useServerCall<string, Failure>();
  // The row that had the focus is gone once deleted: the card's title takes it.
  const title = useRef<HTMLSpanElement>(null);
  const [deletions, setDeletions] = useState(0);
  useEffect(() => {
    if (deletions > 0) title.current?.focus();
  }, [deletions]);

  const replace = (id: string, next: Subscription | null) =>
    subscriptions.update((current) =>
      next ? current.map((item) => (item.id === id ? next : item)) : current.filter((item) => item.id !== id),
    );

  const setPaused = (subscription: Subscription, paused: boolean) =>
    call.run(
      subscription.id,
      async () => {
        const changed = await api.setPaused(subscription.id, paused);
        replace(subscription.id, changed);
        const name = subscriptionName(changed);
        const next = changed.nextDeliveryAt;
        notify.success(
          paused
            ? `Paused: ${name}. Nothing is sent until you resume it.`
            : `Resumed: ${name}, ${scheduleInSentence(changed)}.` +
                (next ? ` Next delivery: ${deliveryTime(changed, next)}.` : ''),
        );
      },
      {
        failure: (error) => ({
          title: paused ? TEXTS.pauseFailed : TEXTS.resumeFailed,
          message: subscriptionErrorText(error),
        }),
      },
    );

  const remove = (subscription: Subscription) =>
    call.run(
      subscription.id,
      async () => {
        await api.remove(subscription.id);
        replace(subscription.id, null);
        setDeletions((n) => n + 1);
        notify.success(`Deleted the subscription to ${subscriptionName(subscription)}.`);
      },
      {
        failure: (error) => ({
          title: TEXTS.deleteFailed,
          message: subscriptionErrorText(error),
        }),
        settled: () => setDeleting(null),
      },
    );

  const list = subscriptions.data ?? [];
  const loadFailed = !subscriptions.loading && subscriptions.error !== null;

  return (
    <Card
      title={
        <span id={titleId} ref={title} tabIndex={-1}>
          {TEXTS.title}
        </span>
      }
      aria-labelledby={titleId}
    >
      <div className="stack">
        <p className="text-muted">{TEXTS.intro}</p>
        {call.failure && (
          <Alert tone="error" title={call.failure.title}>
            <p>{call.failure.message}</p>
          </Alert>
        )}
        {subscriptions.loading && <Spinner label={TEXTS.loading} />}
        {loadFailed && (
          <LoadFailure
            title={TEXTS.loadFailed}
            detail={subscriptionErrorText(subscriptions.error)}
            onRetry={subscriptions.reload}
          />
        )}
        {subscriptions.data?.length === 0 && (
          <EmptyList title={TEXTS.none} action={<Link to={paths.home}>{TEXTS.toDashboards}</Link>}>
            {TEXTS.noneNext}
          </EmptyList>
        )}
        {list.length > 0 && (
          <ul className="subscription-list" aria-label={TEXTS.title}>
            {list.map((subscription) => (
              <SubscriptionRow
                key={subscription.id}
                subscription={subscription}
                busy={call.isBusy(subscription.id)}
                disabled={call.busy}
                onSetPaused={(paused) => void setPaused(subscription, paused)}
                onDelete={() => setDeleting(subscription)}
              />
            ))}
          </ul>
        )}
        {list.length >= MAX_SUBSCRIPTIONS_PER_USER && <p className="text-muted">{SUBSCRIPTION_MESSAGES.tooMany}</p>}
      </div>
      <ConfirmDialog
        open={deleting !== null}
        title={TEXTS.deleteTitle}
        confirmLabel={TEXTS.deleteConfirm}
        busyLabel={TEXTS.deleting}
        busy={call.busy}
        onConfirm={() => deleting && void remove(deleting)}
        onCancel={() => setDeleting(null)}
      >
        {deleting && (
          <p>
            Stop emailing <strong>{subscriptionName(deleting)}</strong> ({deleting.format},{' '}
            {scheduleInSentence(deleting)})? You can subscribe again from the dashboard.
          </p>
        )}
      </ConfirmDialog>
    </Card>
  );
}
