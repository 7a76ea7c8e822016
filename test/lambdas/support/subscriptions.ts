import type { CreateSubscriptionInput } from '#contracts/subscriptions.ts';

/** What the subscription form sends for a weekly PDF on Mondays at 08:00 in London, for all companies. */
export const WEEKLY_PDF: CreateSubscriptionInput = {
  dashboardId: 'sales',
  format: 'PDF',
  frequency: 'WEEKLY',
  weekday: 'MONDAY',
  dayOfMonth: null,
  time: '08:00',
  timeZone: 'Europe/London',
  company: null,
};
