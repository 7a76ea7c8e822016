import type { PasswordVerifier } from './srp.ts';

/** Persisted records of the local user pool. Times are epoch milliseconds. */

export type UserStatus = 'UNCONFIRMED' | 'CONFIRMED' | 'FORCE_CHANGE_PASSWORD' | 'RESET_REQUIRED';

export interface StoredCode {
  /** SHA-256 of the code: codes are never kept in clear. */
  hash: string;
  expiresAt: number;
  failedAttempts: number;
}

export interface SoftwareToken {
  /**
   * The verified authenticator's base32 secret. In a pool that requires MFA, sign-in asks
   * for its code whatever the preference below says; only AdminDeleteSoftwareToken removes it.
   */
  secret?: string;
  /** TOTP enabled in the user's MFA preference (UserMFASettingList). */
  enabled: boolean;
  preferred: boolean;
  /** Associated but not yet verified; replaces `secret` once verified. */
  pendingSecret?: string;
  /** Highest 30-second step whose code was accepted: a code works once. */
  lastUsedStep?: number;
}

/**
 * The secret an account's authenticator codes come from: one being set up is the one its owner
 * needs codes for; otherwise the verified one, which sign-in asks for whatever the MFA
 * preference says.
 */
export const authenticatorSecret = (token: SoftwareToken): string | undefined => token.pendingSecret ?? token.secret;

export interface UserRecord {
  /** Generated UUID, equal to `sub` (the pool signs in by email). */
  username: string;
  /** Creation order; pagination tokens refer to it. */
  seq: number;
  attributes: Record<string, string>;
  status: UserStatus;
  enabled: boolean;
  createdAt: number;
  updatedAt: number;
  password?: PasswordVerifier;
  temporaryPasswordExpiresAt?: number;
  groups: string[];
  softwareToken: SoftwareToken;
  signInFailures: { count: number; lastFailureAt: number; lockedUntil: number };
  /** `emailVerification`: the code sent to a new or unverified email address (VerifyUserAttribute). */
  codes: { signUp?: StoredCode; passwordReset?: StoredCode; emailVerification?: StoredCode };
  /**
   * A new email address the pool holds until it is verified (UserAttributeUpdateSettings): the
   * account keeps its current `email` and `email_verified` until VerifyUserAttribute applies it.
   */
  pendingAttributes?: { email?: string };
  /** When codes were last sent, to refuse floods of code emails. */
  codeDeliveries: number[];
  /** Devices tracked for this user (absent in pools saved before device tracking). */
  devices?: DeviceRecord[];
  /** The user's passkeys, in registration order (absent in pools saved before passkeys). */
  passkeys?: PasskeyRecord[];
  /** Passkey MFA (WebAuthnMfaSettings.Enabled); absent means off. */
  passkeyMfa?: boolean;
}

/** A registered passkey (WebAuthnCredentialDescription, and what verifying its assertions needs). */
export interface PasskeyRecord {
  /** The credential ID, base64url. */
  id: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  /** COSE algorithm of the key: -7 (ES256) or -257 (RS256). */
  algorithm: number;
  /** The authenticator's signature counter last seen: a later assertion must carry a higher one. */
  counter: number;
  transports: string[];
  attachment?: 'platform' | 'cross-platform';
  friendlyName: string;
  relyingPartyId: string;
  createdAt: number;
}

/**
 * A device Cognito tracks for a user: issued as NewDeviceMetadata at the end of a sign-in,
 * confirmed with the client's SRP verifier (ConfirmDevice), then remembered or not.
 */
export interface DeviceRecord {
  /** `<region>_<uuid>`, as Cognito's device keys. */
  key: string;
  /** Stands for the pool name in the device's SRP computations. */
  groupKey: string;
  /** Set by ConfirmDevice: the device's SRP salt and verifier (hex). */
  secret?: { salt: string; verifier: string };
  name?: string;
  remembered: boolean;
  createdAt: number;
  updatedAt: number;
  lastAuthenticatedAt: number;
}

export interface GroupRecord {
  name: string;
  description?: string;
  precedence?: number;
  createdAt: number;
  updatedAt: number;
}

/** One sign-in: the refresh token and every access/ID token derived from it share its jti. */
export interface OriginRecord {
  jti: string;
  username: string;
  /** Epoch seconds of the sign-in (auth_time). */
  authTime: number;
  /** SHA-256 of the opaque refresh token. */
  refreshTokenHash: string;
  expiresAt: number;
  revoked: boolean;
  /**
   * Where the pool tracks devices: the device this sign-in was made on (the remembered device
   * that answered DEVICE_SRP_AUTH, the known device the client named, or the new device of
   * NewDeviceMetadata). A refresh must name it while it is confirmed and not forgotten.
   */
  deviceKey?: string;
}

export interface PoolMeta {
  userPoolId: string;
  clientId: string;
  region: string;
  createdAt: number;
  signingKey: { kid: string; privateKeyPem: string };
  /** Keys the decoy salts of unknown accounts so repeated attempts look alike. */
  decoySecret: string;
}

export interface PoolSnapshot {
  format: 1;
  /** Last journal sequence number contained in this snapshot. */
  seq: number;
  meta: PoolMeta;
  users: UserRecord[];
  groups: GroupRecord[];
  origins: OriginRecord[];
}

export type CollectionName = 'user' | 'group' | 'origin';

/** One journal line: the full new value of a record, or null when it was deleted. */
export interface JournalEntry {
  s: number;
  c: CollectionName;
  k: string;
  v: UserRecord | GroupRecord | OriginRecord | null;
}
