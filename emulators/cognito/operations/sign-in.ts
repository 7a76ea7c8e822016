import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { clientAllowsFlow } from '../config.ts';
import type { Operation, PoolContext } from '../context.ts';
import { isRemembered, requireDevice, touchDevice } from '../devices.ts';
import { codeMismatch, ERRORS, invalidParameter } from '../errors.ts';
import type { ChallengeState } from '../sessions.ts';
import type { UserRecord } from '../state.ts';
import { assertPasswordConforms } from '../password-policy.ts';
import {
  createServerChallenge,
  createVerifier,
  parseClientPublicValue,
  passwordClaimIsValid,
  SRP_TIMESTAMP,
} from '../srp.ts';
import { checkTotp } from '../software-token.ts';
import { refreshTokens } from '../tokens.ts';
import { parseInput, shapes } from '../validation.ts';
import { applyAttributes, requireClient, requiredParameter } from './common.ts';
import { passwordSignIn, startSrp } from './password-sign-in.ts';
import {
  assertNotLockedOut,
  challengeUser,
  completeSignIn,
  continueAfterPassword,
  countWrongCode,
  mfaChallenge,
  recordWrongPassword,
  type SignInResponse,
} from './sign-in-steps.ts';
import { respondUserAuth, startUserAuth, USER_AUTH_CHALLENGES } from './user-auth.ts';

const AUTH_FLOWS = [
  'USER_SRP_AUTH',
  'REFRESH_TOKEN_AUTH',
  'REFRESH_TOKEN',
  'CUSTOM_AUTH',
  'ADMIN_NO_SRP_AUTH',
  'USER_PASSWORD_AUTH',
  'ADMIN_USER_PASSWORD_AUTH',
  'USER_AUTH',
] as const;

const CHALLENGE_NAMES = [
  'SMS_MFA',
  'EMAIL_OTP',
  'SOFTWARE_TOKEN_MFA',
  'SELECT_MFA_TYPE',
  'MFA_SETUP',
  'PASSWORD_VERIFIER',
  'CUSTOM_CHALLENGE',
  'SELECT_CHALLENGE',
  'DEVICE_SRP_AUTH',
  'DEVICE_PASSWORD_VERIFIER',
  'ADMIN_NO_SRP_AUTH',
  'NEW_PASSWORD_REQUIRED',
  'SMS_OTP',
  'PASSWORD',
  'WEB_AUTHN',
  'PASSWORD_SRP',
] as const;

const initiateAuthInput = z.object({
  AuthFlow: z.enum(AUTH_FLOWS),
  ClientId: shapes.clientId,
  AuthParameters: shapes.stringMap.optional(),
});

const respondInput = z.object({
  ClientId: shapes.clientId,
  ChallengeName: z.enum(CHALLENGE_NAMES),
  Session: shapes.session.optional(),
  ChallengeResponses: shapes.stringMap.optional(),
});

type Parameters = Record<string, string>;

const required = requiredParameter;

const initiateAuth: Operation = {
  run(context, body) {
    const input = parseInput(initiateAuthInput, body);
    requireClient(context, input.ClientId);
    const flow: string = input.AuthFlow;
    // The app client's explicit auth flows (the emulator's `client` option) decide.
    if (!clientAllowsFlow(context.client, flow)) throw ERRORS.flowNotEnabled(flow);
    const parameters = input.AuthParameters;
    if (flow === 'REFRESH_TOKEN_AUTH' || flow === 'REFRESH_TOKEN') {
      return refreshTokens(context, required(parameters, 'REFRESH_TOKEN'), parameters?.DEVICE_KEY || undefined).then(
        (tokens) => ({
          ChallengeParameters: {},
          AuthenticationResult: tokens,
        }),
      );
    }
    const username = required(parameters, 'USERNAME');
    if (flow === 'USER_AUTH') return startUserAuth(context, username, parameters);
    if (flow === 'USER_PASSWORD_AUTH') return passwordSignIn(context, username, required(parameters, 'PASSWORD'));
    return startSrp(context, username, required(parameters, 'SRP_A'));
  },
};

