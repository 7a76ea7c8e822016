import type { DashboardMetadata } from '#contracts/quicksight-admin.ts';
import { removeCatalogueRecord } from '../shared/catalogue.ts';
import { mapWithLimit } from '../shared/concurrency.ts';
import { type DashboardItem, getDashboard, listDashboards } from '../shared/data/catalogue.ts';
import { viewsOfDashboard } from '../shared/data/views.ts';
import { companiesById, companyNamesOf, listCompanies, listMemberships } from '../shared/data/companies.ts';
import { dashboardScope } from '../shared/companies/scope.ts';
import { NotFoundError } from '../shared/errors.ts';
import { quicksightSettings, viewersOfDashboard } from '../shared/quicksight.ts';
import { unassignDashboard } from './assignments.ts';

export const toMetadata = (item: DashboardItem): DashboardMetadata => ({
  id: item.id,
  dashboardId: item.dashboardId,
  dashboardName: item.dashboardName,
  dashboardLink: item.dashboardLink,
  description: item.description ?? null,
  isActive: item.isActive,
  createdAt: item.createdAt,
  updatedAt: item.updatedAt,
  createdBy: item.createdBy,
  sharedData: item.sharedData === true,
});

/**
 * The catalogue, each entry with the users it is assigned to (one index query per
 * dashboard), so the delete confirmation can name whom a deletion affects, their companies,
 * and whether QuickSight applies the portal's company rules to it.
 */
export const listCatalogue = async (): Promise<DashboardMetadata[]> => {
  const [dashboards, companies, memberships] = await Promise.all([
    listDashboards(),
    listCompanies(),
    listMemberships(),
  ]);
  const byId = companiesById(companies);
  const entries = await mapWithLimit(dashboards, 5, async (item) => {
    const [views, verdict] = await Promise.all([viewsOfDashboard(item.dashboardId), dashboardScope(item.dashboardId)]);
    const emails = [...new Set(views.map((view) => view.userEmail))].sort();
    const holders = [...new Set(emails.flatMap((email) => companyNamesOf(memberships.get(email), byId)))].sort();
    return {
      ...toMetadata(item),
      assignedUsers: emails.length,
      assignedUserEmails: emails,
      companies: holders,
      scope: verdict.scope,
      scopeDetail: verdict.detail,
    };
  });
  return entries.sort((a, b) => a.dashboardName.localeCompare(b.dashboardName));
};

/**
 * Deletes a catalogue entry and removes the dashboard from every user who has it (views
 * first, then permissions, per user), then the record and its ID claim. The users are those
 * with a view and those still holding the viewer permission (left by a removal that failed
 * after deleting the view), so a retry finishes whatever is left.
 */
export const deleteDashboardEverywhere = async (
  metadataId: string,
): Promise<{ dashboard: DashboardItem; removedUsers: number }> => {
  quicksightSettings();
  const dashboard = await getDashboard(metadataId);
  if (dashboard === undefined) throw new NotFoundError('Dashboard not found');
  const [views, viewers] = await Promise.all([
    viewsOfDashboard(dashboard.dashboardId),
    viewersOfDashboard(dashboard.dashboardId),
  ]);
  const users = [...new Set([...views.map((view) => view.userEmail), ...viewers])];
  await mapWithLimit(users, 5, (userEmail) => unassignDashboard(userEmail, dashboard.dashboardId));
  await removeCatalogueRecord(dashboard);
  return { dashboard, removedUsers: users.length };
};
