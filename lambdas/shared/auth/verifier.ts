import { CognitoJwtVerifier } from 'aws-jwt-verify';
import {
  CognitoJwtInvalidClientIdError,
  CognitoJwtInvalidTokenUseError,
  JwtBaseError,
  JwtExpiredError,
  NonRetryableFetchError,
} from 'aws-jwt-verify/error';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import { ENV } from '../../../contracts/env.ts';
import { optionalEnv, requireEnv } from '../env.ts';
import { UnauthorizedError } from '../errors.ts';

/** The claims of a verified access token this product reads. */
export interface AccessClaims {
  sub: string;
  username: string;
  groups: string[];
  /** Epoch seconds of the sign-in the token descends from; a refresh keeps it. */
  authTime: number;
}

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
export const verifyAccessToken = async (token: string): Promise<AccessClaims> => {
  try {
    const payload = await verifier.verify(token);
    return {
      sub: payload.sub,
      username: payload.username,
      groups: payload['cognito:groups'] ?? [],
      // Missing only in a token Cognito did not issue; 0 then counts as a sign-in long ago.
      authTime: typeof payload.auth_time === 'number' ? payload.auth_time : 0,
    };
  } catch (error) {
    if (error instanceof JwtBaseError || error instanceof SyntaxError) throw new UnauthorizedError(describeFailure(error));
    throw error;
  }
};
