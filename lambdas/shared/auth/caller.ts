import {
  AdminGetUserCommand,
  GetUserCommand,
  type GetUserCommandOutput,
} from '@aws-sdk/client-cognito-identity-provider';
import { COGNITO_ADMIN_SCOPE } from '#contracts/user-pool-client.ts';
import { NO_TOKEN_MESSAGE } from '#contracts/errors.ts';
import { cognito } from '../aws/cognito.ts';
import { isAwsError } from '../aws/config.ts';
import { ENV } from '#contracts/env.ts';
import { requireEnv } from '../env.ts';
import { ConfigurationError, ForbiddenError, UnauthorizedError, UpstreamError } from '../errors.ts';
import { ADMINS_GROUP, USERS_GROUP } from '#contracts/groups.ts';
import { endedSinceSignIn, sessionsEndedAt } from './ended-sessions.ts';
import { createSessionCache } from './session-cache.ts';
import { type AccessClaims, verifyAccessToken } from './verifier.ts';

/** What the liveness check learns of the account: its attributes and MFA settings. */
export type AccountProfile = Partial<
  Pick<GetUserCommandOutput, 'UserAttributes' | 'UserMFASettingList' | 'PreferredMfaSetting' | 'MFAOptions'>
>;

/** The signed-in caller of a request, known from a verified, live access token. */
export interface Caller {
  /** Cognito username (the user's sub; sign-in is by email alias). */
  readonly username: string;
  readonly sub: string;
  /** Lowercased, verified email, from Cognito (GetUser or AdminGetUser). */
  readonly email: string;
  /** Groups from the verified token, or Cognito's current ones once `confirmAdmin` (live-admin.ts) has run. */
  readonly groups: readonly string[];
  readonly isAdmin: boolean;
  /** Epoch seconds of the sign-in behind the token (`auth_time`; kept across refreshes). */
  readonly authTime: number;
  /** Needed by the calls Cognito accepts only with the user's own token (MFA set-up). */
  readonly accessToken: string;
  /**
   * The token carries `aws.cognito.signin.user.admin`, which Cognito's own token-authorized
   * operations need: only a token from a sign-in does, never one from a refresh.
   */
  readonly canCallCognito: boolean;
  /** The account as the liveness check read it, reused by GET_MFA_STATUS. */
  readonly profile: AccountProfile;
}

export const SESSION_ENDED = 'Your session is no longer valid. Please sign in again.';

/**
 * Extracts the token from an Authorization header: `Bearer <token>` for the function URLs;
 * AppSync passes the bare token, which `allowBare` accepts.
 */
export const tokenFromHeader = (header: string | undefined, { allowBare = false } = {}): string => {
  const value = header?.trim() ?? '';
  if (value === '') throw new UnauthorizedError(NO_TOKEN_MESSAGE);
  const match = /^Bearer\s+(\S+)$/i.exec(value);
  if (match?.[1] !== undefined) return match[1];
  if (allowBare && !/\s/.test(value)) return value;
  throw new UnauthorizedError('Authorization header must be "Bearer <access token>"');
};

export const SESSION_LIFETIME_ENDED = 'Your session has reached its maximum length. Please sign in again.';

/**
 * The sign-in a token descends from (`auth_time`, which refreshing keeps) must be younger than
 * the absolute session lifetime: the browser signs out then too, but a kept refresh token must
 * not outlive the limit on the server either.
 */
const assertWithinSessionLifetime = (authTime: number, nowMs = Date.now()): void => {
  if (Math.floor(nowMs / 1000) - authTime > absoluteSessionSeconds()) {
    throw new UnauthorizedError(SESSION_LIFETIME_ENDED, { reason: 'sessionLifetimeEnded' });
  }
};

/** ABSOLUTE_SESSION_MINUTES in seconds; a missing or malformed value is a configuration error. */
export const absoluteSessionSeconds = (): number => {
  const minutes = Number(requireEnv(ENV.absoluteSessionMinutes));
  if (!Number.isInteger(minutes) || minutes <= 0) {
    throw new ConfigurationError([ENV.absoluteSessionMinutes], {
      reason: `${ENV.absoluteSessionMinutes} must be a positive whole number of minutes`,
    });
  }
  return minutes * 60;
};

/**
 * Accepted liveness answers of this function instance, per token, for
 * SESSION_CHECK_REUSE_SECONDS (session-cache.ts): the bound on how late a revoked token is refused.
 */
export const liveSessions = createSessionCache<AccountProfile>();

