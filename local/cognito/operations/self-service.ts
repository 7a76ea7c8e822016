import { z } from 'zod';
import { POOL } from '../config.ts';
import type { Operation, PoolContext } from '../context.ts';
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
import { assertPasswordConforms } from '../password-policy.ts';
import { createVerifier } from '../srp.ts';
import type { UserRecord } from '../state.ts';
import { parseInput, shapes } from '../validation.ts';
import { attributesBesideEmail, isEmail, mergeAttributes, requireClient } from './common.ts';
import { confirmSignUpCode, newUser, runPostConfirmation } from './users.ts';

/** Sign-up with email-link confirmation, and password reset by emailed code. */

const clientAndUser = { ClientId: shapes.clientId, Username: shapes.username };

async function deliver(context: PoolContext, message: OutgoingEmail): Promise<void> {
  try {
    await context.sendEmail(message);
  } catch {
    throw ERRORS.codeDeliveryFailed();
  }
}

/** A new sign-up code (24 hours) and the email with its link. */
async function sendSignUpLink(context: PoolContext, user: UserRecord): Promise<void> {
  const now = context.now();
  recordCodeDelivery(user, now);
  const code = newCode();
  user.codes = { ...user.codes, signUp: storeCode(user.username, code, now + POOL.signUpCodeMs) };
  context.store.saveUser(user);
  const link = new URL('/confirmUser', context.url);
  link.search = new URLSearchParams({ client_id: context.clientId, user_name: user.username, confirmation_code: code }).toString();
  await deliver(context, verificationLinkEmail(user.attributes.email!, link.toString()));
}

/** What a client is told for an account that does not exist (user existence is not revealed). */
const decoyDelivery = (username: string) => ({ CodeDeliveryDetails: codeDeliveryDetails(isEmail(username) ? username : `${username}@`) });

const signUp: Operation = {
  async run(context, body) {
    const input = parseInput(
      z.object({ ...clientAndUser, Password: shapes.password, UserAttributes: shapes.attributes.optional() }),
      body,
    );
    requireClient(context, input.ClientId);
    const others = attributesBesideEmail(input.Username, input.UserAttributes ?? []);
    assertPasswordConforms(input.Password);
    const user = newUser(context, input.Username, mergeAttributes({}, others, 'user'), 'UNCONFIRMED');
    user.password = createVerifier(context.poolName, user.username, input.Password);
    context.store.saveUser(user);
    await sendSignUpLink(context, user);
    return { UserConfirmed: false, UserSub: user.username, CodeDeliveryDetails: codeDeliveryDetails(user.attributes.email!) };
  },
};

const confirmSignUp: Operation = {
  async run(context, body) {
    const input = parseInput(z.object({ ...clientAndUser, ConfirmationCode: shapes.confirmationCode }), body);
    requireClient(context, input.ClientId);
    const user = confirmSignUpCode(context, input.Username, input.ConfirmationCode);
    await runPostConfirmation(context, user, 'PostConfirmation_ConfirmSignUp');
    return {};
  },
};

const resendConfirmationCode: Operation = {
  async run(context, body) {
    const input = parseInput(z.object(clientAndUser), body);
    requireClient(context, input.ClientId);
    const user = context.store.findUser(input.Username);
    if (!user) return decoyDelivery(input.Username);
    if (user.status !== 'UNCONFIRMED') throw ERRORS.resendAlreadyConfirmed();
    await sendSignUpLink(context, user);
    return { CodeDeliveryDetails: codeDeliveryDetails(user.attributes.email!) };
  },
};

const forgotPassword: Operation = {
  async run(context, body) {
    const input = parseInput(z.object(clientAndUser), body);
    requireClient(context, input.ClientId);
    const user = context.store.findUser(input.Username);
    if (!user) return decoyDelivery(input.Username);
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
    return { CodeDeliveryDetails: codeDeliveryDetails(email) };
  },
};

const confirmForgotPassword: Operation = {
  async run(context, body) {
    const input = parseInput(
      z.object({ ...clientAndUser, ConfirmationCode: shapes.confirmationCode, Password: shapes.password }),
      body,
    );
    requireClient(context, input.ClientId);
    assertPasswordConforms(input.Password);
    const user = context.store.findUser(input.Username);
    if (!user) throw ERRORS.verificationCodeMismatch();
    const result = checkCode(user.username, user.codes.passwordReset, input.ConfirmationCode, context.now());
    context.store.saveUser(user);
    if (result === 'mismatch') throw ERRORS.verificationCodeMismatch();
    if (result === 'expired') throw ERRORS.verificationCodeExpired();
    if (result === 'locked') throw ERRORS.attemptLimitExceeded();
    const { passwordReset: _used, ...otherCodes } = user.codes;
    user.codes = otherCodes;
    user.password = createVerifier(context.poolName, user.username, input.Password);
    if (user.status === 'RESET_REQUIRED') user.status = 'CONFIRMED';
    user.signInFailures = { count: 0, lastFailureAt: 0, lockedUntil: 0 };
    user.updatedAt = context.now();
    context.store.saveUser(user);
    await runPostConfirmation(context, user, 'PostConfirmation_ConfirmForgotPassword');
    return {};
  },
};

export const selfServiceOperations = {
  SignUp: signUp,
  ConfirmSignUp: confirmSignUp,
  ResendConfirmationCode: resendConfirmationCode,
  ForgotPassword: forgotPassword,
  ConfirmForgotPassword: confirmForgotPassword,
};
