import { adminEmail, strongPassword } from '#contracts/fields.ts';
import { UPDATE_USER_MESSAGES } from '#contracts/user-admin.ts';
import { BadRequestError } from '../shared/errors.ts';

export interface UserUpdate {
  newEmail?: string;
  newPassword?: string;
}

/**
 * The update routine's rules (admin-portal §5): at least one field, a valid new email that
 * differs from the current one, and a new password meeting every requirement.
 */
export const checkUserUpdate = (
  currentEmail: string,
  request: { newEmail?: string; newPassword?: string },
): UserUpdate => {
  if (request.newEmail === undefined && request.newPassword === undefined) {
    throw new BadRequestError(UPDATE_USER_MESSAGES.atLeastOneField, { fields: ['newEmail', 'newPassword'] });
  }
  const newEmail = request.newEmail ? request.newEmail.toLowerCase() : undefined;
  const newPassword = request.newPassword ? request.newPassword : undefined;
  if (newEmail === undefined && newPassword === undefined) {
    throw new BadRequestError(UPDATE_USER_MESSAGES.noValidFields, { fields: ['newEmail', 'newPassword'] });
  }
  if (newEmail !== undefined) {
    if (!adminEmail.safeParse(newEmail).success)
      throw new BadRequestError(UPDATE_USER_MESSAGES.invalidNewEmail, { fields: ['newEmail'] });
    if (newEmail === currentEmail) throw new BadRequestError(UPDATE_USER_MESSAGES.sameEmail, { fields: ['newEmail'] });
  }
  if (newPassword !== undefined) {
    const password = strongPassword.safeParse(newPassword);
    if (!password.success) {
      throw new BadRequestError('Invalid password', {
        fields: ['newPassword'],
        reason: password.error.issues[0]?.message,
      });
    }
  }
  return { newEmail, newPassword };
};
