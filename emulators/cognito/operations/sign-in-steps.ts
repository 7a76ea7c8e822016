import { POOL } from '../config.ts';
import type { PoolContext } from '../context.ts';
import { devicesOf, isRemembered, issueDevice, touchDevice } from '../devices.ts';
import { ERRORS } from '../errors.ts';
import type { ChallengeState } from '../sessions.ts';
import type { UserRecord } from '../state.ts';
import { issueTokens, type TokenGenerationSource } from '../tokens.ts';

/** The steps of a sign-in after the flow-specific password check. */

export interface SignInResponse {
  ChallengeName?: string;
  Session?: string;
  ChallengeParameters: Record<string, string>;
  /** SELECT_CHALLENGE: the first factors the user may choose from (USER_AUTH). */
  AvailableChallenges?: string[];
  AuthenticationResult?: Awaited<ReturnType<typeof issueTokens>> & {
    NewDeviceMetadata?: { DeviceKey: string; DeviceGroupKey: string };
  };
}

/** Refuses any password, even the right one, while the account is locked. */
export function assertNotLockedOut(context: PoolContext, user: UserRecord): void {
  if (user.signInFailures.lockedUntil > context.now()) throw ERRORS.passwordAttemptsExceeded();
}

/**
 * A wrong password. After five, the account locks for a second, then twice as long
 * after each further failure (at most 15 minutes); 15 quiet minutes forget the count.
 */
export function recordWrongPassword(context: PoolContext, user: UserRecord): never {
  const now = context.now();
  const { lockout } = POOL;
  const failures = user.signInFailures;
  const count = now - failures.lastFailureAt > lockout.forgetAfterMs ? 1 : failures.count + 1;
  const lockedUntil =
    count >= lockout.freeFailures
      ? now + Math.min(lockout.firstLockMs * 2 ** (count - lockout.freeFailures), lockout.maxLockMs)
      : 0;
  user.signInFailures = { count, lastFailureAt: now, lockedUntil };
  context.store.saveUser(user);
  throw ERRORS.incorrectCredentials();
}

function forgetWrongPasswords(context: PoolContext, user: UserRecord): void {
  if (user.signInFailures.count === 0) return;
  user.signInFailures = { count: 0, lastFailureAt: 0, lockedUntil: 0 };
  context.store.saveUser(user);
}

/**
 * The password was right: account state decides what comes next. `deviceKey` is a device of
 * this user the client named (DEVICE_KEY), already checked to exist.
 */
export function continueAfterPassword(context: PoolContext, user: UserRecord, deviceKey?: string): SignInResponse {
  forgetWrongPasswords(context, user);
  const authTime = Math.floor(context.now() / 1000);
  return accountStep(context, user, authTime, deviceKey) ?? mfaChallenge(context, user, authTime, undefined, deviceKey);
}

/**
 * After a first factor (a password or a passkey), what the account's state asks for: an error, a
 * new password, or nothing (undefined) when a confirmed account goes on to MFA.
 */
export function accountStep(
  context: PoolContext,
  user: UserRecord,
  authTime: number,
  deviceKey?: string,
): SignInResponse | undefined {
  if (!user.enabled) throw ERRORS.userDisabled();
  switch (user.status) {
    case 'UNCONFIRMED':
      throw ERRORS.userNotConfirmed();
    case 'RESET_REQUIRED':
      throw ERRORS.passwordResetRequired();
    case 'FORCE_CHANGE_PASSWORD':
      if ((user.temporaryPasswordExpiresAt ?? Infinity) <= context.now()) throw ERRORS.temporaryPasswordExpired();
      return newPasswordChallenge(context, user, authTime, deviceKey);
    case 'CONFIRMED':
      return undefined;
  }
}

function newPasswordChallenge(
  context: PoolContext,
  user: UserRecord,
  authTime: number,
  deviceKey?: string,
): SignInResponse {
  const { sub: _sub, ...visible } = user.attributes;
  return {
    ChallengeName: 'NEW_PASSWORD_REQUIRED',
    Session: context.sessions.nextChallenge(challengeState(user, 'NEW_PASSWORD_REQUIRED', authTime, deviceKey)),
    ChallengeParameters: {
      USER_ID_FOR_SRP: user.username,
      requiredAttributes: '[]',
      userAttributes: JSON.stringify(visible),
    },
  };
}

