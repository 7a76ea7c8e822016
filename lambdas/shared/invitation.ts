import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { ENV } from '#contracts/env.ts';
import { INVITATION_MESSAGES, INVITATION_RESEND_LIMIT } from '#contracts/user-admin.ts';
import { cognito } from './aws/cognito.ts';
import { isAwsError } from './aws/config.ts';
import { type SlidingWindowLimit, takeRateLimitSlot } from './data/rate-limit.ts';
import { noteAccountChanged, noteAccountCreated, noteAccountDeleted, noteGroupJoined } from './directory.ts';
import { requireEnv } from './env.ts';
import { ConflictError, HttpError, NotFoundError, TooManyRequestsError, UpstreamError } from './errors.ts';

/**
 * Accounts created with the pool's invitation: Cognito generates a temporary password that
 * satisfies the pool's policy and emails it with the pool's invitation template; the user
 * chooses a password at the first sign-in (NEW_PASSWORD_REQUIRED), then sets up MFA. The
 * temporary password expires after the pool's TemporaryPasswordValidityDays; an
 * administrator then resends the invitation (MessageAction RESEND).
 */

const poolId = () => requireEnv(ENV.userPoolId);

const failure = (step: string, error: unknown, userEmail: string): HttpError => {
  if (error instanceof HttpError) return error;
  if (isAwsError(error, 'UserNotFoundException')) return new NotFoundError('User not found', { userEmail });
  if (isAwsError(error, 'UsernameExistsException', 'AliasExistsException'))
    return new ConflictError('User already exists', { userEmail });
  if (isAwsError(error, 'UnsupportedUserStateException')) {
    return new ConflictError(INVITATION_MESSAGES.notPending, {
      userEmail,
      suggestion: INVITATION_MESSAGES.notPendingSuggestion,
    });
  }
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : undefined;
  return new UpstreamError(step, { userEmail, ...(reason ? { reason } : {}) });
};

const step = async <T>(name: string, userEmail: string, call: () => Promise<T>): Promise<T> => {
  try {
    return await call();
  } catch (error) {
    throw failure(name, error, userEmail);
  }
};

export type InvitationDelivery = 'SEND' | 'SUPPRESS';

/**
 * Creates the account in FORCE_CHANGE_PASSWORD with a generated temporary password, its email
 * verified (the invitation reaches it), without group. `SUPPRESS` sends no email yet: the
 * bulk import sends the invitation once every other step of the row has worked. An existing
 * account is a 409 'User already exists' and is left as it is.
 */
export const createInvitedAccount = async (
  email: string,
  delivery: InvitationDelivery,
): Promise<{ username: string }> => {
  const created = await step('Failed to create user', email, () =>
    cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: poolId(),
        Username: email,
        DesiredDeliveryMediums: ['EMAIL'],
        ...(delivery === 'SUPPRESS' ? { MessageAction: 'SUPPRESS' as const } : {}),
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: 'email_verified', Value: 'true' },
        ],
      }),
    ),
  );
  await noteAccountCreated(created.User, null);
  return { username: created.User?.Username ?? email };
};

export const addToGroup = async (email: string, group: string): Promise<void> => {
  await step(`Failed to add the user to the ${group} group`, email, () =>
    cognito.send(new AdminAddUserToGroupCommand({ UserPoolId: poolId(), Username: email, GroupName: group })),
  );
  await noteGroupJoined(email, group);
};

/** Removes an account this request created (compensation); a missing account counts as removed. */
export const deleteAccount = async (email: string): Promise<void> => {
  try {
    await cognito.send(new AdminDeleteUserCommand({ UserPoolId: poolId(), Username: email }));
  } catch (error) {
    if (!isAwsError(error, 'UserNotFoundException')) throw failure('Failed to remove the account again', error, email);
  }
  await noteAccountDeleted(email);
};

/** Whether an account with this email exists (AdminGetUser finds it by its email alias). */
export const accountExists = async (email: string): Promise<boolean> => {
  try {
    await cognito.send(new AdminGetUserCommand({ UserPoolId: poolId(), Username: email }));
    return true;
  } catch (error) {
    if (isAwsError(error, 'UserNotFoundException')) return false;
    throw failure('Failed to look up the user', error, email);
  }
};

/** Cognito's AdminCreateUser RESEND has no cap of its own beyond the pool's email quota. */
const RESEND_WINDOW_MS = 60 * 60 * 1000;

/**
 * Resends to one account, counted per account (pk USER#<email>, sk INVITATION-SLOT#<n> in the
 * State table) whichever admin resends: at most INVITATION_RESEND_LIMIT.perAccountPerHour in
 * any hour, so the portal cannot be used to flood one mailbox or keep replacing a password.
 */
const resendLimit = (email: string): SlidingWindowLimit => ({
  slotPrefix: 'INVITATION-SLOT#',
  perWindow: INVITATION_RESEND_LIMIT.perAccountPerHour,
  windowMs: RESEND_WINDOW_MS,
  refusal: (minutes) => new TooManyRequestsError(INVITATION_MESSAGES.tooManyResends(minutes), { userEmail: email }),
});

/**
 * A new temporary password and invitation email for an enabled account that has not signed
 * in yet, at most INVITATION_RESEND_LIMIT.perAccountPerHour times an hour (429 beyond, saying
 * when the next one is possible). Any other state is a 409 before Cognito is asked to change
 * anything, and uses none of the allowance; Cognito's own UnsupportedUserStateException (a
 * sign-in in between) is the same 409. A resend that fails gives its place back.
 */
export const resendInvitation = async (email: string): Promise<void> => {
  const user = await step('Failed to look up the user', email, () =>
    cognito.send(new AdminGetUserCommand({ UserPoolId: poolId(), Username: email })),
  );
  if (user.UserStatus !== 'FORCE_CHANGE_PASSWORD') {
    throw new ConflictError(INVITATION_MESSAGES.notPending, {
      userEmail: email,
      suggestion: INVITATION_MESSAGES.notPendingSuggestion,
    });
  }
  // AdminCreateUser RESEND would mail a disabled account a password it cannot use yet.
  if (user.Enabled === false) {
    throw new ConflictError(INVITATION_MESSAGES.disabled, {
      userEmail: email,
      suggestion: INVITATION_MESSAGES.disabledSuggestion,
    });
  }
  const giveBack = await takeRateLimitSlot(resendLimit(email), `USER#${email}`);
  try {
    await sendInvitation(email);
  } catch (error) {
    await giveBack();
    throw error;
  }
};

/** MessageAction RESEND: a new temporary password, emailed with the pool's template. */
export const sendInvitation = async (email: string): Promise<void> => {
  await step('Failed to send the invitation', email, () =>
    cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: poolId(),
        Username: email,
        MessageAction: 'RESEND',
        DesiredDeliveryMediums: ['EMAIL'],
      }),
    ),
  );
  // A new temporary password: the invitation's validity starts again (Cognito's last-modified date).
  await noteAccountChanged(email, {});
};