function answerPasswordVerifier(context: PoolContext, responses: Parameters | undefined): SignInResponse {
  const secretBlock = required(responses, 'PASSWORD_CLAIM_SECRET_BLOCK');
  const signature = required(responses, 'PASSWORD_CLAIM_SIGNATURE');
  const timestamp = required(responses, 'TIMESTAMP');
  const username = required(responses, 'USERNAME');
  const srp = context.sessions.srp.get(secretBlock);
  // An unknown DEVICE_KEY is refused before the attempt counts, so that a client whose device
  // was forgotten can drop its key and answer again (as the identity library does).
  const deviceKey = context.deviceTracking ? responses?.DEVICE_KEY || undefined : undefined;
  const owner = srp.username === undefined ? undefined : context.store.findUser(srp.username);
  if (deviceKey !== undefined && owner) requireDevice(owner, deviceKey);
  // A secret block proves one password attempt.
  context.sessions.srp.delete(secretBlock);
  if (!SRP_TIMESTAMP.test(timestamp)) throw invalidParameter('TIMESTAMP format is not valid.');
  const user = srp.username === undefined ? undefined : context.store.findUser(srp.username);
  if (!user || context.store.findUser(username) !== user) throw ERRORS.incorrectCredentials();
  assertNotLockedOut(context, user);
  const proven = passwordClaimIsValid({
    poolName: context.poolName,
    userId: srp.userIdForSrp,
    verifier: srp.verifier,
    A: srp.A,
    challenge: srp.challenge,
    secretBlock,
    timestamp,
    signature,
  });
  if (!proven || user.password?.verifier !== srp.verifier) recordWrongPassword(context, user);
  return continueAfterPassword(context, user, deviceKey);
}

/** DEVICE_SRP_AUTH: the remembered device starts its own SRP exchange (SRP_A). */
function answerDeviceSrp(
  context: PoolContext,
  user: UserRecord,
  state: ChallengeState,
  session: string,
  responses: Parameters | undefined,
): SignInResponse {
  const deviceKey = required(responses, 'DEVICE_KEY');
  const A = parseClientPublicValue(required(responses, 'SRP_A'));
  if (A === undefined) throw invalidParameter('Invalid SRP_A value.');
  if (deviceKey !== state.deviceKey) throw ERRORS.deviceNotFound();
  const device = requireDevice(user, deviceKey);
  if (!isRemembered(device)) throw ERRORS.invalidSession();
  const challenge = createServerChallenge(device.secret.verifier);
  const secretBlock = randomBytes(96).toString('base64');
  const next = context.sessions.nextChallenge(
    { ...state, challenge: 'DEVICE_PASSWORD_VERIFIER', deviceSrp: { A, challenge, secretBlock } },
    session,
  );
  return {
    ChallengeName: 'DEVICE_PASSWORD_VERIFIER',
    Session: next,
    ChallengeParameters: {
      DEVICE_KEY: deviceKey,
      SALT: device.secret.salt,
      SECRET_BLOCK: secretBlock,
      SRP_B: challenge.B,
      USERNAME: user.username,
    },
  };
}

/** DEVICE_PASSWORD_VERIFIER: proof of the device secret, signed as the password claim is. */
function answerDevicePasswordVerifier(
  context: PoolContext,
  user: UserRecord,
  state: ChallengeState,
  session: string,
  responses: Parameters | undefined,
): Promise<SignInResponse> {
  const secretBlock = required(responses, 'PASSWORD_CLAIM_SECRET_BLOCK');
  const signature = required(responses, 'PASSWORD_CLAIM_SIGNATURE');
  const timestamp = required(responses, 'TIMESTAMP');
  const deviceKey = required(responses, 'DEVICE_KEY');
  // One proof per exchange, right or wrong.
  context.sessions.challenges.delete(session);
  if (!SRP_TIMESTAMP.test(timestamp)) throw invalidParameter('TIMESTAMP format is not valid.');
  const srp = state.deviceSrp;
  if (!srp || deviceKey !== state.deviceKey || secretBlock !== srp.secretBlock) throw ERRORS.invalidSession();
  const device = requireDevice(user, deviceKey);
  if (!isRemembered(device)) throw ERRORS.invalidSession();
  const proven = passwordClaimIsValid({
    poolName: device.groupKey,
    userId: device.key,
    verifier: device.secret.verifier,
    A: srp.A,
    challenge: srp.challenge,
    secretBlock,
    timestamp,
    signature,
  });
  if (!proven) throw ERRORS.incorrectCredentials();
  touchDevice(context, user, device);
  return completeSignIn(context, user, state.authTime, deviceKey, 'TokenGeneration_AuthenticateDevice');
}

