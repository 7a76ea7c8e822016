import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { PreTokenGenerationV2TriggerEvent } from 'aws-lambda';
import type { PoolContext } from './context.ts';
import { ERRORS } from './errors.ts';
import { devicesOf } from './devices.ts';
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

/** The scope of every access token from the pool's own sign-in (Cognito's user pool API scope). */
const COGNITO_ADMIN_SCOPE = 'aws.cognito.signin.user.admin';

/** Pre token generation sources this pool sends (the hosted UI's does not apply: OAuth is off). */
export type TokenGenerationSource =
  | 'TokenGeneration_Authentication'
  | 'TokenGeneration_NewPasswordChallenge'
  | 'TokenGeneration_AuthenticateDevice'
  | 'TokenGeneration_RefreshTokens';

/**
 * Claims a pre token generation response cannot add, change or suppress (Cognito ignores or refuses them): the
 * "Claims and scopes reference" of
 * https://docs.aws.amazon.com/cognito/latest/developerguide/user-pool-lambda-pre-token-generation.html (scope changes
 * with scopesToAdd and scopesToSuppress only), and the code flow's c_hash beside at_hash.
 */
const PROTECTED_CLAIMS = new Set([
  'acr',
  'amr',
  'at_hash',
  'aud',
  'auth_time',
  'azp',
  'c_hash',
  'client_id',
  'cognito:username',
  'event_id',
  'exp',
  'iat',
  'identities',
  'iss',
  'jti',
  'nbf',
  'nonce',
  'origin_jti',
  'scope',
  'sub',
  'token_use',
  'username',
]);

type Claims = Record<string, unknown>;
type TokenOverrides = { claimsToAddOrOverride?: Record<string, unknown>; claimsToSuppress?: string[] };

const applyClaimOverrides = (claims: Claims, overrides: TokenOverrides | undefined): Claims => {
  const result = { ...claims };
  for (const name of overrides?.claimsToSuppress ?? []) if (!PROTECTED_CLAIMS.has(name)) delete result[name];
  for (const [name, value] of Object.entries(overrides?.claimsToAddOrOverride ?? {}))
    if (!PROTECTED_CLAIMS.has(name)) result[name] = value;
  return result;
};

/**
 * The pool's pre token generation trigger, version 2 event: it may change the claims of both
 * tokens, the access token's scopes and the groups. A failing trigger fails the sign-in or the
 * refresh, as in Cognito.
 * https://docs.aws.amazon.com/cognito/latest/developerguide/user-pool-lambda-pre-token-generation.html
 */
async function runPreTokenGeneration(
  context: PoolContext,
  user: UserRecord,
  groups: string[],
  scopes: string[],
  source: TokenGenerationSource,
) {
  const trigger = context.triggers.preTokenGeneration;
  if (!trigger) return undefined;
  try {
    const answer = await trigger({
      version: '2',
      region: context.region,
      userPoolId: context.userPoolId,
      triggerSource: source,
      userName: user.username,
      callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId: context.clientId },
      request: {
        userAttributes: { ...user.attributes, 'cognito:user_status': user.status },
        groupConfiguration: { groupsToOverride: groups, iamRolesToOverride: [], preferredRole: undefined },
        scopes,
      },
      response: { claimsAndScopeOverrideDetails: {} },
    } as unknown as PreTokenGenerationV2TriggerEvent);
    return (
      (answer as PreTokenGenerationV2TriggerEvent | undefined)?.response?.claimsAndScopeOverrideDetails ?? undefined
    );
  } catch (error) {
    throw ERRORS.preTokenGenerationFailed(error instanceof Error ? error.message : String(error));
  }
}

