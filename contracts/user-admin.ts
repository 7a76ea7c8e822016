import * as z from 'zod';
import { MESSAGES, adminEmail, strongPassword } from './fields.ts';

const userEmail = z.string({ error: MESSAGES.userEmailRequired }).trim().min(1, MESSAGES.userEmailRequired).pipe(adminEmail);

export const UPDATE_USER_MESSAGES = {
  emailRequired: 'User email is required',
  atLeastOneField: 'At least one field must be updated',
  noValidFields: 'No valid fields to update',
  invalidNewEmail: 'Invalid new email format',
  sameEmail: 'New email must be different from current email',
} as const;

/**
 * Who may not be the target of an action that changes an account: one's own account or
 * another admin's (ARCHITECTURE "Server-side rules"). The function answers 403 with these
 * words and the admin portal shows the same ones on its disabled buttons.
 */
export const PROTECTED_OPERATIONS = {
  update: { self: 'Cannot change the password or email of your own account', admin: 'Cannot update other admin accounts' },
  disable: { self: 'Cannot disable your own account', admin: 'Cannot disable other admin accounts' },
  delete: { self: 'Cannot delete your own account', admin: 'Cannot delete other admin accounts' },
  resetMfa: { self: 'Cannot reset MFA for your own account', admin: 'Cannot reset MFA for other admin accounts' },
} as const;
export type ProtectedOperation = keyof typeof PROTECTED_OPERATIONS;

/** An admin changes their own password through Change Password, which asks for the current one. */
export const OWN_PASSWORD_SUGGESTION = 'Use Change Password to change your own password.';

export const PROMOTE_MESSAGES = {
  promoted: 'User promoted to admin successfully',
  alreadyAdmin: 'User is already an admin',
  disabled: 'Cannot promote a disabled account',
} as const;

export const RESET_MFA_MESSAGE =
  'MFA reset. The user is signed out everywhere and sets up a new authenticator at their next sign-in.';

/** POST bodies of the user management function (Admins only). */
export const userAdminRequestSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('GET_USERS') }),
  z.object({ action: z.literal('CREATE_USER'), userEmail, password: strongPassword }),
  z.object({
    action: z.literal('UPDATE_USER'),
    userEmail: z.string({ error: UPDATE_USER_MESSAGES.emailRequired }).trim().min(1, UPDATE_USER_MESSAGES.emailRequired).pipe(adminEmail),
    newEmail: z.string().trim().optional(),
    newPassword: z.string().optional(),
  }),
  z.object({ action: z.literal('ENABLE_USER'), userEmail }),
  z.object({ action: z.literal('DISABLE_USER'), userEmail }),
  z.object({ action: z.literal('DELETE_USER'), userEmail }),
  /**
   * Beyond the spec: deletes a user's authenticator (AdminDeleteSoftwareToken) and signs them
   * out everywhere; they set up a new one at their next sign-in.
   */
  z.object({ action: z.literal('RESET_USER_MFA'), userEmail }),
  /**
   * Beyond the spec: adds an account to Admins. Removing someone from Admins is done in
   * Cognito, outside the portal; the functions check the group live, so it takes effect at once.
   */
  z.object({ action: z.literal('PROMOTE_TO_ADMIN'), userEmail }),
  /** Beyond the spec: the admin activity trail, newest first. */
  z.object({
    action: z.literal('GET_AUDIT_LOG'),
    limit: z.number().int().min(1).max(100).default(50),
    nextToken: z.string().max(2048).optional(),
  }),
]);
export type UserAdminRequest = z.infer<typeof userAdminRequestSchema>;
export type UserAdminAction = UserAdminRequest['action'];

export const managedUserSchema = z.object({
  username: z.string(),
  email: z.string(),
  enabled: z.boolean(),
  status: z.string(),
  cognitoGroup: z.string().nullable(),
  created: z.string().nullable(),
});
export type ManagedUser = z.infer<typeof managedUserSchema>;
export const getUsersResponseSchema = z.object({ users: z.array(managedUserSchema) });

export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.string(),
  action: z.string(),
  target: z.string().nullable(),
  outcome: z.enum(['success', 'failure']),
  detail: z.string().nullable().optional(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditLogResponseSchema = z.object({ entries: z.array(auditEntrySchema), nextToken: z.string().nullable() });
