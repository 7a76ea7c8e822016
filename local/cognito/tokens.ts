import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { PoolContext } from './context.ts';
import { ERRORS } from './errors.ts';
import { signJwt, verifyJwt } from './jwt.ts';
import type { OriginRecord, UserRecord } from './state.ts';

/**
 * Access, ID and refresh tokens. A sign-in creates an origin record; its jti is the
 * origin_jti of every token derived from it, so revoking the origin (RevokeToken,
 * global sign-out, disabling or deleting the user) kills them all at once.
 */

export interface AuthenticationResult {
  AccessToken: string;
  ExpiresIn: number;
  TokenType: 'Bearer';
  IdToken: string;
  RefreshToken?: string;
}

const hashRefreshToken = (token: string) => createHash('sha256').update(token).digest('hex');
const seconds = (ms: number) => Math.floor(ms / 1000);

/** Groups by precedence, as Cognito lists them in cognito:groups. */
function groupsOf(context: PoolContext, user: UserRecord): string[] {
  const precedence = (name: string) => context.store.getGroup(name)?.precedence ?? Number.MAX_SAFE_INTEGER;
  return [...user.groups].sort((a, b) => precedence(a) - precedence(b) || a.localeCompare(b));
}

function signTokens(context: PoolContext, user: UserRecord, origin: OriginRecord) {
  const now = seconds(context.now());
  const groups = groupsOf(context, user);
  const eventId = randomUUID();
  const common = {
    sub: user.username,
    ...(groups.length > 0 ? { 'cognito:groups': groups } : {}),
    iss: context.issuer,
    origin_jti: origin.jti,
    event_id: eventId,
    auth_time: origin.authTime,
    iat: now,
  };
  const accessToken = signJwt(context.signingKey, {
    ...common,
    client_id: context.clientId,
    token_use: 'access',
    scope: 'aws.cognito.signin.user.admin',
    exp: now + context.lifetimes.accessTokenSeconds,
    jti: randomUUID(),
    username: user.username,
  });
  const idToken = signJwt(context.signingKey, {
    ...common,
    email_verified: user.attributes.email_verified === 'true',
    'cognito:username': user.username,
    aud: context.clientId,
    token_use: 'id',
    exp: now + context.lifetimes.idTokenSeconds,
    jti: randomUUID(),
    ...(user.attributes.email !== undefined ? { email: user.attributes.email } : {}),
  });
  return { AccessToken: accessToken, ExpiresIn: context.lifetimes.accessTokenSeconds, TokenType: 'Bearer' as const, IdToken: idToken };
}

/** A completed sign-in: new origin, all three tokens. */
export function issueTokens(context: PoolContext, user: UserRecord, authTime: number): AuthenticationResult {
  const refreshToken = randomBytes(96).toString('base64url');
  const origin: OriginRecord = {
    jti: randomUUID(),
    username: user.username,
    authTime,
    refreshTokenHash: hashRefreshToken(refreshToken),
    expiresAt: context.now() + context.lifetimes.refreshTokenMs,
    revoked: false,
  };
  context.store.addOrigin(origin);
  return { ...signTokens(context, user, origin), RefreshToken: refreshToken };
}

/** REFRESH_TOKEN_AUTH: new access and ID tokens of the same origin, no new refresh token. */
export function refreshTokens(context: PoolContext, refreshToken: string): AuthenticationResult {
  const origin = context.store.originByRefreshToken(hashRefreshToken(refreshToken));
  if (!origin) throw ERRORS.invalidRefreshToken();
  const user = context.store.findUser(origin.username);
  if (user && !user.enabled) throw ERRORS.userDisabled();
  if (!user || origin.revoked) throw ERRORS.refreshTokenRevoked();
  if (origin.expiresAt <= context.now()) throw ERRORS.refreshTokenExpired();
  return signTokens(context, user, origin);
}

/** RevokeToken: a refresh token's origin is revoked; unknown tokens are ignored (RFC 7009). */
export function revokeRefreshToken(context: PoolContext, token: string): void {
  if (verifyJwt(context.signingKey, token)) throw ERRORS.unsupportedTokenType();
  const origin = context.store.originByRefreshToken(hashRefreshToken(token));
  if (origin) context.store.revokeOrigin(origin);
}

/**
 * The caller of a token-authenticated operation: the access token must be signed by this
 * pool, be an access token of this client, unexpired, and its sign-in still live.
 */
export function authenticate(context: PoolContext, accessToken: string): { user: UserRecord; origin: OriginRecord } {
  const claims = verifyJwt(context.signingKey, accessToken);
  if (
    !claims ||
    claims.token_use !== 'access' ||
    claims.client_id !== context.clientId ||
    claims.iss !== context.issuer ||
    typeof claims.origin_jti !== 'string' ||
    typeof claims.exp !== 'number'
  ) {
    throw ERRORS.invalidAccessToken();
  }
  if (claims.exp <= seconds(context.now())) throw ERRORS.accessTokenExpired();
  const origin = context.store.getOrigin(claims.origin_jti);
  const user = origin && context.store.findUser(origin.username);
  if (!origin || origin.revoked || !user || !user.enabled) throw ERRORS.accessTokenRevoked();
  return { user, origin };
}
