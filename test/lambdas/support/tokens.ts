import { type CryptoKey, exportJWK, generateKeyPair, SignJWT } from 'jose';

export const REGION = 'us-east-2';
export const POOL_ID = 'us-east-2_TestPool1';
export const CLIENT_ID = 'testclient0123456789abcdef';
const ISSUER = `https://cognito-idp.${REGION}.amazonaws.com/${POOL_ID}`;
const KID = 'test-signing-key';

interface TokenUser {
  /** Cognito username (a UUID in this pool). */
  username: string;
  groups?: string[];
}

export interface TokenOptions {
  /** Seconds until expiry; negative for an expired token. @default 3600 */
  expiresIn?: number;
  clientId?: string;
  /** Sign with a key the pool does not publish (same kid): a forged signature. */
  forged?: boolean;
  /** Seconds since the sign-in the token descends from (`auth_time`). @default 0 */
  signedInAgo?: number;
  /**
   * The `iss` claim, signed with the pool's own key: another pool's address is a token of another issuer. @default
   * ISSUER
   */
  issuer?: string;
  /**
   * A token from a refresh: the pre token generation trigger has suppressed the
   * `aws.cognito.signin.user.admin` scope. @default false
   */
  refreshed?: boolean;
  /** Seconds the `iat` claim lies ahead of now (a token claiming a later issue). @default 0 */
  issuedAhead?: number;
  /** Seconds `auth_time` lies after `iat` (a sign-in claimed after the token's own issue). @default 0 */
  signedInAfterIssue?: number;
}

export interface TestSigner {
  /** The JWKS JSON handed to the handlers through COGNITO_JWKS. */
  readonly jwks: string;
  accessToken(user: TokenUser, options?: TokenOptions): Promise<string>;
  idToken(user: TokenUser & { email: string }): Promise<string>;
}

/** Tokens shaped like Cognito's, signed with a key generated for the test run. */
export const createSigner = async (): Promise<TestSigner> => {
  const pool = await generateKeyPair('RS256', { extractable: true });
  const forger = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(pool.publicKey)), kid: KID, alg: 'RS256', use: 'sig' };

  const sign = (
    claims: Record<string, unknown>,
    key: CryptoKey,
    expiresIn: number,
    issuer = ISSUER,
    issuedAhead = 0,
  ) => {
    const now = Math.floor(Date.now() / 1000);
    // Cognito writes `iat` and `auth_time` from one clock: a token is never issued before its sign-in.
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: KID })
      .setIssuer(issuer)
      .setIssuedAt(now + issuedAhead)
      .setExpirationTime(now + expiresIn)
      .sign(key);
  };

  return {
    jwks: JSON.stringify({ keys: [jwk] }),
    accessToken: (user, options = {}) =>
      sign(
        {
          sub: user.username,
          username: user.username,
          'cognito:groups': user.groups ?? [],
          client_id: options.clientId ?? CLIENT_ID,
          token_use: 'access',
          ...(options.refreshed ? {} : { scope: 'aws.cognito.signin.user.admin' }),
          auth_time:
            Math.floor(Date.now() / 1000) -
            (options.signedInAgo ?? 0) +
            (options.issuedAhead ?? 0) +
            (options.signedInAfterIssue ?? 0),
          jti: crypto.randomUUID(),
        },
        options.forged ? forger.privateKey : pool.privateKey,
        options.expiresIn ?? 3600,
        options.issuer,
        options.issuedAhead,
      ),
    idToken: (user) =>
      sign(
        {
          sub: user.username,
          aud: CLIENT_ID,
          'cognito:username': user.username,
          'cognito:groups': user.groups ?? [],
          email: user.email,
          email_verified: true,
          token_use: 'id',
          auth_time: Math.floor(Date.now() / 1000),
        },
        pool.privateKey,
        3600,
      ),
  };
};
