import type { Subscription, SubscriptionFrequency, SubscriptionSchedule, Weekday } from '#contracts/subscriptions.ts';
import { dateTime } from '../dates.ts';

export const FREQUENCY_LABELS: Readonly<Record<SubscriptionFrequency, string>> = {
  DAILY: 'Daily',
  WEEKLY: 'Weekly',
  MONTHLY: 'Monthly',
};

export const WEEKDAY_LABELS: Readonly<Record<Weekday, string>> = {
  MONDAY: 'Monday',
  TUESDAY: 'Tuesday',
  WEDNESDAY: 'Wednesday',
  THURSDAY: 'Thursday',
  FRIDAY: 'Friday',
  SATURDAY: 'Saturday',
  SUNDAY: 'Sunday',
};

/** 1st, 2nd, 3rd, 4th … 21st, 22nd, 23rd … 28th. */
function ordinal(day: number): string {
  const tens = day % 100;
  if (tens >= 11 && tens <= 13) return `${day}th`;
  const suffix = ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[day % 10] ?? 'th';
  return `${day}${suffix}`;
}

type ScheduleFields = Pick<SubscriptionSchedule, 'frequency' | 'time' | 'timeZone'> & {
  readonly weekday?: Weekday | null | undefined;
  readonly dayOfMonth?: number | null | undefined;
};

/** A schedule in words: 'Weekly on Monday at 08:00 (Europe/London)'. */
export function scheduleText({ frequency, weekday, dayOfMonth, time, timeZone }: ScheduleFields): string {
  const day =
    frequency === 'WEEKLY' && weekday
      ? ` on ${WEEKDAY_LABELS[weekday]}`
      : frequency === 'MONTHLY' && dayOfMonth
        ? ` on the ${ordinal(dayOfMonth)}`
        : '';
  return `${FREQUENCY_LABELS[frequency]}${day} at ${time} (${timeZone})`;
}

/** The schedule in words within a sentence: 'weekly on Monday at 08:00 (Europe/London)'. */
export function scheduleInSentence(schedule: ScheduleFields): string {
  const text = scheduleText(schedule);
  return `${text.charAt(0).toLowerCase()}${text.slice(1)}`;
}

/** A subscription's dashboard: its catalogue name, or its id once the catalogue no longer names it. */
export const subscriptionName = (subscription: Subscription): string =>
  subscription.dashboardName ?? subscription.dashboardId;

/** A delivery time on the clock of the subscription's own time zone, which its schedule names. */
export const deliveryTime = (subscription: { readonly timeZone: string }, at: string): string =>
  dateTime(at, subscription.timeZone);
