/**
 * The subscriptions as administrators see them: the answers of the QuickSight management
 * function's LIST_SUBSCRIPTIONS, SEND_SUBSCRIPTION_NOW and CANCEL_SUBSCRIPTION (their requests are
 * in contracts/quicksight-admin.ts). Apart from it so that the admin portal loads them with the
 * Deliveries page's calls only.
 */
import * as z from 'zod';
import { subscriptionName, subscriptionSchema } from './subscriptions.ts';

/**
 * A subscription as administrators see it (LIST_SUBSCRIPTIONS, SEND_SUBSCRIPTION_NOW,
 * CANCEL_SUBSCRIPTION): the subscriber's fields, with the recipient, their companies and when the
 * delivery function takes it next (`dueAt`: its next delivery, a retry, or now after Send now).
 */
export const adminSubscriptionSchema = subscriptionSchema.extend({
  /** The recipient: the subscriber's own email, the only address a delivery goes to. */
  email: z.string(),
  dueAt: z.string().nullable(),
  /** The recipient's companies (names), read now. */
  companies: z.array(z.string()),
});
export type AdminSubscription = z.infer<typeof adminSubscriptionSchema>;
export const listSubscriptionsResponseSchema = z.object({ subscriptions: z.array(adminSubscriptionSchema) });
export const subscriptionActionResponseSchema = z.object({
  message: z.string(),
  subscription: adminSubscriptionSchema,
});

/** The answers and refusals of the subscription actions. */
export const SUBSCRIPTION_ADMIN_MESSAGES = {
  sendScheduled: (subscription: AdminSubscription) =>
    `${subscriptionName(subscription)} will be sent to ${subscription.email} within a few minutes.`,
  canceled: (subscription: AdminSubscription) =>
    `Subscription canceled: ${subscription.email} no longer receives ${subscriptionName(subscription)}.`,
  paused: 'This subscription is paused by its recipient, so it cannot be sent. It is sent again once they resume it.',
} as const;
