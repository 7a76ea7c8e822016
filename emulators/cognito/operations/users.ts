import { randomUUID } from 'node:crypto';
import type { PoolContext } from '../context.ts';
import { ERRORS } from '../errors.ts';
import type { UserRecord, UserStatus } from '../state.ts';
import { spendCode } from './codes.ts';
import { revealMissingUser } from './common.ts';

/** Creating accounts, confirming them and the post-confirmation trigger. */

export function newUser(
  context: PoolContext,
  email: string,
  attributes: Record<string, string>,
  status: UserStatus,
): UserRecord {
  if (context.store.emailTaken(email)) throw ERRORS.usernameExists();
  const username = randomUUID();
  const now = context.now();
  return context.store.insertUser({
    username,
    attributes: { sub: username, email_verified: 'false', ...attributes, email },
    status,
    enabled: true,
    createdAt: now,
    updatedAt: now,
    groups: [],
    softwareToken: { enabled: false, preferred: false },
    signInFailures: { count: 0, lastFailureAt: 0, lockedUntil: 0 },
    codes: {},
    codeDeliveries: [],
  });
}

/**
 * The sign-up code (typed or from the email link): confirms the account and verifies
 * its email. Unknown accounts answer like a wrong code.
 */
export function confirmSignUpCode(context: PoolContext, username: string, code: string): UserRecord {
  const user = context.store.findUser(username);
  revealMissingUser(context, user);
  if (!user) throw ERRORS.verificationCodeMismatch();
  if (user.status !== 'UNCONFIRMED') throw ERRORS.alreadyConfirmed();
  spendCode(context, user, 'signUp', code);
  user.status = 'CONFIRMED';
  user.attributes = { ...user.attributes, email_verified: 'true' };
  user.updatedAt = context.now();
  context.store.saveUser(user);
  return user;
}

/** Runs the post-confirmation trigger; the confirmation stands even when it fails. */
export async function runPostConfirmation(
  context: PoolContext,
  user: UserRecord,
  source: 'PostConfirmation_ConfirmSignUp' | 'PostConfirmation_ConfirmForgotPassword',
): Promise<void> {
  const trigger = context.triggers.postConfirmation;
  if (!trigger) return;
  try {
    await trigger({
      version: '1',
      region: context.region,
      userPoolId: context.userPoolId,
      triggerSource: source,
      userName: user.username,
      callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId: context.clientId },
      request: { userAttributes: { ...user.attributes, 'cognito:user_status': user.status } },
      response: {},
    });
  } catch (error) {
    throw ERRORS.postConfirmationFailed(error instanceof Error ? error.message : String(error));
  }
}
