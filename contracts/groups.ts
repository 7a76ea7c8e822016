/**
 * The user pool's groups: Admins (precedence 0) manage the portal, Users (precedence 1) see
 * the dashboards assigned to them. The stack creates them; the functions, the admin pages,
 * local mode's seed and the tools name them from here.
 */
export const ADMINS_GROUP = 'Admins';
export const USERS_GROUP = 'Users';
