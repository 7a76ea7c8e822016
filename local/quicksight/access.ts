import { namespaceArn, userArn, type AccountScope } from './catalog.ts';
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

/** Whether a user may view a dashboard, granted to the user or to the user's namespace. */
export function canViewDashboard(
  state: QuickSightState,
  scope: AccountScope,
  namespace: string,
  userName: string,
  dashboardId: string,
): boolean {
  const principals = new Set([userArn(scope, namespace, userName), namespaceArn(scope, namespace)]);
  const granted = new Set(
    state
      .dashboardPermissions(dashboardId)
      .filter((p) => principals.has(p.Principal))
      .flatMap((p) => p.Actions),
  );
  return VIEW_ACTIONS.every((action) => granted.has(action));
}
