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
  verificationCodeEmail,
  verificationLinkEmail,
  type OutgoingEmail,
} from '../mail.ts';
import type { UserRecord } from '../state.ts';
import { mergeAttributes, type AttributeUpdate } from './common.ts';

/** One-time codes: sending them by email and spending them, and the email changes they verify. */

async function deliver(context: PoolContext, message: OutgoingEmail): Promise<void> {
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
  link.search = new URLSearchParams({
    client_id: context.clientId,
    user_name: user.username,
    confirmation_code: code,
  }).toString();
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
export function spendCode(context: PoolContext, user: UserRecord, kind: keyof UserRecord['codes'], code: string): void {
  const result = checkCode(user.username, user.codes[kind], code, context.now());
  // A wrong guess counts even though the call fails.
  context.store.saveUser(user);
  if (result === 'mismatch') throw ERRORS.verificationCodeMismatch();
  if (result === 'expired') throw ERRORS.verificationCodeExpired();
  if (result === 'locked') throw ERRORS.attemptLimitExceeded();
  const { [kind]: _spent, ...otherCodes } = user.codes;
  user.codes = otherCodes;
}

/**
 * UpdateUserAttributes and AdminUpdateUserAttributes; returns where a verification code went.
 * Every attribute is checked before any applies, and a new email must not belong to another
 * account. What happens to a new email follows "Verifying updates to email addresses and phone
 * numbers" (Cognito developer guide) and UserAttributeUpdateSettingsType:
 * - where the pool keeps the original until the new address is verified
 *   (AttributesRequireVerificationBeforeUpdate holds `email`), `email` and `email_verified`
 *   stay as they are, the new address is held as pending and sent a code, and VerifyUserAttribute
 *   applies it. An administrator who sets `email_verified` to true in the same request applies
 *   it at once and no message is sent.
 * - otherwise it applies at once, unverified unless an administrator says otherwise, and an
 *   unverified address is sent a code (the pool verifies email automatically).
 * Other attributes apply at once either way.
 */
export async function updateAttributes(
  context: PoolContext,
  user: UserRecord,
  updates: readonly AttributeUpdate[],
  by: 'admin' | 'user',
): Promise<ReturnType<typeof codeDeliveryDetails>[]> {
  const next = mergeAttributes(user.attributes, updates, by);
  const current = user.attributes;
  const emailChanged = next.email?.toLowerCase() !== current.email?.toLowerCase();
  if (emailChanged && next.email !== undefined && context.store.emailTaken(next.email, user.username)) {
    throw ERRORS.aliasExists();
  }
  // Only administrators get this far with email_verified (mergeAttributes refuses it to users).
  const verifiedGiven = updates.find((update) => update.Name === 'email_verified')?.Value;
  const held =
    emailChanged &&
    next.email !== undefined &&
    current.email !== undefined &&
    verifiedGiven !== 'true' &&
    context.attributesRequireVerificationBeforeUpdate.includes('email');
  let codeTo: string | undefined;
  if (held) {
    codeTo = next.email;
    next.email = current.email!;
    if (current.email_verified === undefined) delete next.email_verified;
    else next.email_verified = current.email_verified;
  } else if (emailChanged) {
    if (verifiedGiven === undefined) next.email_verified = 'false';
    if (next.email !== undefined && next.email_verified !== 'true') codeTo = next.email;
  }
  const now = context.now();
  // A code email over the hourly cap refuses the whole update before anything changes.
  if (codeTo !== undefined) recordCodeDelivery(user, now);
  user.attributes = next;
  // A new address replaces any address still waiting, and the code sent to that one.
  if (emailChanged) dropPendingEmail(user);
  if (held) user.pendingAttributes = { email: codeTo! };
  user.updatedAt = now;
  if (codeTo === undefined) {
    context.store.saveUser(user);
    return [];
  }
  const code = newCode();
  user.codes = { ...user.codes, emailVerification: storeCode(user.username, code, now + POOL.attributeCodeMs) };
  context.store.saveUser(user);
  await deliver(context, verificationCodeEmail(codeTo, code));
  return [codeDeliveryDetails(codeTo)];
}

function dropPendingEmail(user: UserRecord): void {
  const { emailVerification: _code, ...otherCodes } = user.codes;
  user.codes = otherCodes;
  delete user.pendingAttributes;
}

/**
 * VerifyUserAttribute of `email`: the code sent to the address verifies it and, where the pool
 * held a new address back, makes it the account's email (VerifyUserAttribute "updates the
 * affected attribute to its pending value"). The address must still be free.
 */
export function verifyEmail(context: PoolContext, user: UserRecord, code: string): void {
  spendCode(context, user, 'emailVerification', code);
  const pending = user.pendingAttributes?.email;
  if (pending !== undefined && context.store.emailTaken(pending, user.username)) throw ERRORS.aliasExists();
  user.attributes = {
    ...user.attributes,
    ...(pending !== undefined ? { email: pending } : {}),
    email_verified: 'true',
  };
  dropPendingEmail(user);
  user.updatedAt = context.now();
  context.store.saveUser(user);
}
