import { POOL } from '../config.ts';
import type { PoolContext } from '../context.ts';
import { ERRORS } from '../errors.ts';
import type { ChallengeState } from '../sessions.ts';
import type { UserRecord } from '../state.ts';
import { issueTokens } from '../tokens.ts';

/** The steps of a sign-in after the flow-specific password check. */

export interface SignInResponse {
  ChallengeName?: string;
  Session?: string;
  ChallengeParameters: Record<string, string>;
  AuthenticationResult?: ReturnType<typeof issueTokens>;
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

/** The password was right: account state decides what comes next. */
export function continueAfterPassword(context: PoolContext, user: UserRecord): SignInResponse {
  forgetWrongPasswords(context, user);
  if (!user.enabled) throw ERRORS.userDisabled();
  const authTime = Math.floor(context.now() / 1000);
  switch (user.status) {
    case 'UNCONFIRMED':
      throw ERRORS.userNotConfirmed();
    case 'RESET_REQUIRED':
      throw ERRORS.passwordResetRequired();
    case 'FORCE_CHANGE_PASSWORD':
      if ((user.temporaryPasswordExpiresAt ?? Infinity) <= context.now()) throw ERRORS.temporaryPasswordExpired();
      return newPasswordChallenge(context, user, authTime);
    case 'CONFIRMED':
      return mfaChallenge(context, user, authTime);
  }
}

function newPasswordChallenge(context: PoolContext, user: UserRecord, authTime: number): SignInResponse {
  const { sub: _sub, ...visible } = user.attributes;
  return {
    ChallengeName: 'NEW_PASSWORD_REQUIRED',
    Session: context.sessions.nextChallenge(challengeState(user, 'NEW_PASSWORD_REQUIRED', authTime)),
    ChallengeParameters: {
      USER_ID_FOR_SRP: user.username,
      requiredAttributes: '[]',
      userAttributes: JSON.stringify(visible),
    },
  };
}

/**
 * MFA is required with TOTP only: a verified authenticator is asked for its code whatever
 * the user's MFA preference says; anyone without one sets one up first.
 */
export function mfaChallenge(
  context: PoolContext,
  user: UserRecord,
  authTime: number,
  previousSession?: string,
): SignInResponse {
  if (user.softwareToken.secret) {
    return {
      ChallengeName: 'SOFTWARE_TOKEN_MFA',
      Session: context.sessions.nextChallenge(challengeState(user, 'SOFTWARE_TOKEN_MFA', authTime), previousSession),
      ChallengeParameters: { USER_ID_FOR_SRP: user.username },
    };
  }
  return {
    ChallengeName: 'MFA_SETUP',
    Session: context.sessions.nextChallenge(challengeState(user, 'MFA_SETUP', authTime), previousSession),
    ChallengeParameters: { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]', USER_ID_FOR_SRP: user.username },
  };
}

const challengeState = (user: UserRecord, challenge: ChallengeState['challenge'], authTime: number): ChallengeState => ({
  username: user.username,
  challenge,
  authTime,
  failedCodes: 0,
});

/** The last step: tokens for a user still allowed to have them. */
export function completeSignIn(context: PoolContext, user: UserRecord, authTime: number): SignInResponse {
  if (!user.enabled) throw ERRORS.userDisabled();
  return { ChallengeParameters: {}, AuthenticationResult: issueTokens(context, user, authTime) };
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