const respondToAuthChallenge: Operation = {
  run(context, body) {
    const input = parseInput(respondInput, body);
    requireClient(context, input.ClientId);
    const responses = input.ChallengeResponses;
    if (input.ChallengeName === 'PASSWORD_VERIFIER') return answerPasswordVerifier(context, responses);
    if (USER_AUTH_CHALLENGES.has(input.ChallengeName)) {
      return respondUserAuth(context, input.ChallengeName, input.Session, responses);
    }
    if (input.Session === undefined) throw ERRORS.missingAuthParameter('Session');
    const session = input.Session;
    const state = context.sessions.challenges.get(session);
    if (state.challenge !== input.ChallengeName) throw codeMismatch('Invalid code or auth state for the user.');
    const user = challengeUser(context, state);
    switch (state.challenge) {
      case 'NEW_PASSWORD_REQUIRED': {
        const newPassword = required(responses, 'NEW_PASSWORD');
        assertPasswordConforms(newPassword);
        const attributes = Object.entries(responses ?? {})
          .filter(([name]) => name.startsWith('userAttributes.'))
          .map(([name, value]) => ({ Name: name.slice('userAttributes.'.length), Value: value }));
        if (attributes.length > 0) applyAttributes(context, user, attributes, 'user');
        user.password = createVerifier(context.poolName, user.username, newPassword);
        user.status = 'CONFIRMED';
        delete user.temporaryPasswordExpiresAt;
        user.updatedAt = context.now();
        context.store.saveUser(user);
        return mfaChallenge(context, user, state.authTime, session, state.deviceKey);
      }
      case 'SOFTWARE_TOKEN_MFA': {
        const code = required(responses, 'SOFTWARE_TOKEN_MFA_CODE');
        const { secret, lastUsedStep } = user.softwareToken;
        const check = secret
          ? checkTotp(secret, code, context.now(), lastUsedStep)
          : ({ ok: false, reason: 'mismatch' } as const);
        if (!check.ok) {
          countWrongCode(context, state, session);
          throw check.reason === 'reused' ? ERRORS.softwareTokenAlreadyUsed() : ERRORS.mfaCodeMismatch();
        }
        user.softwareToken = { ...user.softwareToken, lastUsedStep: check.step };
        context.store.saveUser(user);
        context.sessions.challenges.delete(session);
        return completeSignIn(context, user, state.authTime, state.deviceKey);
      }
      case 'MFA_SETUP': {
        if (state.setup !== 'verified') throw ERRORS.softwareTokenNotFound();
        context.sessions.challenges.delete(session);
        return completeSignIn(context, user, state.authTime, state.deviceKey);
      }
      case 'DEVICE_SRP_AUTH':
        return answerDeviceSrp(context, user, state, session, responses);
      case 'DEVICE_PASSWORD_VERIFIER':
        return answerDevicePasswordVerifier(context, user, state, session, responses);
    }
  },
};

/**
 * New access and ID tokens for a refresh token, as REFRESH_TOKEN_AUTH gives them. Refresh
 * token rotation is off for the app client, so no new refresh token is issued.
 */
const getTokensFromRefreshToken: Operation = {
  run(context, body) {
    const input = parseInput(
      z.object({
        RefreshToken: z.string().min(1),
        ClientId: shapes.clientId,
        ClientSecret: z.string().max(64).optional(),
        DeviceKey: z.string().max(55).optional(),
        ClientMetadata: shapes.stringMap.optional(),
      }),
      body,
    );
    requireClient(context, input.ClientId);
    if (!clientAllowsFlow(context.client, 'REFRESH_TOKEN_AUTH')) throw ERRORS.flowNotEnabled('REFRESH_TOKEN_AUTH');
    return refreshTokens(context, input.RefreshToken, input.DeviceKey || undefined).then((tokens) => ({
      AuthenticationResult: tokens,
    }));
  },
};

export const signInOperations = {
  InitiateAuth: initiateAuth,
  GetTokensFromRefreshToken: getTokensFromRefreshToken,
  RespondToAuthChallenge: respondToAuthChallenge,
};
