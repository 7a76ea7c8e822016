import { GetUserCommand, type GetUserCommandOutput } from '@aws-sdk/client-cognito-identity-provider';
import { NO_TOKEN_MESSAGE } from '../../../contracts/errors.ts';
import { cognito } from '../aws/cognito.ts';
import { isAwsError } from '../aws/config.ts';
import { ENV } from '../../../contracts/env.ts';
import { requireEnv } from '../env.ts';
import { ConfigurationError, ForbiddenError, UnauthorizedError, UpstreamError } from '../errors.ts';
import { ADMINS_GROUP, USERS_GROUP } from './groups.ts';
import { createSessionCache } from './session-cache.ts';
import { verifyAccessToken } from './verifier.ts';


/** The signed-in caller of a request, known from a verified, live access token. */
export interface Caller {
  /** Cognito username (the user's sub; sign-in is by email alias). */
  readonly username: string;
  readonly sub: string;
  /** Lowercased email, from Cognito GetUser. */
  readonly email: string;
  /** Groups from the verified token, or Cognito's current ones once `confirmAdmin` (live-admin.ts) has run. */
  readonly groups: readonly string[];
  readonly isAdmin: boolean;
  /** Epoch seconds of the sign-in behind the token (`auth_time`; kept across refreshes). */
  readonly authTime: number;
  /** Needed by the calls Cognito accepts only with the user's own token (MFA set-up). */
  readonly accessToken: string;
  /** The GetUser answer of the liveness check, reused by GET_MFA_STATUS. */
  readonly profile: GetUserCommandOutput;
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
    throw new ConfigurationError([ENV.absoluteSessionMinutes], { reason: `${ENV.absoluteSessionMinutes} must be a positive whole number of minutes` });
  }
  return minutes * 60;
};

/**
 * Accepted GetUser answers of this function instance, per token, for SESSION_CHECK_REUSE_SECONDS
 * (session-cache.ts): the bound on how late a revoked token is refused.
 */
export const liveSessions = createSessionCache<GetUserCommandOutput>();

const fetchLiveProfile = async (accessToken: string, reuse: boolean): Promise<GetUserCommandOutput> => {
  const known = reuse ? liveSessions.get(accessToken) : undefined;
  if (known !== undefined) return known;
  let profile: GetUserCommandOutput;
  try {
    profile = await cognito.send(new GetUserCommand({ AccessToken: accessToken }));
  } catch (error) {
    if (isAwsError(error, 'NotAuthorizedException', 'UserNotFoundException', 'PasswordResetRequiredException', 'UserNotConfirmedException')) {
      throw new UnauthorizedError(SESSION_ENDED);
    }
    throw new UpstreamError('Could not check the session with the identity provider');
  }
  liveSessions.set(accessToken, profile);
  return profile;
};

/**
 * Verifies the token, then asks Cognito whether its session is still live: a disabled,
 * deleted or globally signed-out user's token is refused here although its signature is valid.
 * The same call yields the email, which access tokens do not carry. Signature, expiry and
 * session lifetime are checked on every request. Only the GraphQL resolver, which AppSync
 * invokes once per root field of a request, reuses a GetUser answer, for at most
 * SESSION_CHECK_REUSE_SECONDS (`reuseRecentCheck`); every function URL asks each time, so a
 * disabled or signed-out user is refused there at once.
 */
export const authenticate = async (accessToken: string, { reuseRecentCheck = false }: { reuseRecentCheck?: boolean } = {}): Promise<Caller> => {
  const claims = await verifyAccessToken(accessToken);
  assertWithinSessionLifetime(claims.authTime);
  const profile = await fetchLiveProfile(accessToken, reuseRecentCheck);
  const email = profile.UserAttributes?.find((attribute) => attribute.Name === 'email')?.Value?.trim().toLowerCase();
  if (!email) throw new UnauthorizedError('The signed-in account has no email address');
  return {
    username: claims.username,
    sub: claims.sub,
    email,
    groups: claims.groups,
    isAdmin: claims.groups.includes(ADMINS_GROUP),
    authTime: claims.authTime,
    accessToken,
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
