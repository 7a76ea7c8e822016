import type { SubscriptionItem } from '../data/subscription-items.ts';
import { deleteSubscription, subscriptionsOf } from '../data/subscriptions.ts';

/**
 * Deletes the subscriptions of `email` that `which` selects (all by default), in the step that
 * makes them undeliverable: an account disabled or deleted, an assignment removed, a company
 * the file was chosen for no longer the subscriber's. Only what this needs of the data layer is
 * imported, so the functions that load it on such a step bundle neither the schedule nor the
 * delivery queue. Answers the subscriptions deleted.
 */
export const cancelSubscriptionsOf = async (
  email: string,
  which: (subscription: SubscriptionItem) => boolean = () => true,
): Promise<SubscriptionItem[]> => {
  const deleted: SubscriptionItem[] = [];
  for (const subscription of await subscriptionsOf(email))
    if (which(subscription) && (await deleteSubscription(email, subscription.id))) deleted.push(subscription);
  return deleted;
};
