import { z } from 'zod';
import type { Operation } from '../context.ts';
import { invalidParameter } from '../errors.ts';
import { assertPasswordConforms } from '../password-policy.ts';
import { createVerifier, passwordMatches } from '../srp.ts';
import { authenticate, revokeRefreshToken } from '../tokens.ts';
import { parseInput, shapes } from '../validation.ts';
import { updateAttributes, verifyEmail } from './codes.ts';
import { attributeList, mfaSettings, requireClient } from './common.ts';
import { assertNotLockedOut, recordWrongPassword } from './sign-in-steps.ts';

/** Operations a signed-in user calls with their own access token, and RevokeToken. */

const withToken = { AccessToken: shapes.accessToken };

/** The attributes as they are, never a change the pool holds until it is verified (GetUser has no member for those). */
const getUser: Operation = {
  run(context, body) {
    const { user } = authenticate(context, parseInput(z.object(withToken), body).AccessToken);
    return { Username: user.username, UserAttributes: attributeList(user), ...mfaSettings(user) };
  },
};

const updateUserAttributes: Operation = {
  async run(context, body) {
    const input = parseInput(z.object({ ...withToken, UserAttributes: shapes.attributes }), body);
    const { user } = authenticate(context, input.AccessToken);
    const sent = await updateAttributes(context, user, input.UserAttributes, 'user');
    return sent.length > 0 ? { CodeDeliveryDetailsList: sent } : {};
  },
};

/** The code emailed by an attribute update; the pool verifies `email` only (it sends no SMS). */
const verifyUserAttribute: Operation = {
  run(context, body) {
    const input = parseInput(
      z.object({ ...withToken, AttributeName: shapes.attributeName, Code: shapes.confirmationCode }),
      body,
    );
    const { user } = authenticate(context, input.AccessToken);
    if (input.AttributeName !== 'email') throw invalidParameter(`Attribute ${input.AttributeName} cannot be verified.`);
    verifyEmail(context, user, input.Code);
    return {};
  },
};

const changePassword: Operation = {
  run(context, body) {
    const input = parseInput(
      z.object({ ...withToken, PreviousPassword: shapes.password, ProposedPassword: shapes.password }),
      body,
    );
    const { user } = authenticate(context, input.AccessToken);
    assertNotLockedOut(context, user);
    if (!user.password || !passwordMatches(user.password, context.poolName, user.username, input.PreviousPassword)) {
      recordWrongPassword(context, user);
    }
    assertPasswordConforms(input.ProposedPassword);
    user.password = createVerifier(context.poolName, user.username, input.ProposedPassword);
    user.updatedAt = context.now();
    context.store.saveUser(user);
    return {};
  },
};

const globalSignOut: Operation = {
  run(context, body) {
    const { user } = authenticate(context, parseInput(z.object(withToken), body).AccessToken);
    context.store.revokeAllOrigins(user.username);
    return {};
  },
};

const revokeToken: Operation = {
  run(context, body) {
    const input = parseInput(
      z.object({ Token: shapes.accessToken, ClientId: shapes.clientId, ClientSecret: z.string().optional() }),
      body,
    );
    requireClient(context, input.ClientId);
    revokeRefreshToken(context, input.Token);
    return {};
  },
};

export const accountOperations = {
  GetUser: getUser,
  UpdateUserAttributes: updateUserAttributes,
  VerifyUserAttribute: verifyUserAttribute,
  ChangePassword: changePassword,
  GlobalSignOut: globalSignOut,
  RevokeToken: revokeToken,
};
