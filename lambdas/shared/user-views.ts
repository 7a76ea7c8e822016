import type { UserDashboard } from '#contracts/quicksight-admin.ts';
import { mapWithLimit } from './concurrency.ts';
import { companyLabelOfUser } from './data/companies.ts';
import { clearDefault, getDefaultViewId } from './data/default-view.ts';
import { deleteView, releaseAssignedView, type ViewItem, viewsOfUser } from './data/views.ts';

/**
 * A view as the admin portal's Dashboards panel shows it, with its derived default flag and its
 * user's companies (companyLabelOfUser).
 */
export const toUserDashboard = (
  view: ViewItem,
  defaultViewId: string | undefined,
  companyName: string | null,
): UserDashboard => ({
  id: view.id,
  name: view.name,
  link: view.link ?? '',
  isDefault: view.id === defaultViewId,
  companyName,
  quicksightDashboardId: view.quicksightDashboardId,
});

export const userDashboards = async (userEmail: string): Promise<UserDashboard[]> => {
  const [views, defaultViewId, companyName] = await Promise.all([
    viewsOfUser(userEmail),
    getDefaultViewId(userEmail),
    companyLabelOfUser(userEmail),
  ]);
  return views.map((view) => toUserDashboard(view, defaultViewId, companyName));
};

/** Deletes every view of a departing user, their assignment claims and default pointer; answers how many went. */
export const removeAllViewsOfUser = async (userEmail: string): Promise<number> => {
  const views = await viewsOfUser(userEmail);
  await mapWithLimit(views, 10, (view) => deleteView(view.id));
  const dashboards = [...new Set(views.map((view) => view.quicksightDashboardId))];
  await mapWithLimit(dashboards, 10, (dashboardId) => releaseAssignedView(userEmail, dashboardId));
  await clearDefault(userEmail);
  return views.length;
};
