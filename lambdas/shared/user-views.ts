import type { UserDashboard } from '#contracts/quicksight-admin.ts';
import { mapWithLimit } from './concurrency.ts';
import { clearDefault, getDefaultViewId } from './data/default-view.ts';
import { deleteView, releaseAssignedView, type ViewItem, viewsOfUser } from './data/views.ts';

/** A view as the admin portal's Dashboards panel shows it, with its derived default flag. */
export const toUserDashboard = (view: ViewItem, defaultViewId: string | undefined): UserDashboard => ({
  id: view.id,
  name: view.name,
  link: view.link ?? '',
  isDefault: view.id === defaultViewId,
  companyName: view.companyName ?? null,
  quicksightDashboardId: view.quicksightDashboardId,
});

export const userDashboards = async (userEmail: string): Promise<UserDashboard[]> => {
  const [views, defaultViewId] = await Promise.all([viewsOfUser(userEmail), getDefaultViewId(userEmail)]);
  return views.map((view) => toUserDashboard(view, defaultViewId));
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
