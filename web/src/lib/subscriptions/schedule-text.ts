import { dateTime } from '../dates.ts';

/** A delivery time on the clock of the subscription's own time zone, which its schedule names. */
export const deliveryTime = (subscription: { readonly timeZone: string }, at: string): string =>
  dateTime(at, subscription.timeZone);
