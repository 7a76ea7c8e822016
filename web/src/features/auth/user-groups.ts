/** Either group may use the user portal (spec section 6). */
export const USER_PORTAL_GROUPS = ['Users', 'Admins'] as const;
/** Only administrators may use the admin portal. */
export const ADMIN_PORTAL_GROUPS = ['Admins'] as const;
