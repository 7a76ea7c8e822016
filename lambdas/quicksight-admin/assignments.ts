import type { UserDashboard } from '#contracts/quicksight-admin.ts';
import { companyLabelOfUser } from '../shared/data/companies.ts';
import { clearDefaultIfPointsTo, getDefaultViewId, setDefaultView } from '../shared/data/default-view.ts';
import { assignmentLease, withLease } from '../shared/data/lease.ts';
import { deleteView, releaseAssignedView, upsertAssignedView, viewsOfUserForDashboard } from '../shared/data/views.ts';
import { NotFoundError } from '../shared/errors.ts';
import { grantViewer, requireQuickSightUser, revokeViewer } from '../shared/quicksight.ts';
import { toUserDashboard } from '../shared/user-views.ts';

/**
 * Assigning a dashboard = QuickSight viewer permission + a view. The order of the steps keeps
 * "a view exists only with the permission": assignment grants first and writes the view
 * second; removal deletes the views first and revokes second. Every step is idempotent, so
 * a retry finishes whatever a failure left, and a lease per (user, dashboard) keeps an
 * assignment and a removal of the same pair from interleaving. The view gets a random id;
 * assigning again refreshes the view the assignment wrote (found by its claim), never
 * another item.
 */

export interface Assignment {
  userEmail: string;
  dashboardId: string;
  dashboardName: string;
  dashboardLink: string;
  makeDefault: boolean;
}

export const assignDashboard = (assignment: Assignment, actor: string): Promise<UserDashboard> =>
  withLease(assignmentLease(assignment.userEmail, assignment.dashboardId), async () => {
    await requireQuickSightUser(assignment.userEmail);
    await grantViewer(assignment.userEmail, assignment.dashboardId);
    const view = await upsertAssignedView({
      userEmail: assignment.userEmail,
      dashboardId: assignment.dashboardId,
      name: assignment.dashboardName,
      link: assignment.dashboardLink,
      actor,
    });
    if (assignment.makeDefault) await setDefaultView(assignment.userEmail, view.id);
    const defaultViewId = assignment.makeDefault ? view.id : await getDefaultViewId(assignment.userEmail);
    return toUserDashboard(view, defaultViewId, await companyLabelOfUser(assignment.userEmail));
  });

/** Removes the dashboard from the user: all their views of it and the assignment's claim, then the permission. */
export const unassignDashboard = (userEmail: string, dashboardId: string): Promise<number> =>
  withLease(assignmentLease(userEmail, dashboardId), async () => {
    const views = await viewsOfUserForDashboard(userEmail, dashboardId);
    for (const view of views) {
      await deleteView(view.id);
      await clearDefaultIfPointsTo(userEmail, view.id);
    }
    await releaseAssignedView(userEmail, dashboardId);
    await revokeViewer(userEmail, dashboardId);
    return views.length;
  });

const NOT_ASSIGNED_MESSAGE = 'This dashboard is not assigned to the user';

/** Makes the user's view of the dashboard their default (the given view id when it is one of them). */
export const makeDefaultDashboard = async (
  userEmail: string,
  dashboardId: string,
  viewId: string | undefined,
): Promise<string> => {
  const views = await viewsOfUserForDashboard(userEmail, dashboardId);
  const chosen = views.find((view) => view.id === viewId) ?? views[0];
  if (chosen === undefined) throw new NotFoundError(NOT_ASSIGNED_MESSAGE, { userEmail });
  await setDefaultView(userEmail, chosen.id);
  return chosen.id;
};