const sessionEnded = (error: unknown): boolean =>
  isAwsError(
    error,
    'NotAuthorizedException',
    'UserNotFoundException',
    'PasswordResetRequiredException',
    'UserNotConfirmedException',
  );

/** A token with the admin scope: Cognito itself says whether its session is live (GetUser). */
const askCognito = async (accessToken: string): Promise<AccountProfile> => {
  try {
    return await cognito.send(new GetUserCommand({ AccessToken: accessToken }));
  } catch (error) {
    if (sessionEnded(error)) throw new UnauthorizedError(SESSION_ENDED);
    throw new UpstreamError('Could not check the session with the identity provider');
  }
};

/**
 * A token from a refresh, without the admin scope, cannot be shown to GetUser. The account must
 * exist, be enabled and confirmed (AdminGetUser), and its sessions must not have been ended by
 * the portal since the token's sign-in (ended-sessions.ts).
 */
const checkAccount = async (claims: AccessClaims): Promise<AccountProfile> => {
  const lookUp = async () => {
    try {
      return await cognito.send(
        new AdminGetUserCommand({ UserPoolId: requireEnv(ENV.userPoolId), Username: claims.username }),
      );
    } catch (error) {
      if (sessionEnded(error)) throw new UnauthorizedError(SESSION_ENDED);
      throw new UpstreamError('Could not check the session with the identity provider');
    }
  };
  const [account, endedAt] = await Promise.all([lookUp(), sessionsEndedAt(claims.username)]);
  if (account.Enabled === false || account.UserStatus !== 'CONFIRMED' || endedSinceSignIn(claims.authTime, endedAt)) {
    throw new UnauthorizedError(SESSION_ENDED);
  }
  return account;
};

const fetchLiveProfile = async (accessToken: string, claims: AccessClaims, reuse: boolean): Promise<AccountProfile> => {
  const known = reuse ? liveSessions.get(accessToken) : undefined;
  if (known !== undefined) return known;
  const profile = claims.scopes.includes(COGNITO_ADMIN_SCOPE)
    ? await askCognito(accessToken)
    : await checkAccount(claims);
  liveSessions.set(accessToken, profile);
  return profile;
};

/** The account's email, only once verified: an address still waiting for its code is not the user's yet. */
const verifiedEmail = (profile: AccountProfile): string | undefined => {
  const attribute = (name: string) => profile.UserAttributes?.find((candidate) => candidate.Name === name)?.Value;
  if (attribute('email_verified') !== 'true') return undefined;
  return attribute('email')?.trim().toLowerCase() || undefined;
};

/**
 * Verifies the token, then checks that its session is still live: a disabled, deleted or
 * signed-out user's token is refused here although its signature is valid. The same answer
 * yields the verified email, which access tokens do not carry. Signature, expiry and session
 * lifetime are checked on every request. Only the GraphQL resolver, which AppSync invokes once
 * per root field of a request, reuses a liveness answer, for at most SESSION_CHECK_REUSE_SECONDS
 * (`reuseRecentCheck`); every function URL asks each time, so a disabled or signed-out user is
 * refused there at once.
 */
export const authenticate = async (
  accessToken: string,
  { reuseRecentCheck = false }: { reuseRecentCheck?: boolean } = {},
): Promise<Caller> => {
  const claims = await verifyAccessToken(accessToken);
  assertWithinSessionLifetime(claims.authTime);
  const profile = await fetchLiveProfile(accessToken, claims, reuseRecentCheck);
  const email = verifiedEmail(profile);
  if (!email) throw new UnauthorizedError('The signed-in account has no verified email address');
  return {
    username: claims.username,
    sub: claims.sub,
    email,
    groups: claims.groups,
    isAdmin: claims.groups.includes(ADMINS_GROUP),
    authTime: claims.authTime,
    accessToken,
    canCallCognito: claims.scopes.includes(COGNITO_ADMIN_SCOPE),
    profile,
  };
};

export const ADMIN_REQUIRED_MESSAGE = "Access denied. You don't have admin privileges.";

export const USER_REQUIRED_MESSAGE = "Access denied. You don't have user privileges.";

/**
 * The portals are for members of Users or Admins: the sign-in pages sign an account in
 * neither group out, and the functions refuse its token (403) in the same words, so the
 * rule does not rest on the browser.
 */
export const requirePortalMember = (caller: Caller): Caller => {
  if (!caller.groups.some((group) => group === USERS_GROUP || group === ADMINS_GROUP)) {
    throw new ForbiddenError(USER_REQUIRED_MESSAGE);
  }
  return caller;
};
