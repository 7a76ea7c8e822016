/**
 * The subscriptions as administrators see them: the answers of the QuickSight management
 * function's LIST_SUBSCRIPTIONS, SEND_SUBSCRIPTION_NOW and CANCEL_SUBSCRIPTION (their requests are
 * in contracts/quicksight-admin.ts). Apart from it so that the admin portal loads them with the
 * Deliveries page's calls only.
 */
import * as z from 'zod';
import {
  DELIVERY_OUTCOMES,
  SUBSCRIPTION_FORMATS,
  SUBSCRIPTION_FREQUENCIES,
  SUBSCRIPTION_STATUSES,
  WEEKDAYS,
  type Subscription,
} from './subscriptions.ts';

/**
 * A subscription as administrators see it (LIST_SUBSCRIPTIONS, SEND_SUBSCRIPTION_NOW,
 * CANCEL_SUBSCRIPTION): the subscriber's fields, with the recipient, their companies and when the
 * delivery function takes it next (`dueAt`: its next delivery, a retry, or now after Send now).
 */
export const adminSubscriptionSchema = z.object({
  id: z.string(),
  /** The recipient: the subscriber's own email, the only address a delivery goes to. */
  email: z.string(),
  dashboardId: z.string(),
  dashboardName: z.string().nullable(),
  format: z.enum(SUBSCRIPTION_FORMATS),
  frequency: z.enum(SUBSCRIPTION_FREQUENCIES),
  weekday: z.enum(WEEKDAYS).nullable(),
  dayOfMonth: z.number().int().nullable(),
  time: z.string(),
  timeZone: z.string(),
  /** An owner's choice of one of their companies; null for all of them. */
  company: z.string().nullable(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  nextDeliveryAt: z.string().nullable(),
  lastDeliveryAt: z.string().nullable(),
  lastOutcome: z.enum(DELIVERY_OUTCOMES).nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  dueAt: z.string().nullable(),
  /** The recipient's companies (names), read now. */
  companies: z.array(z.string()),
}) satisfies z.ZodType<Subscription & { email: string; dueAt: string | null; companies: string[] }>;
export type AdminSubscription = z.infer<typeof adminSubscriptionSchema>;
export const listSubscriptionsResponseSchema = z.object({ subscriptions: z.array(adminSubscriptionSchema) });
export const subscriptionActionResponseSchema = z.object({
  message: z.string(),
  subscription: adminSubscriptionSchema,
});

const dashboardOf = (subscription: Pick<Subscription, 'dashboardName' | 'dashboardId'>) =>
  subscription.dashboardName ?? subscription.dashboardId;

/** The answers and refusals of the subscription actions. */
export const SUBSCRIPTION_ADMIN_MESSAGES = {
  sendScheduled: (subscription: AdminSubscription) =>
    `${dashboardOf(subscription)} will be sent to ${subscription.email} within a few minutes.`,
  canceled: (subscription: AdminSubscription) =>
    `Subscription canceled: ${subscription.email} no longer receives ${dashboardOf(subscription)}.`,
  paused: 'This subscription is paused by its recipient, so it cannot be sent. It is sent again once they resume it.',
} as const;
