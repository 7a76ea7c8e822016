/**
 * The user pool's groups: Admins (precedence 0) manage the portal, Users (precedence 1) see
 * the dashboards assigned to them. The stack creates them; the functions, the admin pages,
 * local mode's seed and the tools name them from here.
 */
export const ADMINS_GROUP = 'Admins';
export const USERS_GROUP = 'Users';
/** Either group may use the user portal (spec section 6). */
export const USER_PORTAL_GROUPS = [USERS_GROUP, ADMINS_GROUP] as const;
/** Only administrators may use the admin portal. */
export const ADMIN_PORTAL_GROUPS = [ADMINS_GROUP] as const;
/** The group an account is in, as the admin pages show and set it. */
export type PortalGroup = typeof USERS_GROUP | typeof ADMINS_GROUP;
