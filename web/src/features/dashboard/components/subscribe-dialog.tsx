import { useId } from 'react';
import { z } from 'zod';
import {
  createSubscriptionInputSchema,
  DELIVERY_MINUTE_STEP,
  isTimeZone,
  MAX_DAY_OF_MONTH,
  SUBSCRIPTION_FREQUENCIES,
  WEEKDAYS,
  type CreateSubscriptionInput,
  type Subscription,
  type SubscriptionFormat,
  FREQUENCY_LABELS,
  scheduleInSentence,
  subscriptionName,
  WEEKDAY_LABELS,
} from '#contracts/subscriptions.ts';
import { Alert } from '#web/components/alert.tsx';
import { FormDialog } from '#web/components/form-dialog.tsx';
import { Select } from '#web/components/select.tsx';
import { notify } from '#web/components/toaster.tsx';
import { useAuth } from '#web/lib/auth/auth-context.ts';
import { useSchemaForm } from '#web/lib/forms/use-schema-form.ts';
import { subscriptionErrorText, useSubscriptionsApi } from '#web/lib/subscriptions/api.ts';
import { deliveryTime } from '#web/lib/dates.ts';
import { useServerCall } from '#web/lib/use-server-call.ts';
import './subscribe-dialog.css';

const SUBSCRIBE_TEXTS = {
  title: 'Email this dashboard',
  submit: 'Subscribe',
  busy: 'Subscribing...',
  failed: 'Failed to subscribe',
  chooseDay: 'Choose a day',
} as const;

const FORMAT_CHOICES: readonly { value: SubscriptionFormat; hint: string }[] = [
  { value: 'PDF', hint: 'The dashboard as you see it, to read or print' },
  { value: 'CSV', hint: 'Its data, to open in a spreadsheet' },
];

const DEFAULT_TIME = '08:00';

/** Every quarter hour of the day, 00:00 to 23:45: the times a delivery may name. */
const TIMES = Array.from({ length: (24 * 60) / DELIVERY_MINUTE_STEP }, (_, step) => {
  const minutes = step * DELIVERY_MINUTE_STEP;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
});

const option = (value: string, label = value) => ({ value, label });
const FREQUENCY_OPTIONS = SUBSCRIPTION_FREQUENCIES.map((frequency) => option(frequency, FREQUENCY_LABELS[frequency]));
const WEEKDAY_OPTIONS = [
  option('', SUBSCRIBE_TEXTS.chooseDay),
  ...WEEKDAYS.map((weekday) => option(weekday, WEEKDAY_LABELS[weekday])),
];
const DAY_OF_MONTH_OPTIONS = [
  option('', SUBSCRIBE_TEXTS.chooseDay),
  ...Array.from({ length: MAX_DAY_OF_MONTH }, (_, index) => option(String(index + 1))),
];
const TIME_OPTIONS = TIMES.map((time) => option(time));

/** The browser's own time zone, or UTC where it names none the runtime knows. */
function browserTimeZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isTimeZone(zone) ? zone : 'UTC';
}

/** The runtime's IANA zones, with the default among them (the list leaves out aliases such as UTC). */
function timeZoneOptions(current: string) {
  const zones = Intl.supportedValuesOf('timeZone');
  const all = zones.includes(current) ? zones : [...zones, current].sort();
  return all.map((zone) => option(zone, zone.replaceAll('_', ' ')));
}

/** The form's time zone at first: the browser's, read once when the dialog's module loads. */
const DEFAULT_ZONE = browserTimeZone();
const ZONE_OPTIONS = timeZoneOptions(DEFAULT_ZONE);

/**
 * The form's fields as strings, turned into createSubscription's input and checked with the
 * contract's schema: its messages are the form's errors. A day is sent only for the frequency
 * that takes it, so a day chosen before the frequency changed is kept but not sent.
 */
const subscribeFormSchema = z
  .object({
    dashboardId: z.string(),
    company: z.string(),
    format: z.string(),
    frequency: z.string(),
    weekday: z.string(),
    dayOfMonth: z.string(),
    time: z.string(),
    timeZone: z.string(),
  })
  .transform(({ company, weekday, dayOfMonth, ...rest }): Record<string, unknown> => ({
    ...rest,
    company: company || null,
    weekday: rest.frequency === 'WEEKLY' ? weekday || null : null,
    dayOfMonth: rest.frequency === 'MONTHLY' && dayOfMonth ? Number(dayOfMonth) : null,
  }))
  .pipe(createSubscriptionInputSchema);

