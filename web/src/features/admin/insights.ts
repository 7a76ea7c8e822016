import { z } from 'zod';
import {
  checkInsightsRange,
  insightsRangeShape,
  type InsightsDashboard,
  type InsightsUser,
  type InsightsWeek,
} from '#contracts/insights.ts';
import { toCsv } from '#web/lib/csv.ts';
import type { InsightsRange } from './api/admin-api.ts';

/** The Insights page's texts, shared by the page and its tests. */
export const INSIGHTS_TEXTS = {
  loadFailed: 'Failed to load insights',
  loadUsersFailed: 'Failed to load the users',
  neverViewed: 'Never viewed',
  viewMeaning:
    'A view is one dashboard opened in the portal: the first dashboard of a visit, a switch to another, a refresh, or the automatic renewal of a long session. Days are UTC days.',
  neverMeaning: (retentionDays: number) =>
    `"Never viewed" means the portal has recorded no dashboard view by this user in the last ${retentionDays} days (the retention period). It does not tell whether the user signed in without opening a dashboard.`,
} as const;

const DEFAULT_RANGE_DAYS = 30;
const DAY_MS = 86_400_000;

const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/** The last DEFAULT_RANGE_DAYS UTC days up to today. */
export const defaultRange = (now: Date = new Date()): InsightsRange => ({
  from: utcDay(new Date(now.getTime() - (DEFAULT_RANGE_DAYS - 1) * DAY_MS)),
  to: utcDay(now),
});

/** The same rules as the server: real dates, start not after end, at most 400 days. */
const insightsRangeFormSchema = z.object(insightsRangeShape).superRefine(checkInsightsRange);

/** The first problem of a range as the form shows it, or undefined. */
export function rangeProblem(range: InsightsRange): { field: 'from' | 'to' | 'company'; message: string } | undefined {
  const result = insightsRangeFormSchema.safeParse(range);
  if (result.success) return undefined;
  const issue = result.error.issues[0]!;
  const field = issue.path[0] === 'to' ? 'to' : issue.path[0] === 'company' ? 'company' : 'from';
  return { field, message: issue.message };
}

/** Assigned dashboards the user has never opened (within the retention period). */
export const unopenedAssignments = (user: InsightsUser) =>
  user.assigned.filter((assignment) => assignment.lastViewedAt === null);

export type UserShow = 'all' | 'never-viewed' | 'unopened';

export const USER_SHOW_OPTIONS: readonly { value: UserShow; label: string }[] = [
  { value: 'all', label: 'All users' },
  { value: 'never-viewed', label: 'Never viewed any dashboard' },
  { value: 'unopened', label: 'Not opened an assigned dashboard' },
];

export function filterInsightUsers(users: readonly InsightsUser[], show: UserShow, text: string): InsightsUser[] {
  const query = text.trim().toLowerCase();
  return users.filter((user) => {
    if (show === 'never-viewed' && user.lastSeenAt !== null) return false;
    if (show === 'unopened' && unopenedAssignments(user).length === 0) return false;
    return (
      query === '' ||
      user.email.includes(query) ||
      user.companies.some((company) => company.toLowerCase().includes(query))
    );
  });
}

export const formatSeen = (at: string | null): string => {
  if (at === null) return INSIGHTS_TEXTS.neverViewed;
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : date.toLocaleString();
};

export const dashboardLabel = (dashboard: InsightsDashboard) =>
  dashboard.name ?? `${dashboard.dashboardId} (no longer in the catalogue)`;

/** Users each dashboard is assigned to, counted from the users' rows. */
export function assignedUserCounts(users: readonly InsightsUser[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const user of users)
    for (const assignment of user.assigned)
      counts.set(assignment.dashboardId, (counts.get(assignment.dashboardId) ?? 0) + 1);
  return counts;
}

/** Company Names of the users' assignments, one per case-insensitive name, sorted. */
export function companiesOf(users: readonly InsightsUser[]): string[] {
  const byKey = new Map<string, string>();
  for (const user of users)
    for (const company of user.companies)
      if (!byKey.has(company.toLowerCase())) byKey.set(company.toLowerCase(), company);
  return [...byKey.values()].sort((a, b) => a.localeCompare(b));
}

export const weeksCsv = (weeks: readonly InsightsWeek[]) =>
  toCsv(
    ['ISO week', 'Week starting', 'Active users', 'Views'],
    weeks.map((week) => [week.week, week.start, week.activeUsers, week.views]),
  );

export const dashboardsCsv = (dashboards: readonly InsightsDashboard[], assignedUsers: ReadonlyMap<string, number>) =>
  toCsv(
    ['Dashboard', 'Dashboard ID', 'Views', 'Assigned users', 'Last viewed'],
    dashboards.map((dashboard) => [
      dashboardLabel(dashboard),
      dashboard.dashboardId,
      dashboard.views,
      assignedUsers.get(dashboard.dashboardId) ?? 0,
      dashboard.lastViewedAt ?? 'never',
    ]),
  );

export const usersCsv = (users: readonly InsightsUser[]) =>
  toCsv(
    ['Email', 'Company', 'Last seen', `Views (last 30 days)`, 'Assigned dashboards', 'Assigned but never opened'],
    users.map((user) => [
      user.email,
      user.companies.join('; '),
      user.lastSeenAt ?? 'never',
      user.recentViews,
      user.assigned.map((assignment) => assignment.name).join('; '),
      unopenedAssignments(user)
        .map((assignment) => assignment.name)
        .join('; '),
    ]),
  );

/** File name of an export: what, the range and the company. */
export const exportName = (what: string, range: InsightsRange) =>
  `${what}-${range.from}-to-${range.to}${range.company ? `-${range.company.replace(/[^\w-]+/g, '_')}` : ''}.csv`;

export const CSV_MIME = 'text/csv;charset=utf-8';
