/** The user pool's groups (precedence 0 and 1). Kept apart from the verifier so importing them needs no configuration. */
export const ADMINS_GROUP = 'Admins';
export const USERS_GROUP = 'Users';
