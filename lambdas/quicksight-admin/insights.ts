import type { InsightsDashboard, InsightsResponse, InsightsUser, InsightsWeek } from '../../contracts/insights.ts';
import { mapWithLimit } from '../shared/concurrency.ts';
import { listDashboards } from '../shared/data/catalogue.ts';
import {
  ALL_SCOPE,
  companyScope,
  dailyUsage,
  dashboardLastViews,
  isoWeekOf,
  usageRetentionDays,
  userUsage,
  weeklyActiveUsers,
  type DayUsage,
} from '../shared/data/usage.ts';
import { type ViewItem, viewsOfDashboard } from '../shared/data/views.ts';

export interface InsightsRange {
  readonly from: string;
  readonly to: string;
  readonly company?: string | undefined;
}

const DAY_MS = 86_400_000;
const sameCompany = (a: string | null | undefined, b: string) => (a ?? '').trim().toLowerCase() === b.trim().toLowerCase();

/** Company Names as first spelt, one per case-insensitive name, sorted. */
const distinctNames = (names: Iterable<string | null | undefined>): string[] => {
  const byKey = new Map<string, string>();
  for (const name of names) {
    const trimmed = name?.trim();
    if (trimmed && !byKey.has(trimmed.toLowerCase())) byKey.set(trimmed.toLowerCase(), trimmed);
  }
  return [...byKey.values()].sort((a, b) => a.localeCompare(b));
};

/** Every ISO week overlapping the range, with its active users and the views of its days in the range. */
const weeksOf = (range: InsightsRange, days: readonly DayUsage[], activeUsers: ReadonlyMap<string, number>): InsightsWeek[] => {
  const viewsByWeek = new Map<string, number>();
  for (const day of days) {
    const { week } = isoWeekOf(new Date(`${day.day}T00:00:00Z`));
    viewsByWeek.set(week, (viewsByWeek.get(week) ?? 0) + day.views);
  }
  const weeks: InsightsWeek[] = [];
  const last = Date.parse(`${range.to}T00:00:00Z`);
  for (let monday = Date.parse(`${isoWeekOf(new Date(`${range.from}T00:00:00Z`)).start}T00:00:00Z`); monday <= last; monday += 7 * DAY_MS) {
    const { week, start } = isoWeekOf(new Date(monday));
    weeks.push({ week, start, activeUsers: activeUsers.get(week) ?? 0, views: viewsByWeek.get(week) ?? 0 });
  }
  return weeks;
};

/**
 * The Insights page's data for a range of UTC days and optionally one company: the usage
 * aggregates of the range (never the events), the catalogue and each dashboard's assignments
 * (one index query per dashboard, no call per user).
 */
export const readInsights = async (range: InsightsRange, now: Date = new Date()): Promise<InsightsResponse> => {
  const company = range.company?.trim() || undefined;
  const scope = company ? companyScope(company) : ALL_SCOPE;
  const firstWeek = isoWeekOf(new Date(`${range.from}T00:00:00Z`)).week;
  const lastWeek = isoWeekOf(new Date(`${range.to}T00:00:00Z`)).week;
  const [catalogue, days, activeUsers, usage, lastViews] = await Promise.all([
    listDashboards(),
    dailyUsage(scope, range.from, range.to),
    weeklyActiveUsers(scope, firstWeek, lastWeek),
    userUsage(now),
    dashboardLastViews(),
  ]);
  const allAssignments = (await mapWithLimit(catalogue, 5, (dashboard) => viewsOfDashboard(dashboard.dashboardId))).flat();
  const assignments = company ? allAssignments.filter((view) => sameCompany(view.companyName, company)) : allAssignments;

  const viewsInRange = new Map<string, number>();
  for (const day of days) {
    for (const [dashboardId, views] of day.byDashboard) viewsInRange.set(dashboardId, (viewsInRange.get(dashboardId) ?? 0) + views);
  }
  const assignedUsers = new Map<string, Set<string>>();
  for (const view of assignments) {
    const users = assignedUsers.get(view.quicksightDashboardId) ?? new Set<string>();
    users.add(view.userEmail);
    assignedUsers.set(view.quicksightDashboardId, users);
  }
  const names = new Map(catalogue.map((dashboard) => [dashboard.dashboardId, dashboard.dashboardName]));
  const dashboards: InsightsDashboard[] = [...new Set([...names.keys(), ...viewsInRange.keys()])].map((dashboardId) => ({
    dashboardId,
    name: names.get(dashboardId) ?? null,
    inCatalogue: names.has(dashboardId),
    views: viewsInRange.get(dashboardId) ?? 0,
    assignedUsers: assignedUsers.get(dashboardId)?.size ?? 0,
    lastViewedAt: lastViews.get(dashboardId) ?? null,
  }));
  dashboards.sort((a, b) => b.views - a.views || (a.name ?? a.dashboardId).localeCompare(b.name ?? b.dashboardId));

  const assignmentsByUser = new Map<string, ViewItem[]>();
  for (const view of assignments) assignmentsByUser.set(view.userEmail, [...(assignmentsByUser.get(view.userEmail) ?? []), view]);
  const usageByUser = new Map(usage.map((user) => [user.email, user]));
  const emails = new Set([...assignmentsByUser.keys(), ...usage.filter((user) => !company || sameCompany(user.company, company)).map((user) => user.email)]);
  const users: InsightsUser[] = [...emails].sort().map((email) => {
    const views = assignmentsByUser.get(email) ?? [];
    const recorded = usageByUser.get(email);
    const assigned = new Map<string, InsightsUser['assigned'][number]>();
    for (const view of views) {
      if (assigned.has(view.quicksightDashboardId)) continue;
      assigned.set(view.quicksightDashboardId, {
        dashboardId: view.quicksightDashboardId,
        name: view.name,
        companyName: view.companyName ?? null,
        lastViewedAt: recorded?.lastViewByDashboard.get(view.quicksightDashboardId) ?? null,
      });
    }
    const companies = distinctNames(views.map((view) => view.companyName));
    return {
      email,
      companies: companies.length > 0 ? companies : distinctNames([recorded?.company]),
      lastSeenAt: recorded?.lastSeenAt ?? null,
      recentViews: recorded?.recentViews ?? 0,
      assigned: [...assigned.values()],
    };
  });

  return {
    from: range.from,
    to: range.to,
    company: company ?? null,
    retentionDays: usageRetentionDays(),
    totalViews: days.reduce((sum, day) => sum + day.views, 0),
    weeks: weeksOf(range, days, activeUsers),
    dashboards,
    users,
    companies: distinctNames([...allAssignments.map((view) => view.companyName), ...usage.map((user) => user.company)]),
  };
};
