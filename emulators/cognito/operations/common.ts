import { STANDARD_ATTRIBUTES } from '../config.ts';
import type { PoolContext } from '../context.ts';
import { ERRORS, invalidParameter } from '../errors.ts';
import type { UserRecord } from '../state.ts';

/** Pieces shared by the operations: pool and client checks, user lookups, answer shapes. */

export function requirePool(context: PoolContext, userPoolId: string): void {
  if (userPoolId !== context.userPoolId) throw ERRORS.poolNotFound(userPoolId);
}

export function requireClient(context: PoolContext, clientId: string): void {
  if (clientId !== context.clientId) throw ERRORS.clientNotFound(clientId);
}

/** Admin lookups report unknown users (user-existence errors are prevented only for clients). */
export function requireUser(context: PoolContext, username: string): UserRecord {
  const user = context.store.findUser(username);
  if (!user) throw ERRORS.userNotFound();
  return user;
}

/**
 * A client named an account that does not exist. With the app client's
 * PreventUserExistenceErrors on, the caller answers as for a wrong password or code
 * instead; with it off (LEGACY), Cognito says the user does not exist.
 */
export function revealMissingUser(context: PoolContext, user: UserRecord | undefined): void {
  if (!user && !context.client.preventUserExistenceErrors) throw ERRORS.userNotFound();
}

/** A parameter of AuthParameters or ChallengeResponses that must be there and not empty. */
export function requiredParameter(parameters: Record<string, string> | undefined, name: string): string {
  const value = parameters?.[name];
  if (value === undefined || value === '') throw ERRORS.missingAuthParameter(name);
  return value;
}

export const epochSeconds = (ms: number) => ms / 1000;

/** Opaque page tokens holding a position (`kind` keeps one listing's tokens out of another). */
export const pageToken = (kind: string, position: number) => Buffer.from(`${kind}:${position}`).toString('base64url');

export function readPageToken(kind: string, token: string | undefined): number {
  if (token === undefined) return 0;
  const match = /^([a-z]):(\d{1,15})$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  if (!match || match[1] !== kind) throw ERRORS.invalidPaginationToken();
  return Number(match[2]);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const isEmail = (value: string) => value.length <= 254 && EMAIL.test(value);

export function attributeList(user: UserRecord, only?: readonly string[]) {
  return Object.entries(user.attributes)
    .filter(([name]) => !only || only.includes(name))
    .map(([Name, Value]) => ({ Name, Value }));
}

/**
 * MFA fields of GetUser, AdminGetUser and GetUserAuthFactors: TOTP once verified and enabled (the
 * preferred factor if the user said so), and passkey MFA as WEB_AUTHN, its AuthFactorType name
 * (WebAuthnMfaSettings has no PreferredMfa: passkey MFA is never the preferred setting).
 */
export function mfaSettings(user: UserRecord) {
  const token = user.softwareToken;
  const totp = token.secret !== undefined && token.enabled;
  const list = [...(totp ? ['SOFTWARE_TOKEN_MFA'] : []), ...(user.passkeyMfa ? ['WEB_AUTHN'] : [])];
  if (list.length === 0) return {};
  return {
    UserMFASettingList: list,
    ...(totp && token.preferred ? { PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA' } : {}),
  };
}

/** UserType of the admin and listing operations. */
export function userType(user: UserRecord, only?: readonly string[]) {
  return {
    Username: user.username,
    Attributes: attributeList(user, only),
    UserCreateDate: epochSeconds(user.createdAt),
    UserLastModifiedDate: epochSeconds(user.updatedAt),
    Enabled: user.enabled,
    UserStatus: user.status,
  };
}

/**
 * The pool signs in by email, so the username given at creation is the email: an email
 * attribute may repeat it but not contradict it. Returns the other attributes.
 */
export function attributesBesideEmail(username: string, attributes: readonly AttributeUpdate[]): AttributeUpdate[] {
  if (!isEmail(username)) throw ERRORS.usernameNotEmail();
  const givenEmail = attributes.find((attribute) => attribute.Name === 'email')?.Value;
  if (givenEmail !== undefined && givenEmail.toLowerCase() !== username.toLowerCase()) {
    throw invalidParameter('The email attribute must match the username.');
  }
  return attributes.filter((attribute) => attribute.Name !== 'email');
}

export interface AttributeUpdate {
  Name: string;
  Value?: string | undefined;
}

/**
 * Checks attribute changes and returns the merged attributes; nothing is applied when one
 * is refused. Only administrators may mark attributes verified.
 */
export function mergeAttributes(
  current: Record<string, string>,
  updates: readonly AttributeUpdate[],
  by: 'admin' | 'user',
): Record<string, string> {
  const next = { ...current };
  for (const { Name, Value = '' } of updates) {
    if (Name === 'sub') throw ERRORS.immutableAttribute(Name);
    if (!STANDARD_ATTRIBUTES.has(Name)) throw ERRORS.attributeNotInSchema(Name);
    if (by === 'user' && Name.endsWith('_verified')) throw ERRORS.immutableAttribute(Name);
    if (Name === 'email' && !isEmail(Value)) throw invalidParameter('Invalid email address format.');
    if (Value === '') delete next[Name];
    else next[Name] = Value;
  }
  return next;
}

/** Applies attribute changes; a changed email is unverified unless an administrator says otherwise. */
export function applyAttributes(
  context: PoolContext,
  user: UserRecord,
  updates: readonly AttributeUpdate[],
  by: 'admin' | 'user',
): void {
  const next = mergeAttributes(user.attributes, updates, by);
  const emailChanged = next.email?.toLowerCase() !== user.attributes.email?.toLowerCase();
  if (emailChanged && next.email !== undefined && context.store.emailTaken(next.email, user.username)) {
    throw ERRORS.aliasExists();
  }
  const verifiedGiven = updates.some((update) => update.Name === 'email_verified');
  if (emailChanged && !verifiedGiven) next.email_verified = 'false';
  user.attributes = next;
  user.updatedAt = context.now();
  context.store.saveUser(user);
}
