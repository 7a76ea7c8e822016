import * as z from 'zod';
import { companiesLabel } from '#contracts/companies.ts';
import type { InsightsUser, InsightUsersPage } from '#contracts/insights.ts';
import { mapWithLimit } from '../shared/concurrency.ts';
import { listDashboards } from '../shared/data/catalogue.ts';
import { companiesById, companyNamesOf, listCompanies, membershipsOf } from '../shared/data/companies.ts';
import { decodePageToken, encodePageToken } from '../shared/data/page-token.ts';
import { pageUserUsage, type UserUsage } from '../shared/data/usage.ts';
import { pageViewsOfDashboard, type ViewItem } from '../shared/data/views.ts';

export interface InsightUsersRequest {
  readonly company?: string | undefined;
  readonly limit: number;
  readonly nextToken?: string | undefined;
}

const cursorSchema = z.object({ after: z.string().min(1).max(320) }).strict();

const sameCompany = (name: string | null | undefined, company: string) =>
  (name ?? '').trim().toLowerCase() === company.trim().toLowerCase();

/** Company Names as first spelt, one per case-insensitive name, sorted. */
const distinctNames = (names: Iterable<string | null | undefined>): string[] => {
  const byKey = new Map<string, string>();
  for (const name of names) {
    const trimmed = name?.trim();
    if (trimmed && !byKey.has(trimmed.toLowerCase())) byKey.set(trimmed.toLowerCase(), trimmed);
  }
  return [...byKey.values()].sort((a, b) => a.localeCompare(b));
};

/**
 * A user's row. `companies` are the names of the companies they are in now (read from the
 * company records); a user in none, such as one who has left, keeps the company their views
 * were recorded with.
 */
const toRow = (
  email: string,
  companies: readonly string[],
  views: readonly ViewItem[],
  usage: UserUsage | undefined,
): InsightsUser => {
  const companyName = companiesLabel(companies) || null;
  const assigned = new Map<string, InsightsUser['assigned'][number]>();
  for (const view of views) {
    if (assigned.has(view.quicksightDashboardId)) continue;
    assigned.set(view.quicksightDashboardId, {
      dashboardId: view.quicksightDashboardId,
      name: view.name,
      companyName,
      lastViewedAt: usage?.lastViewByDashboard.get(view.quicksightDashboardId) ?? null,
    });
  }
  return {
    email,
    companies: companies.length > 0 ? [...companies] : distinctNames([usage?.company]),
    lastSeenAt: usage?.lastSeenAt ?? null,
    recentViews: usage?.recentViews ?? 0,
    assigned: [...assigned.values()],
  };
};

/**
 * One page of the Insights users, in email order: everyone with an assignment of a catalogue
 * dashboard (the dashboard index is sorted by email) or a recorded view (the usage summaries
 * are too). Each source is read from the cursor on, `limit` items at most; only the emails
 * every source has fully passed are answered, so a page costs one query per dashboard, one
 * of the summaries, one of the companies and one read of the memberships per 100 users of the
 * page, whatever the number of users in the portal, and no call per user.
 */
export const readInsightUsersPage = async (
  request: InsightUsersRequest,
  now: Date = new Date(),
): Promise<InsightUsersPage> => {
  const after = decodePageToken(request.nextToken, cursorSchema)?.after;
  // The usage summaries and the companies do not depend on the catalogue: they are read while it is.
  const [assignments, usage, companies] = await Promise.all([
    listDashboards().then((catalogue) =>
      mapWithLimit(catalogue, 5, (dashboard) => pageViewsOfDashboard(dashboard.dashboardId, after, request.limit)),
    ),
    pageUserUsage(after, request.limit, now),
    listCompanies(),
  ]);
  const byId = companiesById(companies);
  const sources: { emails: string[]; more: boolean }[] = [
    ...assignments.map((page) => ({ emails: page.items.map((view) => view.userEmail), more: page.more })),
    { emails: usage.items.map((user) => user.email), more: usage.more },
  ];
  // A source with more to read may still hold its last email further on: only what sorts
  // before every such source's last email is complete.
  const limits = sources
    .filter((source) => source.more && source.emails.length > 0)
    .map((source) => source.emails[source.emails.length - 1]!);
  const boundary = limits.length > 0 ? limits.reduce((a, b) => (a < b ? a : b)) : undefined;
  const all = [...new Set(sources.flatMap((source) => source.emails))].sort();
  let emails = boundary === undefined ? all : all.filter((email) => email < boundary);
  // One user holding more views of one dashboard than a page: take them as read.
  if (emails.length === 0 && boundary !== undefined) emails = [boundary];
  const truncated = emails.length > request.limit;
  emails = emails.slice(0, request.limit);
  const complete = boundary === undefined && !truncated;

  const viewsByUser = new Map<string, ViewItem[]>();
  for (const view of assignments.flatMap((page) => page.items))
    viewsByUser.set(view.userEmail, [...(viewsByUser.get(view.userEmail) ?? []), view]);
  const usageByUser = new Map(usage.items.map((user) => [user.email, user]));
  const company = request.company?.trim() || undefined;
  const memberships = await membershipsOf(emails);
  const users = emails.flatMap((email) => {
    const names = companyNamesOf(memberships.get(email), byId);
    const inCompany = !company || names.some((name) => sameCompany(name, company));
    const views = inCompany ? (viewsByUser.get(email) ?? []) : [];
    const recorded = usageByUser.get(email);
    if (company && views.length === 0 && !sameCompany(recorded?.company, company)) return [];
    return [toRow(email, names, views, recorded)];
  });
  const last = emails[emails.length - 1];
  return { users, nextToken: complete || last === undefined ? null : encodePageToken({ after: last }) };
};
