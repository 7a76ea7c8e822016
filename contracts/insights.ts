import * as z from 'zod';

/**
 * The Insights page's read (GET_INSIGHTS on the QuickSight management function): dashboard
 * usage recorded by the embed function, by UTC day, for a range of days and optionally one
 * company (the Company Name of the users' dashboard assignments).
 */

/** The longest range one request may ask for, in days (both ends included). */
const MAX_INSIGHTS_RANGE_DAYS = 400;
/** Days counted in each user's "views in the last 30 days". */
export const RECENT_VIEWS_DAYS = 30;

const DAY_MS = 86_400_000;

/** A calendar day as YYYY-MM-DD (UTC). */
const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD')
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
  }, 'must be a real calendar date');

/** Days from `from` to `to`, both included. */
const daysInRange = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

/** The fields of a range request. */
export const insightsRangeShape = {
  from: isoDay,
  to: isoDay,
  /** Only views made through an assignment with this Company Name (case-insensitive). */
  company: z
    .string()
    .trim()
    .min(1, 'Company must not be empty')
    .max(200, 'Company must be at most 200 characters')
    .optional(),
};

/** Start not after end, at most MAX_INSIGHTS_RANGE_DAYS days. */
export const checkInsightsRange = (range: { from: string; to: string }, ctx: z.RefinementCtx): void => {
  if (range.from > range.to) {
    ctx.addIssue({ code: 'custom', message: 'The start date must not be after the end date', path: ['from'] });
  } else if (daysInRange(range.from, range.to) > MAX_INSIGHTS_RANGE_DAYS) {
    ctx.addIssue({
      code: 'custom',
      message: `The date range may cover at most ${MAX_INSIGHTS_RANGE_DAYS} days`,
      path: ['to'],
    });
  }
};

const insightsWeekSchema = z.object({
  /** ISO week, e.g. 2026-W47. */
  week: z.string(),
  /** Monday of the week (YYYY-MM-DD). */
  start: z.string(),
  /** Users who opened a dashboard in the week (the whole week, also where the range cuts it). */
  activeUsers: z.number(),
  /** Dashboard views on the days of the week inside the range. */
  views: z.number(),
});

const insightsDashboardSchema = z.object({
  dashboardId: z.string(),
  /** The catalogue's name; null for a dashboard no longer in the catalogue. */
  name: z.string().nullable(),
  inCatalogue: z.boolean(),
  /** Views in the range (and company). */
  views: z.number(),
  /** Last view by anyone, within the retention period; null when none is recorded. */
  lastViewedAt: z.string().nullable(),
});

const insightsAssignmentSchema = z.object({
  dashboardId: z.string(),
  name: z.string(),
  companyName: z.string().nullable(),
  /** The user's last view of this dashboard; null when never opened (within the retention period). */
  lastViewedAt: z.string().nullable(),
});

const insightsUserSchema = z.object({
  email: z.string(),
  /** Company Names of the user's assignments, else the one of their last view. */
  companies: z.array(z.string()),
  /** The user's last dashboard view; null when none is recorded. */
  lastSeenAt: z.string().nullable(),
  /** Views in the last RECENT_VIEWS_DAYS days up to today, whatever the range. */
  recentViews: z.number(),
  assigned: z.array(insightsAssignmentSchema),
});

/**
 * GET_INSIGHTS: the figures of a range. Its cost grows with the days in the range and the
 * catalogue, never with the number of users or the history.
 */
export const insightsResponseSchema = z.object({
  from: z.string(),
  to: z.string(),
  company: z.string().nullable(),
  /** Days view events and aggregates are kept. */
  retentionDays: z.number(),
  totalViews: z.number(),
  weeks: z.array(insightsWeekSchema),
  dashboards: z.array(insightsDashboardSchema),
});
export type InsightsResponse = z.infer<typeof insightsResponseSchema>;

/** Users per GET_INSIGHT_USERS page unless the request asks for fewer. */
export const INSIGHT_USERS_PAGE_SIZE = 200;
const MAX_INSIGHT_USERS_PAGE_SIZE = 500;
/**
 * The Insights page asks for a smaller first page, so its first rows read no more summaries
 * and assignments at 10,000 users than at 100; the rest follow in pages of the default size.
 */
export const FIRST_INSIGHT_USERS_PAGE_SIZE = 100;

export const insightUsersRequestShape = {
  company: insightsRangeShape.company,
  limit: z.number().int().min(1).max(MAX_INSIGHT_USERS_PAGE_SIZE).default(INSIGHT_USERS_PAGE_SIZE),
  nextToken: z.string().max(2048).optional(),
};

/**
 * GET_INSIGHT_USERS: one page of the users with an assignment (in the company) or a recorded
 * view, in email order; each page costs a few bounded queries, whatever the number of users.
 */
export const insightUsersResponseSchema = z.object({
  users: z.array(insightsUserSchema),
  nextToken: z.string().nullable(),
});
export type InsightUsersPage = z.infer<typeof insightUsersResponseSchema>;
export type InsightsUser = z.infer<typeof insightsUserSchema>;
export type InsightsDashboard = z.infer<typeof insightsDashboardSchema>;
export type InsightsWeek = z.infer<typeof insightsWeekSchema>;
