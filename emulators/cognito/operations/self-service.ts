import { z } from 'zod';
import type { Operation, PoolContext } from '../context.ts';
import { ERRORS } from '../errors.ts';
import { codeDeliveryDetails } from '../mail.ts';
import { assertPasswordConforms } from '../password-policy.ts';
import { createVerifier } from '../srp.ts';
import { parseInput, shapes } from '../validation.ts';
import { attributesBesideEmail, isEmail, mergeAttributes, requireClient, revealMissingUser } from './common.ts';
import { sendPasswordResetCode, sendSignUpLink, spendCode } from './codes.ts';
import { confirmSignUpCode, newUser, runPostConfirmation } from './users.ts';

/** Sign-up with email-link confirmation, and password reset by emailed code. */

const clientAndUser = { ClientId: shapes.clientId, Username: shapes.username };

/** What a client is told for an account that does not exist (user existence is not revealed). */
const decoyDelivery = (username: string) => ({
  CodeDeliveryDetails: codeDeliveryDetails(isEmail(username) ? username : `${username}@`),
});

/**
 * The account a request of the client names by ClientId and Username alone: undefined when
 * there is none and the client hides that (otherwise UserNotFoundException).
 */
function namedAccount(context: PoolContext, body: unknown) {
  const input = parseInput(z.object(clientAndUser), body);
  requireClient(context, input.ClientId);
  const user = context.store.findUser(input.Username);
  revealMissingUser(context, user);
  return { username: input.Username, user };
}

const signUp: Operation = {
  async run(context, body) {
    const input = parseInput(
      z.object({ ...clientAndUser, Password: shapes.password, UserAttributes: shapes.attributes.optional() }),
      body,
    );
    requireClient(context, input.ClientId);
    // The pool's AllowAdminCreateUserOnly (CDK selfSignUpEnabled: false).
    if (!context.allowSelfSignUp) throw ERRORS.signUpNotPermitted();
    const others = attributesBesideEmail(input.Username, input.UserAttributes ?? []);
    assertPasswordConforms(input.Password);
    const user = newUser(context, input.Username, mergeAttributes({}, others, 'user'), 'UNCONFIRMED');
    user.password = createVerifier(context.poolName, user.username, input.Password);
    context.store.saveUser(user);
    await sendSignUpLink(context, user);
    return {
      UserConfirmed: false,
      UserSub: user.username,
      CodeDeliveryDetails: codeDeliveryDetails(user.attributes.email!),
    };
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
    const { username, user } = namedAccount(context, body);
    if (!user) return decoyDelivery(username);
    if (user.status !== 'UNCONFIRMED') throw ERRORS.resendAlreadyConfirmed();
    await sendSignUpLink(context, user);
    return { CodeDeliveryDetails: codeDeliveryDetails(user.attributes.email!) };
  },
};

const forgotPassword: Operation = {
  async run(context, body) {
    const { username, user } = namedAccount(context, body);
    if (!user) return decoyDelivery(username);
    return { CodeDeliveryDetails: await sendPasswordResetCode(context, user) };
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
    revealMissingUser(context, user);
    if (!user) throw ERRORS.verificationCodeMismatch();
    spendCode(context, user, 'passwordReset', input.ConfirmationCode);
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
