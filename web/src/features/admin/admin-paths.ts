/**
 * The addresses of the admin pages that only the admin portal links to: kept with the admin
 * feature rather than in config/paths.ts, whose object every sign-in page loads (the sign-in pages
 * and their redirects need the admin portal's root, login, password and landing pages only).
 */
export const ADMIN_PAGE_PATHS = {
  companies: '/admin/companies',
  activity: '/admin/activity',
  insights: '/admin/insights',
  deliveries: '/admin/deliveries',
} as const;
