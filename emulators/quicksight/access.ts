import { groupArn, namespaceArn, userArn, type AccountScope } from './arns.ts';
import type { QuickSightState } from './state.ts';

/** Dashboard permission actions QuickSight accepts in grants and revocations. */
export const DASHBOARD_ACTIONS = [
  'quicksight:DescribeDashboard',
  'quicksight:ListDashboardVersions',
  'quicksight:QueryDashboard',
  'quicksight:UpdateDashboard',
  'quicksight:DeleteDashboard',
  'quicksight:DescribeDashboardPermissions',
  'quicksight:UpdateDashboardPermissions',
  'quicksight:UpdateDashboardPublishedVersion',
] as const;

/** Opening a dashboard needs these, as the viewer set QuickSight grants contains them. */
const VIEW_ACTIONS = ['quicksight:DescribeDashboard', 'quicksight:QueryDashboard'];

/** Whether a user may view a dashboard, granted to the user, one of the user's groups or the user's namespace. */
export function canViewDashboard(
  state: QuickSightState,
  scope: AccountScope,
  namespace: string,
  userName: string,
  dashboardId: string,
): boolean {
  const principals = new Set([
    userArn(scope, namespace, userName),
    namespaceArn(scope, namespace),
    ...state.groups.groupsOfUser(namespace, userName).map((group) => groupArn(scope, namespace, group.groupName)),
  ]);
  const granted = new Set(
    state
      .dashboardPermissions(dashboardId)
      .filter((p) => principals.has(p.Principal))
      .flatMap((p) => p.Actions),
  );
  return VIEW_ACTIONS.every((action) => granted.has(action));
}
