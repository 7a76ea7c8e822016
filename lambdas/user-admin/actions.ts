import type { Logger } from '../shared/logger.ts';
import {
  INVITATION_MESSAGES,
  PROMOTE_MESSAGES,
  RESET_MFA_MESSAGE,
  type UserAdminRequest,
} from '#contracts/user-admin.ts';
import { auditorFor, describeUserDeletion } from '../shared/audit.ts';
import type { Caller } from '../shared/auth/caller.ts';
import { readAuditPage } from '../shared/data/audit.ts';
import { resendInvitation } from '../shared/invitation.ts';
import { ConflictError } from '../shared/errors.ts';
import { assertMayManage } from '../shared/protection.ts';
import { exportAuditLog } from './audit-export.ts';
import {
  createInvitedUser,
  createUser,
  deleteUser,
  disableUser,
  enableUser,
  listManagedUsers,
  promoteToAdmin,
  resetUserMfa,
  updateUser,
} from './accounts.ts';
import { userFactors } from './factors.ts';
import { checkUserUpdate } from './update-rules.ts';

/** Runs one validated action of the user management function; mutations are audited. */
export const runUserAdminAction = async (
  request: UserAdminRequest,
  caller: Caller,
  logger: Logger,
): Promise<unknown> => {
  const audit = auditorFor(logger, caller, request.action);

  switch (request.action) {
    case 'GET_USERS':
      return { users: await listManagedUsers(request.fullListing === true) };

    case 'CREATE_USER': {
      const email = request.userEmail.toLowerCase();
      const password = request.password;
      if (password === undefined) {
        return audit(
          email,
          async () => ({ message: INVITATION_MESSAGES.created, user: { email, ...(await createInvitedUser(email)) } }),
          () => 'invitation email sent',
        );
      }
      return audit(email, async () => ({
        message: 'User created successfully',
        user: { email, ...(await createUser(email, password)) },
      }));
    }

    case 'RESEND_INVITATION': {
      const email = request.userEmail.toLowerCase();
      return audit(email, async () => {
        await assertMayManage(caller, email, 'resendInvitation');
        await resendInvitation(email);
        return { message: INVITATION_MESSAGES.resent };
      });
    }

    case 'UPDATE_USER': {
      const email = request.userEmail.toLowerCase();
      const update = checkUserUpdate(email, request);
      return audit(
        email,
        async () => {
          await assertMayManage(caller, email, 'update');
          return { message: 'User updated successfully', updated: await updateUser(email, update) };
        },
        (result) => `changed: ${result.updated.join(', ')}${update.newEmail ? ` (new email ${update.newEmail})` : ''}`,
      );
    }

    case 'ENABLE_USER': {
      const email = request.userEmail.toLowerCase();
      return audit(email, async () => {
        // Disable/Enable is one toggle (admin-portal §4, §6): neither way on oneself or another
        // admin, refused with the toggle's wording as the portal shows it.
        await assertMayManage(caller, email, 'disable');
        await enableUser(email);
        return { message: 'User enabled successfully' };
      });
    }

    case 'DISABLE_USER': {
      const email = request.userEmail.toLowerCase();
      let canceled = 0;
      return audit(
        email,
        async () => {
          await assertMayManage(caller, email, 'disable');
          canceled = (await disableUser(email)).canceledSubscriptions;
          return { message: 'User disabled successfully' };
        },
        () => (canceled > 0 ? `subscriptions canceled: ${canceled}` : null),
      );
    }

    case 'DELETE_USER': {
      const email = request.userEmail.toLowerCase();
      return audit(
        email,
        async () => {
          await assertMayManage(caller, email, 'delete');
          return { message: 'User deleted successfully', ...(await deleteUser(email)) };
        },
        describeUserDeletion,
      );
    }

    case 'RESET_USER_MFA': {
      const email = request.userEmail.toLowerCase();
      return audit(email, async () => {
        await assertMayManage(caller, email, 'resetMfa');
        await resetUserMfa(email);
        return { message: RESET_MFA_MESSAGE };
      });
    }

    case 'GET_USER_FACTORS':
      return userFactors(request.userEmail.toLowerCase());

    case 'PROMOTE_TO_ADMIN': {
      const email = request.userEmail.toLowerCase();
      return audit(email, async () => {
        // The caller is an admin (checked live), so promoting oneself is the same no-op.
        if (email === caller.email) throw new ConflictError(PROMOTE_MESSAGES.alreadyAdmin, { userEmail: email });
        // Checks and adds under a lease: concurrent promotions of one account succeed once.
        await promoteToAdmin(email);
        return { message: PROMOTE_MESSAGES.promoted };
      });
    }

    case 'GET_AUDIT_LOG':
      return readAuditPage(request.limit, request.nextToken, request.filter);

    case 'EXPORT_AUDIT_LOG':
      return exportAuditLog(request.filter, request.format, audit);
  }
};
