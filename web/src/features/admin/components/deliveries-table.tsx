import { memo } from 'react';
import type { AdminSubscription } from '#contracts/admin-subscriptions.ts';
import { Badge } from '#web/components/badge.tsx';
import { EmptyList } from '#web/components/empty-list.tsx';
import { RowActions } from '#web/components/row-actions.tsx';
import { deliveryTime } from '#web/lib/dates.ts';
import { scheduleText, subscriptionName } from '#contracts/subscriptions.ts';
import {
  DELIVERIES_TEXTS,
  nextRun,
  OUTCOME_LABELS,
  OUTCOME_TONES,
  STATUS_LABELS,
  subscriptionTitle,
} from '../deliveries.ts';
import './tables.css';
import './deliveries-table.css';

export type DeliveryAction = 'send' | 'cancel';

const COLUMNS = ['Recipient', 'Dashboard', 'Companies', 'Format', 'Schedule', 'Status', 'Last run', 'Next run'];

/** The recipient's companies; an owner's subscription limited to one of them says so. */
function Companies({ subscription }: { readonly subscription: AdminSubscription }) {
  const { companies, company } = subscription;
  return (
    <>
      {companies.length === 0 ? <span className="text-muted">{DELIVERIES_TEXTS.noCompany}</span> : companies.join(', ')}
      {company !== null && <span className="delivery-note text-muted">File: {company} only</span>}
    </>
  );
}

/** The last delivery: its outcome, when it ended, and why it failed (or is being retried). */
function LastRun({ subscription }: { readonly subscription: AdminSubscription }) {
  const { lastOutcome, lastDeliveryAt, lastError } = subscription;
  if (lastOutcome === null) return <span className="text-muted">{DELIVERIES_TEXTS.notSent}</span>;
  return (
    <div className="delivery-run">
      <Badge tone={OUTCOME_TONES[lastOutcome]}>{OUTCOME_LABELS[lastOutcome]}</Badge>
      {lastOutcome !== 'RETRYING' && lastDeliveryAt !== null && (
        <time dateTime={lastDeliveryAt}>{deliveryTime(subscription, lastDeliveryAt)}</time>
      )}
      {lastOutcome !== 'DELIVERED' && lastError !== null && <span className="delivery-error">{lastError}</span>}
    </div>
  );
}

function NextRun({ subscription }: { readonly subscription: AdminSubscription }) {
  const next = nextRun(subscription);
  switch (next.kind) {
    case 'paused':
      return <span className="text-muted">{DELIVERIES_TEXTS.notWhilePaused}</span>;
    case 'soon':
      return <>{DELIVERIES_TEXTS.soon}</>;
    case 'retry':
      return (
        <>
          Retry <time dateTime={next.at}>{deliveryTime(subscription, next.at)}</time>
        </>
      );
    case 'scheduled':
      return <time dateTime={next.at}>{deliveryTime(subscription, next.at)}</time>;
    case 'unknown':
      return <span className="text-muted">—</span>;
  }
}

interface DeliveryRowProps {
  readonly subscription: AdminSubscription;
  readonly busy: boolean;
  readonly onAction: (action: DeliveryAction, subscription: AdminSubscription) => void;
}

const DeliveryRow = memo(function DeliveryRow({ subscription, busy, onAction }: DeliveryRowProps) {
  const paused = subscription.status === 'PAUSED';
  return (
    <tr>
      <td data-label="Recipient" className="delivery-recipient">
        {subscription.email}
      </td>
      <td data-label="Dashboard">
        {subscriptionName(subscription)}
        {subscription.dashboardName !== null && (
          <span className="delivery-note text-muted">{subscription.dashboardId}</span>
        )}
      </td>
      <td data-label="Companies">
        <Companies subscription={subscription} />
      </td>
      <td data-label="Format">{subscription.format}</td>
      <td data-label="Schedule">{scheduleText(subscription)}</td>
      <td data-label="Status">
        <Badge tone={paused ? 'neutral' : 'success'}>{STATUS_LABELS[subscription.status]}</Badge>
      </td>
      <td data-label="Last run">
        <LastRun subscription={subscription} />
      </td>
      <td data-label="Next run">
        <NextRun subscription={subscription} />
      </td>
      <td className="cell-actions">
        <RowActions
          label={`Actions for ${subscriptionTitle(subscription)}`}
          title={subscriptionTitle(subscription)}
          busy={busy}
          actions={[
            {
              label: DELIVERIES_TEXTS.sendNow,
              disabledReason: paused ? DELIVERIES_TEXTS.pausedReason : null,
              onSelect: () => onAction('send', subscription),
            },
            { label: DELIVERIES_TEXTS.cancel, destructive: true, onSelect: () => onAction('cancel', subscription) },
          ]}
        />
      </td>
    </tr>
  );
});

export interface DeliveriesTableProps {
  readonly subscriptions: readonly AdminSubscription[];
  /** The search the rows were filtered with. */
  readonly query: string;
  /** Whether a call for this subscription is under way. */
  readonly isBusy: (id: string) => boolean;
  readonly onAction: (action: DeliveryAction, subscription: AdminSubscription) => void;
}

/** Who receives what: one row per subscription, each a card on a phone, with its Send now and Cancel. */
export function DeliveriesTable({ subscriptions, query, isBusy, onAction }: DeliveriesTableProps) {
  return (
    <div className="table-scroll" role="region" aria-label="Subscriptions" tabIndex={0}>
      <table className="data-table deliveries-table">
        <caption className="visually-hidden">Subscriptions</caption>
        <thead>
          <tr>
            {COLUMNS.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {subscriptions.length === 0 ? (
            <tr>
              <td colSpan={COLUMNS.length + 1}>
                {query.trim() ? (
                  <EmptyList title={DELIVERIES_TEXTS.noMatchTitle}>{DELIVERIES_TEXTS.noMatchNext}</EmptyList>
                ) : (
                  <EmptyList title={DELIVERIES_TEXTS.emptyTitle}>{DELIVERIES_TEXTS.emptyNext}</EmptyList>
                )}
              </td>
            </tr>
          ) : (
            subscriptions.map((subscription) => (
              <DeliveryRow
                key={subscription.id}
                subscription={subscription}
                busy={isBusy(subscription.id)}
                onAction={onAction}
              />
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
