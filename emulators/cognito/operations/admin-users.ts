import { randomInt } from 'node:crypto';
import { z } from 'zod';
import type { Operation, PoolContext } from '../context.ts';
import { ERRORS } from '../errors.ts';
import { invitationEmail } from '../mail.ts';
import { assertPasswordConforms } from '../password-policy.ts';
import { createVerifier } from '../srp.ts';
import type { UserRecord } from '../state.ts';
import { parseInput, shapes } from '../validation.ts';
import {
  attributeList,
  attributesBesideEmail,
  epochSeconds,
  mergeAttributes,
  mfaSettings,
  requirePool,
  requireUser,
  userType,
} from './common.ts';
import { sendPasswordResetCode, updateAttributes } from './codes.ts';
import { newUser } from './users.ts';

/** Account administration (SigV4-signed calls from the handlers and the seeding). */

const poolAndUser = { UserPoolId: shapes.userPoolId, Username: shapes.username };

/** The pool's generated temporary passwords satisfy its own policy. */
function generateTemporaryPassword(): string {
  const classes = ['abcdefghijkmnopqrstuvwxyz', 'ABCDEFGHJKLMNPQRSTUVWXYZ', '23456789', '^$*.!@#%&'];
  const all = classes.join('');
  const pick = (chars: string) => chars.charAt(randomInt(chars.length));
  const characters = [...classes.map(pick), ...Array.from({ length: 8 }, () => pick(all))];
  for (let index = characters.length - 1; index > 0; index -= 1) {
    const other = randomInt(index + 1);
    [characters[index], characters[other]] = [characters[other]!, characters[index]!];
  }
  return characters.join('');
}

function setTemporaryPassword(context: PoolContext, user: UserRecord, password: string): void {
  user.password = createVerifier(context.poolName, user.username, password);
  user.status = 'FORCE_CHANGE_PASSWORD';
  user.temporaryPasswordExpiresAt = context.now() + context.temporaryPasswordMs;
  user.signInFailures = { count: 0, lastFailureAt: 0, lockedUntil: 0 };
  user.updatedAt = context.now();
  context.store.saveUser(user);
}

async function sendInvitation(context: PoolContext, user: UserRecord, password: string): Promise<void> {
  try {
    // The pool signs in by email: that is the user name the invitation gives.
    const email = user.attributes.email!;
    await context.sendEmail(invitationEmail(context.invitation, email, email, password));
  } catch {
    throw ERRORS.codeDeliveryFailed();
  }
}

const adminCreateUser: Operation = {
  admin: true,
  async run(context, body) {
    const input = parseInput(
      z.object({
        ...poolAndUser,
        UserAttributes: shapes.attributes.optional(),
        TemporaryPassword: shapes.password.optional(),
        MessageAction: z.enum(['RESEND', 'SUPPRESS']).optional(),
        DesiredDeliveryMediums: z.array(z.enum(['SMS', 'EMAIL'])).optional(),
      }),
      body,
    );
    requirePool(context, input.UserPoolId);
    if (input.TemporaryPassword !== undefined) assertPasswordConforms(input.TemporaryPassword);
    const password = input.TemporaryPassword ?? generateTemporaryPassword();
    if (input.MessageAction === 'RESEND') {
      const existing = requireUser(context, input.Username);
      if (existing.status !== 'FORCE_CHANGE_PASSWORD') throw ERRORS.resendNotPossible(existing.username);
      setTemporaryPassword(context, existing, password);
      await sendInvitation(context, existing, password);
      return { User: userType(existing) };
    }
    const extra = mergeAttributes({}, attributesBesideEmail(input.Username, input.UserAttributes ?? []), 'admin');
    const user = newUser(context, input.Username, extra, 'FORCE_CHANGE_PASSWORD');
    setTemporaryPassword(context, user, password);
    if (input.MessageAction !== 'SUPPRESS') await sendInvitation(context, user, password);
    return { User: userType(user) };
  },
};

