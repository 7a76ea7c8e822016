/**
 * What the subscription resolvers (subscriptions.ts) load on their first request: the data
 * layer's user operations and, through it, the schedule and luxon. Named here so that the
 * bundle holds these and not the delivery function's operations of the same module.
 */
export {
  createSubscription,
  deleteSubscription,
  getSubscription,
  publicSubscription,
  setPaused,
  subscriptionsOf,
  TooManySubscriptionsError,
} from '../shared/data/subscriptions.ts';
