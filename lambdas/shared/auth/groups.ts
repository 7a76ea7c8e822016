/**
 * The user pool's groups (precedence 0 and 1). Kept apart from the verifier so importing them needs no configuration.
 */
export { ADMINS_GROUP, USERS_GROUP } from '#contracts/groups.ts';
