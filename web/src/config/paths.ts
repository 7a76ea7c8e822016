/**
 * Every route of the SPA (user-portal and admin-portal specs, section 2), but the admin pages only the admin
 * portal links to (features/admin/admin-paths.ts).
 */
export const paths = {
  root: '/',
  login: '/login',
  signup: '/signup',
  changePassword: '/change-password',
  verifyResetCode: '/verify-reset-code',
  resetPasswordCallback: '/reset-password-callback',
  home: '/home',
  /** One view of the dashboard page: `/dashboards/<id>` (see `viewLinkId`). */
  dashboard: '/dashboards/:viewId',
  support: '/support',
  settings: '/settings',
  mfaSettings: '/mfa-settings',
  admin: {
    root: '/admin',
    login: '/admin/login',
    forgotPassword: '/admin/forgot-password',
    changePassword: '/admin/change-password',
    dashboard: '/admin/dashboard',
    quicksight: '/admin/quicksight',
    users: '/admin/users',
  },
} as const;

/** The address of one view of the dashboard page. */
export const dashboardPath = (linkId: string) => `/dashboards/${encodeURIComponent(linkId)}`;

/** /verify-reset-code carries the address as a URL-encoded query parameter. */
export const verifyResetCodePath = (email: string) => `${paths.verifyResetCode}?email=${encodeURIComponent(email)}`;

/** Where a sign-in returns to: the remembered location when it is a route of this app. */
export function safeReturnPath(from: unknown, fallback: string): string {
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//')) return fallback;
  return from;
}
