import { OWN_PASSWORD_SUGGESTION, PROTECTED_OPERATIONS, type ProtectedOperation } from '#contracts/user-admin.ts';
import type { Caller } from './auth/caller.ts';
import { isAdminEmail } from './directory.ts';
import { ForbiddenError } from './errors.ts';

/**
 * Nobody may update, disable, delete or reset the authenticator of their own account or of
 * another admin (403, in the admin portal's tooltip words). Admin membership is read live.
 */
export const assertMayManage = async (
  caller: Caller,
  targetEmail: string,
  operation: ProtectedOperation,
): Promise<void> => {
  const messages = PROTECTED_OPERATIONS[operation];
  if (targetEmail.toLowerCase() === caller.email) {
    throw new ForbiddenError(messages.self, {
      userEmail: targetEmail,
      ...(operation === 'update' ? { suggestion: OWN_PASSWORD_SUGGESTION } : {}),
    });
  }
  if (await isAdminEmail(targetEmail)) throw new ForbiddenError(messages.admin, { userEmail: targetEmail });
};
