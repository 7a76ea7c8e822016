import { z } from 'zod';
import { POOL } from '../config.ts';
import type { Operation, PoolContext } from '../context.ts';
import { ERRORS } from '../errors.ts';
import { verifyRegistration } from '../passkey-verification.ts';
import {
  creationOptions,
  newWebAuthnChallenge,
  passkeyDescription,
  passkeysOf,
  requirePasskeyPool,
  signInPasskeys,
} from '../passkeys.ts';
import type { UserRecord } from '../state.ts';
import { authenticate } from '../tokens.ts';
import { parseInput, shapes } from '../validation.ts';
import { mfaSettings, pageToken, readPageToken } from './common.ts';

/**
 * A signed-in user's passkeys, each operation authorized by the user's access token with the
 * aws.cognito.signin.user.admin scope: registration in two steps (StartWebAuthnRegistration's
 * creation options, then CompleteWebAuthnRegistration with the authenticator's response), listing,
 * deletion, and the user's authentication factors (GetUserAuthFactors).
 * https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_StartWebAuthnRegistration.html
 * https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_CompleteWebAuthnRegistration.html
 * https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_ListWebAuthnCredentials.html
 * https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_DeleteWebAuthnCredential.html
 * https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_GetUserAuthFactors.html
 */

const withToken = { AccessToken: shapes.accessToken };

/** LimitExceededException once the user has Cognito's quota of passkeys. */
function assertRoomForPasskey(user: UserRecord): void {
  if (passkeysOf(user).length >= POOL.passkeysPerUser) throw ERRORS.passkeyLimitExceeded();
}

/**
 * Creation options with a new challenge, the user's only pending registration: a later start
 * replaces it, and it lasts for the options' timeout.
 */
const startWebAuthnRegistration: Operation = {
  run(context, body) {
    const { user } = authenticate(context, parseInput(z.object(withToken), body).AccessToken);
    const pool = requirePasskeyPool(context);
    assertRoomForPasskey(user);
    const challenge = newWebAuthnChallenge();
    context.sessions.registrations.put(user.username, { challenge });
    return { CredentialCreationOptions: creationOptions(pool, user, challenge) };
  },
};

/**
 * The authenticator's RegistrationResponseJSON for the pending challenge, which it spends whether
 * it verifies or not. A credential ID registered already, to this user or another, is refused.
 * WebAuthnClientMismatchException (an access token of another app client than the start's) cannot
 * arise: the pool has one app client.
 */
const completeWebAuthnRegistration: Operation = {
  async run(context, body) {
    const input = parseInput(z.object({ ...withToken, Credential: z.looseObject({}) }), body);
    const { user } = authenticate(context, input.AccessToken);
    const pool = requirePasskeyPool(context);
    const pending = context.sessions.registrations.take(user.username);
    if (!pending) throw ERRORS.webAuthnChallengeNotFound();
    assertRoomForPasskey(user);
    const passkey = await verifyRegistration(pool, pending.challenge, input.Credential, context.now());
    // The account may have been deleted, or the same passkey registered, while it was verified.
    if (context.store.findUser(user.username) !== user) throw ERRORS.accessTokenRevoked();
    if (context.store.passkeyOwner(passkey.id) !== undefined) throw ERRORS.passkeyAlreadyRegistered();
    assertRoomForPasskey(user);
    user.passkeys = [...passkeysOf(user), passkey];
    user.updatedAt = context.now();
    context.store.saveUser(user);
    return {};
  },
};

/** In registration order; MaxResults is 0 to 20, 0 or none meaning all of them. */
const listWebAuthnCredentials: Operation = {
  run(context, body) {
    const input = parseInput(
      z.object({
        ...withToken,
        MaxResults: z.number().int().min(0).max(POOL.passkeysPerUser).optional(),
        NextToken: shapes.paginationToken.optional(),
      }),
      body,
    );
    const { user } = authenticate(context, input.AccessToken);
    const start = readPageToken('w', input.NextToken);
    const size = input.MaxResults || POOL.passkeysPerUser;
    const passkeys = passkeysOf(user);
    const end = start + size;
    return {
      Credentials: passkeys.slice(start, end).map(passkeyDescription),
      ...(end < passkeys.length ? { NextToken: pageToken('w', end) } : {}),
    };
  },
};

/** ResourceNotFoundException for an ID that is not one of the caller's passkeys. */
const deleteWebAuthnCredential: Operation = {
  run(context, body) {
    const input = parseInput(z.object({ ...withToken, CredentialId: z.string().min(1).max(1024) }), body);
    const { user } = authenticate(context, input.AccessToken);
    const passkeys = passkeysOf(user);
    if (!passkeys.some((passkey) => passkey.id === input.CredentialId)) throw ERRORS.passkeyNotFound();
    user.passkeys = passkeys.filter((passkey) => passkey.id !== input.CredentialId);
    user.updatedAt = context.now();
    context.store.saveUser(user);
    return {};
  },
};

/**
 * ConfiguredUserAuthFactors: "the authentication types that are available to the user with
 * USER_AUTH sign-in": PASSWORD and WEB_AUTHN as first factors the pool allows and the user has,
 * SOFTWARE_TOKEN (an MFA factor only) for a verified authenticator.
 */
function configuredFactors(context: PoolContext, user: UserRecord): string[] {
  const allowed = context.allowedFirstAuthFactors;
  const factors: string[] = [];
  if (allowed.includes('PASSWORD') && user.password) factors.push('PASSWORD');
  if (allowed.includes('WEB_AUTHN') && context.webAuthn && signInPasskeys(context.webAuthn, user).length > 0) {
    factors.push('WEB_AUTHN');
  }
  if (user.softwareToken.secret) factors.push('SOFTWARE_TOKEN');
  return factors;
}

const getUserAuthFactors: Operation = {
  run(context, body) {
    const { user } = authenticate(context, parseInput(z.object(withToken), body).AccessToken);
    return {
      Username: user.username,
      ...mfaSettings(user),
      ConfiguredUserAuthFactors: configuredFactors(context, user),
    };
  },
};

export const passkeyOperations = {
  StartWebAuthnRegistration: startWebAuthnRegistration,
  CompleteWebAuthnRegistration: completeWebAuthnRegistration,
  ListWebAuthnCredentials: listWebAuthnCredentials,
  DeleteWebAuthnCredential: deleteWebAuthnCredential,
  GetUserAuthFactors: getUserAuthFactors,
};