/**
 * MFA is required with TOTP only: a verified authenticator is asked for its code whatever
 * the user's MFA preference says; anyone without one sets one up first. A remembered device
 * proves itself (DEVICE_SRP_AUTH) in place of the code; it never replaces the password, nor
 * the setup of a first authenticator.
 */
export function mfaChallenge(
  context: PoolContext,
  user: UserRecord,
  authTime: number,
  previousSession?: string,
  deviceKey?: string,
): SignInResponse {
  if (user.softwareToken.secret) {
    const device = devicesOf(user).find((candidate) => candidate.key === deviceKey);
    if (context.deviceTracking && isRemembered(device)) {
      return {
        ChallengeName: 'DEVICE_SRP_AUTH',
        Session: context.sessions.nextChallenge(
          challengeState(user, 'DEVICE_SRP_AUTH', authTime, deviceKey),
          previousSession,
        ),
        ChallengeParameters: {},
      };
    }
    return {
      ChallengeName: 'SOFTWARE_TOKEN_MFA',
      Session: context.sessions.nextChallenge(
        challengeState(user, 'SOFTWARE_TOKEN_MFA', authTime, deviceKey),
        previousSession,
      ),
      ChallengeParameters: { USER_ID_FOR_SRP: user.username },
    };
  }
  return {
    ChallengeName: 'MFA_SETUP',
    Session: context.sessions.nextChallenge(challengeState(user, 'MFA_SETUP', authTime, deviceKey), previousSession),
    ChallengeParameters: { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]', USER_ID_FOR_SRP: user.username },
  };
}

const challengeState = (
  user: UserRecord,
  challenge: ChallengeState['challenge'],
  authTime: number,
  deviceKey: string | undefined,
): ChallengeState => ({
  username: user.username,
  challenge,
  authTime,
  failedCodes: 0,
  ...(deviceKey !== undefined ? { deviceKey } : {}),
});

/**
 * The last step: tokens for a user still allowed to have them. Where devices are tracked, a
 * sign-in from a device the pool does not know yet ends with a new device for the client to
 * confirm (NewDeviceMetadata).
 */
export async function completeSignIn(
  context: PoolContext,
  user: UserRecord,
  authTime: number,
  deviceKey?: string,
  source: TokenGenerationSource = 'TokenGeneration_Authentication',
): Promise<SignInResponse> {
  if (!user.enabled) throw ERRORS.userDisabled();
  if (!context.deviceTracking)
    return { ChallengeParameters: {}, AuthenticationResult: await issueTokens(context, user, authTime, source) };
  // The tokens are bound to the device of the sign-in (tokens.ts, device-bound refresh).
  const known = devicesOf(user).find((device) => device.key === deviceKey && device.secret !== undefined);
  if (known) {
    const tokens = await issueTokens(context, user, authTime, source, known.key);
    touchDevice(context, user, known);
    return { ChallengeParameters: {}, AuthenticationResult: tokens };
  }
  const device = issueDevice(context, user);
  const tokens = await issueTokens(context, user, authTime, source, device.key);
  return {
    ChallengeParameters: {},
    AuthenticationResult: { ...tokens, NewDeviceMetadata: { DeviceKey: device.key, DeviceGroupKey: device.groupKey } },
  };
}

/** The user behind a challenge session, who may have been deleted or disabled since. */
export function challengeUser(context: PoolContext, state: ChallengeState): UserRecord {
  const user = context.store.findUser(state.username);
  if (!user) throw ERRORS.invalidSession();
  if (!user.enabled) throw ERRORS.userDisabled();
  return user;
}

/** A wrong MFA code; too many of them end the sign-in session. */
export function countWrongCode(context: PoolContext, state: ChallengeState, session: string): void {
  state.failedCodes += 1;
  if (state.failedCodes >= POOL.mfaAttemptsPerSession) context.sessions.challenges.delete(session);
}
