import type { Caller } from './auth/caller.ts';
import { isAdminEmail } from './directory.ts';
import { ForbiddenError } from './errors.ts';

/**
 * Nobody may disable, delete or reset the authenticator of their own account or of another
 * admin. The wording is the admin portal's tooltip text for the same rule.
 */
export const PROTECTED_OPERATIONS = {
  disable: { self: 'Cannot disable your own account', admin: 'Cannot disable other admin accounts' },
  delete: { self: 'Cannot delete your own account', admin: 'Cannot delete other admin accounts' },
  resetMfa: { self: 'Cannot reset MFA for your own account', admin: 'Cannot reset MFA for other admin accounts' },
} as const;

export type ProtectedOperation = keyof typeof PROTECTED_OPERATIONS;

export const assertMayManage = async (caller: Caller, targetEmail: string, operation: ProtectedOperation): Promise<void> => {
  const messages = PROTECTED_OPERATIONS[operation];
  if (targetEmail.toLowerCase() === caller.email) throw new ForbiddenError(messages.self, { userEmail: targetEmail });
  if (await isAdminEmail(targetEmail)) throw new ForbiddenError(messages.admin, { userEmail: targetEmail });
};
