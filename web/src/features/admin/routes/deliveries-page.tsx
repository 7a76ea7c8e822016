import { useCallback, useState } from 'react';
import type { AdminSubscription } from '#contracts/admin-subscriptions.ts';
import { Button } from '#web/components/button.tsx';
import { Card } from '#web/components/card.tsx';
import { LoadFailure } from '#web/components/load-failure.tsx';
import { PageHeader } from '#web/components/layout/page-header.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { notify } from '#web/components/toaster.tsx';
import { useServerCall } from '#web/lib/use-server-call.ts';
import { useAdminApi } from '../api/admin-api-context.tsx';
import { CancelSubscriptionDialog } from '../components/cancel-subscription-dialog.tsx';
import { DeliveriesTable, type DeliveryAction } from '../components/deliveries-table.tsx';
import { FailureAlert } from '../components/failure-alert.tsx';
import { SearchField } from '../components/search-field.tsx';
import { countText } from '../count-text.ts';
import { DELIVERIES_TEXTS, subscriptionSearchText } from '../deliveries.ts';
import { actionFailure, ADMIN_FAILURES, failureMessage, type Failure } from '../errors.ts';
import { useSearch } from '../search.ts';
import { useResource } from '#web/lib/use-resource.ts';

const NO_SUBSCRIPTIONS: readonly AdminSubscription[] = [];

/**
 * /admin/deliveries: every user's subscriptions (who receives which dashboard's file, on what
 * schedule, how the last delivery went, when the next one is), searchable by recipient or
 * dashboard; each row sends now (the next delivery run takes it) or cancels, after a confirmation.
 */
export default function DeliveriesPage() {
  const api = useAdminApi();
  const load = useCallback(() => api.quicksight.listSubscriptions(), [api]);
  const list = useResource<readonly AdminSubscription[]>(load);
  const { update, reload } = list;
  const subscriptions = list.data ?? NO_SUBSCRIPTIONS;
  const search = useSearch(subscriptions, subscriptionSearchText);
  const [canceling, setCanceling] = useState<AdminSubscription | null>(null);
  const sending = useServerCall<string, Failure>();
  const { run } = sending;
  const total = countText(subscriptions.length, 'subscription', 'subscriptions');

  const sendNow = useCallback(
    (subscription: AdminSubscription) =>
      run(
        subscription.id,
        async () => {
          const answer = await api.quicksight.sendSubscriptionNow(subscription.id);
          update((current) => current.map((row) => (row.id === answer.subscription.id ? answer.subscription : row)));
          notify.success(answer.message);
        },
        { failure: (error) => actionFailure(ADMIN_FAILURES.sendSubscriptionNow, error) },
      ),
    [api, run, update],
  );

  const onAction = useCallback(
    (action: DeliveryAction, subscription: AdminSubscription) => {
      if (action === 'send') void sendNow(subscription);
      else setCanceling(subscription);
    },
    [sendNow],
  );

  const onCanceled = (subscription: AdminSubscription) => {
    update((current) => current.filter((row) => row.id !== subscription.id));
    setCanceling(null);
  };

  return (
    <div className="stack">
      <PageHeader
        title={DELIVERIES_TEXTS.title}
        description={DELIVERIES_TEXTS.description}
        actions={
          <Button variant="secondary" onClick={reload} disabled={list.loading}>
            {list.loading && list.data !== undefined ? 'Refreshing...' : 'Refresh'}
          </Button>
        }
      />
      <Card
        aria-labelledby="deliveries-title"
        title={<span id="deliveries-title">{DELIVERIES_TEXTS.cardTitle}</span>}
        actions={
          <SearchField
            label={DELIVERIES_TEXTS.searchLabel}
            placeholder={DELIVERIES_TEXTS.searchPlaceholder}
            value={search.query}
            onChange={search.setQuery}
            resultText={`${search.rows.length.toLocaleString()} of ${total}`}
          />
        }
      >
        {sending.failure && <FailureAlert failure={sending.failure} onDismiss={() => sending.setFailure(null)} />}
        {list.error !== null && (
          <LoadFailure
            title={ADMIN_FAILURES.loadSubscriptions}
            detail={failureMessage(list.error)}
            onRetry={reload}
            retrying={list.loading}
          />
        )}
        {list.data === undefined ? (
          list.loading && <Spinner label={DELIVERIES_TEXTS.loading} />
        ) : (
          <DeliveriesTable
            subscriptions={search.rows}
            query={search.appliedQuery}
            isBusy={sending.isBusy}
            onAction={onAction}
          />
        )}
      </Card>
      <CancelSubscriptionDialog subscription={canceling} onClose={() => setCanceling(null)} onCanceled={onCanceled} />
    </div>
  );
}
