/**
 * Subscriptions: a dashboard's file (PDF or CSV) mailed to its subscriber on a schedule, holding
 * only the subscriber's companies' rows. The GraphQL fields (contracts/schema.graphql:
 * createSubscription, listMySubscriptions, setSubscriptionPaused, deleteSubscription), the
 * schedule's rules and the texts the screens show. The delivery function finds subscriptions
 * by their next delivery time; see lambdas/shared/data/subscriptions.ts.
 */
import * as z from 'zod';
import { dashboardId } from './fields.ts';

const SUBSCRIPTION_FORMATS = ['PDF', 'CSV'] as const;
export type SubscriptionFormat = (typeof SUBSCRIPTION_FORMATS)[number];

export const SUBSCRIPTION_FREQUENCIES = ['DAILY', 'WEEKLY', 'MONTHLY'] as const;
export type SubscriptionFrequency = (typeof SUBSCRIPTION_FREQUENCIES)[number];

/** ISO weekday order (Monday is 1), as the schedule computes it. */
export const WEEKDAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const SUBSCRIPTION_STATUSES = ['ACTIVE', 'PAUSED'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** What the last delivery came to: delivered, being retried, or failed after its retries. */
const DELIVERY_OUTCOMES = ['DELIVERED', 'RETRYING', 'FAILED'] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/** Subscriptions one user may have at a time. */
export const MAX_SUBSCRIPTIONS_PER_USER = 10;
/**
 * Delivery times fall on the quarter hour: the delivery function runs every 5 minutes, so a
 * file leaves within 5 minutes of its time.
 */
export const DELIVERY_MINUTE_STEP = 15;
/** The last day of the month a monthly delivery may name: every month has it. */
export const MAX_DAY_OF_MONTH = 28;

export const SUBSCRIPTION_MESSAGES = {
  formatInvalid: `Choose a format: ${SUBSCRIPTION_FORMATS.join(' or ')}`,
  frequencyInvalid: `Choose how often: ${SUBSCRIPTION_FREQUENCIES.join(', ')}`,
  weekdayRequired: 'Choose the day of the week for a weekly delivery',
  weekdayUnexpected: 'A day of the week is only for a weekly delivery',
  dayOfMonthRequired: 'Choose the day of the month for a monthly delivery',
  dayOfMonthUnexpected: 'A day of the month is only for a monthly delivery',
  dayOfMonthInvalid: `The day of the month must be a whole number from 1 to ${MAX_DAY_OF_MONTH}`,
  timeInvalid: `Choose a time on the quarter hour, as HH:MM from 00:00 to 23:45`,
  timeZoneInvalid: 'Choose a time zone from the list (an IANA name such as Europe/London)',
  companyInvalid: 'Choose one of your companies, or all of them',
  noCompany: 'Your account belongs to no company yet, so no file can be made for you. Ask an administrator.',
  notAssigned: 'You can only subscribe to a dashboard assigned to you',
  notDeliverable:
    'This dashboard cannot be sent by email: its data is not limited to your companies. Ask an administrator.',
  tooMany: `You have ${MAX_SUBSCRIPTIONS_PER_USER} subscriptions, the most allowed. Delete one to add another.`,
  notFound: 'This subscription no longer exists',
} as const;

/** An IANA time zone name the runtime knows (Intl is the runtime's own tz database). */
export const isTimeZone = (name: string): boolean => {
  if (name.length === 0 || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
};

const TIME_PATTERN = /^([01]\d|2[0-3]):(00|15|30|45)$/;

/** The schedule of a subscription: how often, on which day, at what local time in which zone. */
const subscriptionScheduleSchema = z
  .object({
    frequency: z.enum(SUBSCRIPTION_FREQUENCIES, { error: SUBSCRIPTION_MESSAGES.frequencyInvalid }),
    weekday: z.enum(WEEKDAYS, { error: SUBSCRIPTION_MESSAGES.weekdayRequired }).nullish(),
    dayOfMonth: z
      .number({ error: SUBSCRIPTION_MESSAGES.dayOfMonthInvalid })
      .int(SUBSCRIPTION_MESSAGES.dayOfMonthInvalid)
      .min(1, SUBSCRIPTION_MESSAGES.dayOfMonthInvalid)
      .max(MAX_DAY_OF_MONTH, SUBSCRIPTION_MESSAGES.dayOfMonthInvalid)
      .nullish(),
    time: z.string({ error: SUBSCRIPTION_MESSAGES.timeInvalid }).regex(TIME_PATTERN, SUBSCRIPTION_MESSAGES.timeInvalid),
    timeZone: z
      .string({ error: SUBSCRIPTION_MESSAGES.timeZoneInvalid })
      .refine(isTimeZone, SUBSCRIPTION_MESSAGES.timeZoneInvalid),
  })
  .superRefine((schedule, context) => {
    const weekly = schedule.frequency === 'WEEKLY';
    const monthly = schedule.frequency === 'MONTHLY';
    const hasWeekday = schedule.weekday !== null && schedule.weekday !== undefined;
    const hasDay = schedule.dayOfMonth !== null && schedule.dayOfMonth !== undefined;
    if (weekly && !hasWeekday)
      context.addIssue({ code: 'custom', path: ['weekday'], message: SUBSCRIPTION_MESSAGES.weekdayRequired });
    if (!weekly && hasWeekday)
      context.addIssue({ code: 'custom', path: ['weekday'], message: SUBSCRIPTION_MESSAGES.weekdayUnexpected });
    if (monthly && !hasDay)
      context.addIssue({ code: 'custom', path: ['dayOfMonth'], message: SUBSCRIPTION_MESSAGES.dayOfMonthRequired });
    if (!monthly && hasDay)
      context.addIssue({ code: 'custom', path: ['dayOfMonth'], message: SUBSCRIPTION_MESSAGES.dayOfMonthUnexpected });
  });
export type SubscriptionSchedule = z.infer<typeof subscriptionScheduleSchema>;

/**
 * createSubscription's input. `company` is an owner's choice of one of their companies, as on
 * the dashboard page; absent, the file holds all the subscriber's companies.
 */
export const createSubscriptionInputSchema = z
  .object({
    dashboardId,
    format: z.enum(SUBSCRIPTION_FORMATS, { error: SUBSCRIPTION_MESSAGES.formatInvalid }),
    company: z.string().trim().min(1, SUBSCRIPTION_MESSAGES.companyInvalid).max(128).nullish(),
  })
  .and(subscriptionScheduleSchema);
export type CreateSubscriptionInput = z.infer<typeof createSubscriptionInputSchema>;

/** A subscription as listMySubscriptions and the mutations answer it (times are ISO 8601, UTC). */
export const subscriptionSchema = z.object({
  id: z.string(),
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
  /** Why the last delivery failed (QuickSight's or SES's reason), when it did. */
  lastError: z.string().nullable(),
  createdAt: z.string(),
});
export type Subscription = Readonly<z.infer<typeof subscriptionSchema>>;

/*
 * The schedule in words, as the screens, the admin page and the delivery mail say it.
 */

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
export const subscriptionName = (subscription: Pick<Subscription, 'dashboardName' | 'dashboardId'>): string =>
  subscription.dashboardName ?? subscription.dashboardId;
