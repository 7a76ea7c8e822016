import type { InsightsDashboard, InsightsResponse, InsightsWeek } from '#contracts/insights.ts';
import { listDashboards } from '../shared/data/catalogue.ts';
import {
  ALL_SCOPE,
  companyScope,
  dailyUsage,
  dashboardLastViews,
  isoWeekOf,
  usageRetentionDays,
  weeklyActiveUsers,
  type DayUsage,
} from '../shared/data/usage.ts';

export interface InsightsRange {
  readonly from: string;
  readonly to: string;
  readonly company?: string | undefined;
}

const DAY_MS = 86_400_000;
const dayStart = (day: string) => new Date(`${day}T00:00:00Z`);

/** Every ISO week overlapping the range, with its active users and the views of its days in the range. */
const weeksOf = (
  range: InsightsRange,
  days: readonly DayUsage[],
  activeUsers: ReadonlyMap<string, number>,
): InsightsWeek[] => {
  const viewsByWeek = new Map<string, number>();
  for (const day of days) {
    const { week } = isoWeekOf(dayStart(day.day));
    viewsByWeek.set(week, (viewsByWeek.get(week) ?? 0) + day.views);
  }
  const weeks: InsightsWeek[] = [];
  const last = dayStart(range.to).getTime();
  for (let monday = dayStart(isoWeekOf(dayStart(range.from)).start).getTime(); monday <= last; monday += 7 * DAY_MS) {
    const { week, start } = isoWeekOf(new Date(monday));
    weeks.push({ week, start, activeUsers: activeUsers.get(week) ?? 0, views: viewsByWeek.get(week) ?? 0 });
  }
  return weeks;
};

/**
 * The Insights page's figures for a range of UTC days and optionally one company, from the
 * usage aggregates (never the events) and the catalogue: a handful of queries bounded by the
 * days in the range and the number of dashboards, whatever the number of users.
 */
export const readInsights = async (range: InsightsRange): Promise<InsightsResponse> => {
  const company = range.company?.trim() || undefined;
  const scope = company ? companyScope(company) : ALL_SCOPE;
  const [catalogue, days, activeUsers, lastViews] = await Promise.all([
    listDashboards(),
    dailyUsage(scope, range.from, range.to),
    weeklyActiveUsers(scope, isoWeekOf(dayStart(range.from)).week, isoWeekOf(dayStart(range.to)).week),
    dashboardLastViews(),
  ]);
  const viewsInRange = new Map<string, number>();
  for (const day of days) {
    for (const [dashboardId, views] of day.byDashboard)
      viewsInRange.set(dashboardId, (viewsInRange.get(dashboardId) ?? 0) + views);
  }
  const names = new Map(catalogue.map((dashboard) => [dashboard.dashboardId, dashboard.dashboardName]));
  const dashboards: InsightsDashboard[] = [...new Set([...names.keys(), ...viewsInRange.keys()])].map(
    (dashboardId) => ({
      dashboardId,
      name: names.get(dashboardId) ?? null,
      inCatalogue: names.has(dashboardId),
      views: viewsInRange.get(dashboardId) ?? 0,
      lastViewedAt: lastViews.get(dashboardId) ?? null,
    }),
  );
  dashboards.sort((a, b) => b.views - a.views || (a.name ?? a.dashboardId).localeCompare(b.name ?? b.dashboardId));
  return {
    from: range.from,
    to: range.to,
    company: company ?? null,
    retentionDays: usageRetentionDays(),
    totalViews: days.reduce((sum, day) => sum + day.views, 0),
    weeks: weeksOf(range, days, activeUsers),
    dashboards,
  };
};
