import { CognitoJwtVerifier } from 'aws-jwt-verify';
import {
  CognitoJwtInvalidClientIdError,
  CognitoJwtInvalidTokenUseError,
  JwtBaseError,
  JwtExpiredError,
  NonRetryableFetchError,
} from 'aws-jwt-verify/error';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import { ENV } from '#contracts/env.ts';
import { optionalEnv, requireEnv } from '../env.ts';
import { UnauthorizedError } from '../errors.ts';

/** The claims of a verified access token this product reads. */
export interface AccessClaims {
  sub: string;
  username: string;
  groups: string[];
  /** Epoch seconds of the sign-in the token descends from; a refresh keeps it. */
  authTime: number;
  /** The token's `scope` claim, split. */
  scopes: string[];
}

/**
 * How far ahead of this function's clock a token may say it was issued. Cognito writes `iat`
 * and `auth_time` from one clock, so a sign-in after the token's own issue is never genuine.
 */
const TOKEN_CLOCK_SKEW_SECONDS = 60;

const IMPLAUSIBLE_TIMES_MESSAGE = 'Invalid authentication token';

/**
 * A sign-in time later than the token's issue, or an issue in the future, would make a session
 * look younger than it is (the session lifetime and the recent sign-in checks count from it).
 */
const assertPlausibleTimes = (authTime: number, issuedAt: number, nowMs: number): void => {
  const now = Math.floor(nowMs / 1000);
  if (authTime > issuedAt || issuedAt > now + TOKEN_CLOCK_SKEW_SECONDS) {
    throw new UnauthorizedError(IMPLAUSIBLE_TIMES_MESSAGE, { reason: 'implausibleTokenTimes' });
  }
};

const localJwks = optionalEnv(ENV.cognitoJwks);

/**
 * With COGNITO_JWKS (local mode) the keys are given up front and nothing is ever fetched:
 * a token signed with an unknown key is refused instead of sending the verifier to the network.
 */
const offlineJwksCache = () =>
  new SimpleJwksCache({
    fetcher: {
      fetch: async (uri: string) => {
        throw new NonRetryableFetchError(uri, 'JWKS fetching is disabled when COGNITO_JWKS is set');
      },
    },
  });

const verifier = CognitoJwtVerifier.create(
  {
    userPoolId: requireEnv(ENV.userPoolId),
    clientId: requireEnv(ENV.userPoolClientId),
    tokenUse: 'access',
  },
  localJwks === undefined ? undefined : { jwksCache: offlineJwksCache() },
);
if (localJwks !== undefined) verifier.cacheJwks(JSON.parse(localJwks));

const describeFailure = (error: unknown): string => {
  if (error instanceof JwtExpiredError) return 'Authentication token has expired. Please sign in again.';
  if (error instanceof CognitoJwtInvalidTokenUseError) return 'An access token is required';
  if (error instanceof CognitoJwtInvalidClientIdError) return 'Authentication token was issued to another application';
  return 'Invalid authentication token';
};

/** Verifies signature, issuer, expiry, token use and client; throws UnauthorizedError otherwise. */
export const verifyAccessToken = async (token: string, nowMs = Date.now()): Promise<AccessClaims> => {
  try {
    const payload = await verifier.verify(token);
    // Missing only in a token Cognito did not issue; 0 then counts as a sign-in long ago.
    const authTime = typeof payload.auth_time === 'number' ? payload.auth_time : 0;
    assertPlausibleTimes(authTime, payload.iat, nowMs);
    return {
      sub: payload.sub,
      username: payload.username,
      groups: payload['cognito:groups'] ?? [],
      authTime,
      scopes: typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [],
    };
  } catch (error) {
    if (error instanceof JwtBaseError || error instanceof SyntaxError)
      throw new UnauthorizedError(describeFailure(error));
    throw error;
  }
};