async function signTokens(context: PoolContext, user: UserRecord, origin: OriginRecord, source: TokenGenerationSource) {
  const now = seconds(context.now());
  const overrides = await runPreTokenGeneration(context, user, groupsOf(context, user), [COGNITO_ADMIN_SCOPE], source);
  const groups = overrides?.groupOverrideDetails?.groupsToOverride ?? groupsOf(context, user);
  const access = overrides?.accessTokenGeneration;
  const suppressed = new Set(access?.scopesToSuppress ?? []);
  const scopes = [...new Set([COGNITO_ADMIN_SCOPE, ...(access?.scopesToAdd ?? [])])].filter(
    (scope) => !suppressed.has(scope),
  );
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
  const accessClaims = {
    ...common,
    // The device of the sign-in, as in the access token payload of
    // https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-using-the-access-token.html
    ...(origin.deviceKey !== undefined ? { device_key: origin.deviceKey } : {}),
    client_id: context.clientId,
    token_use: 'access',
    ...(scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
    exp: now + context.lifetimes.accessTokenSeconds,
    jti: randomUUID(),
    username: user.username,
  };
  const accessToken = signJwt(context.signingKey, applyClaimOverrides(accessClaims, access));
  const idClaims = {
    ...common,
    email_verified: user.attributes.email_verified === 'true',
    'cognito:username': user.username,
    aud: context.clientId,
    token_use: 'id',
    exp: now + context.lifetimes.idTokenSeconds,
    jti: randomUUID(),
    ...(user.attributes.email !== undefined ? { email: user.attributes.email } : {}),
  };
  const idToken = signJwt(context.signingKey, applyClaimOverrides(idClaims, overrides?.idTokenGeneration));
  return {
    AccessToken: accessToken,
    ExpiresIn: context.lifetimes.accessTokenSeconds,
    TokenType: 'Bearer' as const,
    IdToken: idToken,
  };
}

/**
 * A completed sign-in: new origin, all three tokens. `deviceKey` is the device the sign-in was
 * made on where the pool tracks devices; the tokens are bound to it.
 */
export async function issueTokens(
  context: PoolContext,
  user: UserRecord,
  authTime: number,
  source: TokenGenerationSource = 'TokenGeneration_Authentication',
  deviceKey?: string,
): Promise<AuthenticationResult> {
  const refreshToken = randomBytes(96).toString('base64url');
  const origin: OriginRecord = {
    jti: randomUUID(),
    username: user.username,
    authTime,
    refreshTokenHash: hashRefreshToken(refreshToken),
    expiresAt: context.now() + context.lifetimes.refreshTokenMs,
    revoked: false,
    ...(deviceKey !== undefined ? { deviceKey } : {}),
  };
  const tokens = await signTokens(context, user, origin, source);
  context.store.addOrigin(origin);
  return { ...tokens, RefreshToken: refreshToken };
}

/**
 * Device-bound refresh. Where the pool tracks devices, the tokens of a sign-in are linked to
 * the device it was made on; a refresh must name that device (DEVICE_KEY, or DeviceKey of
 * GetTokensFromRefreshToken) while it is a confirmed device of the user. No key, another key
 * (unknown, another device's or another user's), a device never confirmed or one forgotten
 * since: NotAuthorizedException "Invalid Refresh Token".
 * https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_GetTokensFromRefreshToken.html (DeviceKey)
 * https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_InitiateAuth.html (REFRESH_TOKEN_AUTH: DEVICE_KEY)
 * https://repost.aws/knowledge-center/cognito-invalid-refresh-token-error
 * https://aws.amazon.com/blogs/mobile/tracking-and-remembering-devices-using-amazon-cognito-your-user-pools/
 */
function assertRefreshDevice(
  context: PoolContext,
  user: UserRecord,
  origin: OriginRecord,
  deviceKey: string | undefined,
): void {
  if (!context.deviceTracking || origin.deviceKey === undefined) return;
  const device = devicesOf(user).find((candidate) => candidate.key === origin.deviceKey);
  if (deviceKey !== origin.deviceKey || device?.secret === undefined) throw ERRORS.invalidRefreshToken();
}

/** REFRESH_TOKEN_AUTH: new access and ID tokens of the same origin, no new refresh token. */
export async function refreshTokens(
  context: PoolContext,
  refreshToken: string,
  deviceKey?: string,
): Promise<AuthenticationResult> {
  const origin = context.store.originByRefreshToken(hashRefreshToken(refreshToken));
  if (!origin) throw ERRORS.invalidRefreshToken();
  const user = context.store.findUser(origin.username);
  if (user && !user.enabled) throw ERRORS.userDisabled();
  if (!user || origin.revoked) throw ERRORS.refreshTokenRevoked();
  if (origin.expiresAt <= context.now()) throw ERRORS.refreshTokenExpired();
  assertRefreshDevice(context, user, origin, deviceKey);
  return signTokens(context, user, origin, 'TokenGeneration_RefreshTokens');
}

/** RevokeToken: a refresh token's origin is revoked; unknown tokens are ignored (RFC 7009). */
export function revokeRefreshToken(context: PoolContext, token: string): void {
  if (verifyJwt(context.signingKey, token)) throw ERRORS.unsupportedTokenType();
  const origin = context.store.originByRefreshToken(hashRefreshToken(token));
  if (origin) context.store.revokeOrigin(origin);
}

/**
 * The caller of a token-authenticated operation: the access token must be signed by this
 * pool, be an access token of this client, unexpired, its sign-in still live, and carry the
 * `aws.cognito.signin.user.admin` scope.
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
  // Every operation authorized by an access token needs the user pool API scope.
  // https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-using-the-access-token.html
  const scopes = typeof claims.scope === 'string' ? claims.scope.split(' ') : [];
  if (!scopes.includes(COGNITO_ADMIN_SCOPE)) throw ERRORS.missingScope();
  return { user, origin };
}