/** 'Subscribed: Sales, weekly on Monday at 08:00 (Europe/London). Next delivery: Aug 3, 2026, 8:00 AM.' */
function subscribedText(subscription: Subscription): string {
  const text = `Subscribed: ${subscriptionName(subscription)}, ${scheduleInSentence(subscription)}.`;
  const next = subscription.nextDeliveryAt;
  return next ? `${text} Next delivery: ${deliveryTime(subscription, next)}.` : text;
}

export interface SubscribeDialogProps {
  /** The QuickSight dashboard of the view shown. */
  readonly dashboardId: string;
  readonly dashboardName: string;
  /** An owner's choice of one of their companies on the dashboard; '' for all of them. */
  readonly company: string;
  readonly onClose: () => void;
}

/**
 * 'Email this dashboard': the format, how often, the time and its zone. The defaults (a PDF
 * every day at 08:00 in the browser's zone) need only the Subscribe button. A refusal (the
 * limit of subscriptions, a dashboard that cannot be sent) shows the API's message and keeps
 * what was chosen. Mounted only while open, so each opening starts from the defaults.
 */
export default function SubscribeDialog({ dashboardId, dashboardName, company, onClose }: SubscribeDialogProps) {
  const { session } = useAuth();
  const formatErrorId = useId();
  const api = useSubscriptionsApi();
  const call = useServerCall<'subscribe', string>();
  const form = useSchemaForm(subscribeFormSchema, {
    dashboardId,
    company,
    format: 'PDF',
    frequency: 'DAILY',
    weekday: '',
    dayOfMonth: '',
    time: DEFAULT_TIME,
    timeZone: DEFAULT_ZONE,
  });
  const { values, errors } = form;
  // Not fields of the form: a problem with them is the dashboard's, shown above the fields.
  const otherProblem = errors.dashboardId ?? errors.company;

  const subscribe = (input: CreateSubscriptionInput) =>
    call.run(
      'subscribe',
      async () => {
        notify.success(subscribedText(await api.create(input)));
        onClose();
      },
      {
        failure: (error) => {
          console.error('Error subscribing to a dashboard:', error instanceof Error ? error.message : error);
          return subscriptionErrorText(error);
        },
      },
    );

  return (
    <FormDialog
      title={SUBSCRIBE_TEXTS.title}
      onClose={onClose}
      onSubmit={(event) => void form.handleSubmit(subscribe)(event)}
      busy={form.isSubmitting}
      submitLabel={SUBSCRIBE_TEXTS.submit}
      busyLabel={SUBSCRIBE_TEXTS.busy}
    >
      {call.failure && (
        <Alert tone="error" title={SUBSCRIBE_TEXTS.failed}>
          <p>{call.failure}</p>
        </Alert>
      )}
      {otherProblem && <Alert tone="error">{otherProblem}</Alert>}
      <p>
        <strong>{dashboardName}</strong> is emailed to {session?.email ?? 'you'} as a file, on the schedule you choose.
      </p>
      {company && (
        <p className="text-muted">
          The file will hold only the rows of <strong>{company}</strong>, the company chosen on the dashboard.
        </p>
      )}
      <fieldset className="subscribe-formats" aria-describedby={errors.format ? formatErrorId : undefined}>
        <legend className="field-label">Format</legend>
        {FORMAT_CHOICES.map((choice) => (
          <label key={choice.value} className="subscribe-format">
            <input
              type="radio"
              {...form.field('format')}
              value={choice.value}
              checked={values.format === choice.value}
            />
            <span>
              <span className="subscribe-format-label">{choice.value}</span>
              <span className="field-hint">{choice.hint}</span>
            </span>
          </label>
        ))}
        {errors.format && (
          <p id={formatErrorId} className="field-error" role="alert">
            {errors.format}
          </p>
        )}
      </fieldset>
      <div className="subscribe-schedule">
        <Select label="Frequency" options={FREQUENCY_OPTIONS} error={errors.frequency} {...form.field('frequency')} />
        {values.frequency === 'WEEKLY' && (
          <Select
            label="Day of the week"
            options={WEEKDAY_OPTIONS}
            required
            error={errors.weekday}
            {...form.field('weekday')}
          />
        )}
        {values.frequency === 'MONTHLY' && (
          <Select
            label="Day of the month"
            options={DAY_OF_MONTH_OPTIONS}
            required
            error={errors.dayOfMonth}
            {...form.field('dayOfMonth')}
          />
        )}
        <Select label="Time" options={TIME_OPTIONS} error={errors.time} {...form.field('time')} />
        <Select label="Time zone" options={ZONE_OPTIONS} error={errors.timeZone} {...form.field('timeZone')} />
      </div>
    </FormDialog>
  );
}
