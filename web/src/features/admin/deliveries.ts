import type { AdminSubscription } from '#contracts/admin-subscriptions.ts';
import { subscriptionName, type DeliveryOutcome, type SubscriptionStatus } from '#contracts/subscriptions.ts';

/** The Deliveries page's texts (admin portal, /admin/deliveries). */
export const DELIVERIES_TEXTS = {
  title: 'Deliveries',
  description:
    "Every subscription: who receives which dashboard's file, on what schedule, and how its last delivery went. " +
    'Send now sends it within a few minutes; Cancel subscription deletes it.',
  cardTitle: 'All subscriptions',
  searchLabel: 'Search subscriptions',
  searchPlaceholder: 'Search recipient or dashboard...',
  loading: 'Loading subscriptions...',
  emptyTitle: 'No subscriptions yet',
  emptyNext:
    'Users subscribe to a dashboard from its page (Subscribe); each subscription is listed here with its deliveries.',
  noMatchTitle: 'No subscriptions match your search',
  noMatchNext: "Search for part of a recipient's email, or of a dashboard's name or ID.",
  notSent: 'Not sent yet',
  noCompany: 'None',
  sendNow: 'Send now',
  pausedReason: 'Paused by its recipient',
  cancel: 'Cancel subscription',
  canceling: 'Canceling...',
  keep: 'Keep subscription',
  soon: 'Within a few minutes',
  notWhilePaused: 'Not while paused',
} as const;

export const STATUS_LABELS: Readonly<Record<SubscriptionStatus, string>> = { ACTIVE: 'Active', PAUSED: 'Paused' };

export const OUTCOME_LABELS: Readonly<Record<DeliveryOutcome, string>> = {
  DELIVERED: 'Delivered',
  RETRYING: 'Retrying',
  FAILED: 'Failed',
};

export const OUTCOME_TONES: Readonly<Record<DeliveryOutcome, 'success' | 'warning' | 'danger'>> = {
  DELIVERED: 'success',
  RETRYING: 'warning',
  FAILED: 'danger',
};

/** What the search box matches: the recipient, the dashboard's name and ID. */
export const subscriptionSearchText = (subscription: AdminSubscription): string =>
  `${subscription.email}\n${subscription.dashboardName ?? ''}\n${subscription.dashboardId}`;

/** What a subscription's row and menu are called. */
export const subscriptionTitle = (subscription: AdminSubscription): string =>
  `${subscription.email}, ${subscriptionName(subscription)}`;

/**
 * When the delivery function takes the subscription next: nothing while paused; sooner than its
 * schedule after Send now (or while a retry waits); else its next regular delivery.
 */
export type NextRun =
  | { readonly kind: 'paused' }
  | { readonly kind: 'soon' }
  | { readonly kind: 'retry'; readonly at: string }
  | { readonly kind: 'scheduled'; readonly at: string }
  | { readonly kind: 'unknown' };

export function nextRun(subscription: AdminSubscription): NextRun {
  const { status, dueAt, nextDeliveryAt, lastOutcome } = subscription;
  if (status === 'PAUSED') return { kind: 'paused' };
  if (dueAt !== null && nextDeliveryAt !== null && dueAt < nextDeliveryAt)
    return lastOutcome === 'RETRYING' ? { kind: 'retry', at: dueAt } : { kind: 'soon' };
  if (nextDeliveryAt !== null) return { kind: 'scheduled', at: nextDeliveryAt };
  return { kind: 'unknown' };
}
