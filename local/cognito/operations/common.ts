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

export const epochSeconds = (ms: number) => ms / 1000;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const isEmail = (value: string) => value.length <= 254 && EMAIL.test(value);

export function attributeList(user: UserRecord, only?: readonly string[]) {
  return Object.entries(user.attributes)
    .filter(([name]) => !only || only.includes(name))
    .map(([Name, Value]) => ({ Name, Value }));
}

/** MFA fields of GetUser / AdminGetUser. */
export function mfaSettings(user: UserRecord) {
  const token = user.softwareToken;
  if (!token.secret || !token.enabled) return {};
  return {
    UserMFASettingList: ['SOFTWARE_TOKEN_MFA'],
    ...(token.preferred ? { PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA' } : {}),
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
