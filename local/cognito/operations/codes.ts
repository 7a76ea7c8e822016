import { POOL } from '../config.ts';
import type { PoolContext } from '../context.ts';
import { ERRORS } from '../errors.ts';
import {
  checkCode,
  codeDeliveryDetails,
  newCode,
  passwordResetEmail,
  recordCodeDelivery,
  storeCode,
  verificationLinkEmail,
  type OutgoingEmail,
} from '../mail.ts';
import type { UserRecord } from '../state.ts';

/** One-time codes: sending them by email and spending them. */

export async function deliver(context: PoolContext, message: OutgoingEmail): Promise<void> {
  try {
    await context.sendEmail(message);
  } catch {
    throw ERRORS.codeDeliveryFailed();
  }
}

/** A new sign-up code (24 hours) and the email with its confirmation link. */
export async function sendSignUpLink(context: PoolContext, user: UserRecord): Promise<void> {
  const now = context.now();
  recordCodeDelivery(user, now);
  const code = newCode();
  user.codes = { ...user.codes, signUp: storeCode(user.username, code, now + POOL.signUpCodeMs) };
  context.store.saveUser(user);
  const link = new URL('/confirmUser', context.url);
  link.search = new URLSearchParams({ client_id: context.clientId, user_name: user.username, confirmation_code: code }).toString();
  await deliver(context, verificationLinkEmail(user.attributes.email!, link.toString()));
}

/** A password reset code (1 hour) to the account's verified email, if it may reset at all. */
export async function sendPasswordResetCode(context: PoolContext, user: UserRecord) {
  if (!user.enabled) throw ERRORS.userDisabled();
  if (user.status === 'FORCE_CHANGE_PASSWORD') throw ERRORS.resetNotAllowedInState();
  const email = user.attributes.email;
  if (email === undefined || user.attributes.email_verified !== 'true') throw ERRORS.noVerifiedEmail();
  const now = context.now();
  recordCodeDelivery(user, now);
  const code = newCode();
  user.codes = { ...user.codes, passwordReset: storeCode(user.username, code, now + POOL.passwordResetCodeMs) };
  context.store.saveUser(user);
  await deliver(context, passwordResetEmail(email, code));
  return codeDeliveryDetails(email);
}

/** Uses up a code, or throws Cognito's error for a wrong, expired or exhausted one. */
export function spendCode(context: PoolContext, user: UserRecord, kind: 'signUp' | 'passwordReset', code: string): void {
  const result = checkCode(user.username, user.codes[kind], code, context.now());
  // A wrong guess counts even though the call fails.
  context.store.saveUser(user);
  if (result === 'mismatch') throw ERRORS.verificationCodeMismatch();
  if (result === 'expired') throw ERRORS.verificationCodeExpired();
  if (result === 'locked') throw ERRORS.attemptLimitExceeded();
  const { [kind]: _spent, ...otherCodes } = user.codes;
  user.codes = otherCodes;
}
