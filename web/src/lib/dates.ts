/** The local date of an epoch-milliseconds time, as the portal shows dates (e.g. an account's creation date). */
export const localDate = (epochMs: number): string => new Date(epochMs).toLocaleDateString();

/**
 * The date and time of an ISO 8601 instant as the portal shows times, on the clock of `timeZone` (an IANA name)
 * or of the browser when none is given. A value that is not a date is shown as it came.
 */
function dateTime(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };
  try {
    return date.toLocaleString(undefined, timeZone ? { ...options, timeZone } : options);
  } catch {
    // A zone this browser does not know: its own clock.
    return date.toLocaleString(undefined, options);
  }
}

/** A delivery time on the clock of the subscription's own time zone, which its schedule names. */
export const deliveryTime = (subscription: { readonly timeZone: string }, at: string): string =>
  dateTime(at, subscription.timeZone);