const adminSetUserPassword: Operation = {
  admin: true,
  run(context, body) {
    const input = parseInput(
      z.object({ ...poolAndUser, Password: shapes.password, Permanent: z.boolean().optional() }),
      body,
    );
    requirePool(context, input.UserPoolId);
    const user = requireUser(context, input.Username);
    assertPasswordConforms(input.Password);
    if (!input.Permanent) {
      setTemporaryPassword(context, user, input.Password);
      return {};
    }
    user.password = createVerifier(context.poolName, user.username, input.Password);
    user.status = 'CONFIRMED';
    delete user.temporaryPasswordExpiresAt;
    user.signInFailures = { count: 0, lastFailureAt: 0, lockedUntil: 0 };
    user.updatedAt = context.now();
    context.store.saveUser(user);
    return {};
  },
};

const adminGetUser: Operation = {
  admin: true,
  run(context, body) {
    const input = parseInput(z.object(poolAndUser), body);
    requirePool(context, input.UserPoolId);
    const user = requireUser(context, input.Username);
    return {
      Username: user.username,
      UserAttributes: attributeList(user),
      UserCreateDate: epochSeconds(user.createdAt),
      UserLastModifiedDate: epochSeconds(user.updatedAt),
      Enabled: user.enabled,
      UserStatus: user.status,
      ...mfaSettings(user),
    };
  },
};

/**
 * Setting `email_verified` to true with a new email applies it at once, even where the pool
 * keeps the original until the new one is verified; otherwise the new address waits for its
 * code as after UpdateUserAttributes (AdminUpdateUserAttributes, UserAttributes).
 */
const adminUpdateUserAttributes: Operation = {
  admin: true,
  async run(context, body) {
    const input = parseInput(z.object({ ...poolAndUser, UserAttributes: shapes.attributes }), body);
    requirePool(context, input.UserPoolId);
    await updateAttributes(context, requireUser(context, input.Username), input.UserAttributes, 'admin');
    return {};
  },
};

/** Admin actions on one user that take only the pool and the username. */
function userAction(action: (context: PoolContext, user: UserRecord) => void): Operation {
  return {
    admin: true,
    run(context, body) {
      const input = parseInput(z.object(poolAndUser), body);
      requirePool(context, input.UserPoolId);
      action(context, requireUser(context, input.Username));
      return {};
    },
  };
}

function setEnabled(context: PoolContext, user: UserRecord, enabled: boolean): void {
  if (!enabled) context.store.revokeAllOrigins(user.username);
  if (user.enabled === enabled) return;
  user.enabled = enabled;
  user.updatedAt = context.now();
  context.store.saveUser(user);
}

/** Forces a password reset: the current password stops working and a code is emailed. */
const adminResetUserPassword: Operation = {
  admin: true,
  async run(context, body) {
    const input = parseInput(z.object(poolAndUser), body);
    requirePool(context, input.UserPoolId);
    const user = requireUser(context, input.Username);
    await sendPasswordResetCode(context, user);
    if (user.status === 'CONFIRMED') {
      user.status = 'RESET_REQUIRED';
      user.updatedAt = context.now();
      context.store.saveUser(user);
    }
    return {};
  },
};

export const adminUserOperations = {
  AdminCreateUser: adminCreateUser,
  AdminSetUserPassword: adminSetUserPassword,
  AdminGetUser: adminGetUser,
  AdminResetUserPassword: adminResetUserPassword,
  AdminUpdateUserAttributes: adminUpdateUserAttributes,
  AdminEnableUser: userAction((context, user) => setEnabled(context, user, true)),
  // Disabling revokes the user's tokens at once, as with token revocation on.
  AdminDisableUser: userAction((context, user) => setEnabled(context, user, false)),
  AdminDeleteUser: userAction((context, user) => {
    context.store.revokeAllOrigins(user.username);
    context.store.deleteUser(user);
  }),
  AdminUserGlobalSignOut: userAction((context, user) => context.store.revokeAllOrigins(user.username)),
};
