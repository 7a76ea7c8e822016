import { randomBytes } from 'node:crypto';
import { POOL } from './config.ts';
import type { PoolContext } from './context.ts';
import { ERRORS } from './errors.ts';
import type { PasskeyRecord, UserRecord } from './state.ts';
import type { PasskeyPool } from './webauthn-config.ts';

/**
 * Passkeys (WebAuthn credentials) of the pool's users: the options a ceremony starts from, in
 * the JSON forms Cognito answers with, and the descriptions ListWebAuthnCredentials lists.
 */

/** COSE algorithms Cognito offers in pubKeyCredParams: ES256 (-7) and RS256 (-257). */
export const PASSKEY_ALGORITHMS = [-7, -257] as const;

export const passkeysOf = (user: UserRecord): PasskeyRecord[] => user.passkeys ?? [];

/**
 * The pool's passkey settings, for the operations that need passkeys on: WEB_AUTHN must be an
 * allowed first factor (WebAuthnNotEnabledException otherwise, "the passkey feature isn't enabled
 * for the user pool") and the pool must have a relying party (WebAuthnConfigurationMissingException).
 */
export function requirePasskeyPool(context: PoolContext): PasskeyPool {
  if (!context.allowedFirstAuthFactors.includes('WEB_AUTHN')) throw ERRORS.webAuthnNotEnabled();
  if (!context.webAuthn) throw ERRORS.webAuthnConfigurationMissing();
  return context.webAuthn;
}

/** WebAuthn challenges: 32 random bytes, base64url. */
export const newWebAuthnChallenge = () => randomBytes(32).toString('base64url');

/** The WebAuthn user handle of an account: its username (the sub), UTF-8, base64url. */
export const userHandle = (user: UserRecord) => Buffer.from(user.username, 'utf8').toString('base64url');

/**
 * StartWebAuthnRegistration's CredentialCreationOptions, shaped as the AWS CLI's example of
 * start-web-authn-registration shows them: a resident key required, user verification as the pool
 * sets it, ES256 and RS256, the relying party ID as its name too, a 60-second timeout, the user's
 * passkeys excluded, and the user handle the base64url of the sub. The pool signs in by email, so
 * the name a person knows the account by is the email.
 */
export function creationOptions(pool: PasskeyPool, user: UserRecord, challenge: string) {
  const name = user.attributes.email ?? user.username;
  return {
    authenticatorSelection: {
      requireResidentKey: true,
      residentKey: 'required',
      userVerification: pool.userVerification,
    },
    challenge,
    excludeCredentials: passkeysOf(user).map((passkey) => ({ id: passkey.id, type: 'public-key' })),
    pubKeyCredParams: PASSKEY_ALGORITHMS.map((alg) => ({ alg, type: 'public-key' })),
    rp: { id: pool.relyingPartyId, name: pool.relyingPartyId },
    timeout: POOL.passkeyRegistrationMs,
    user: { displayName: name, id: userHandle(user), name },
  };
}

/** The passkeys a sign-in may use: those registered with the pool's current relying party. */
export const signInPasskeys = (pool: PasskeyPool, user: UserRecord) =>
  passkeysOf(user).filter((passkey) => passkey.relyingPartyId === pool.relyingPartyId);

/**
 * Whether the user's passkey sign-in requires user verification: always where the pool requires it,
 * and for a user with passkey MFA, whose "passkey authentication requires user verification"
 * (WebAuthnMfaSettingsType.Enabled,
 * https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_WebAuthnMfaSettingsType.html).
 */
export function signInUserVerification(pool: PasskeyPool, user: UserRecord): 'required' | 'preferred' {
  if (pool.userVerification === 'required') return 'required';
  return passkeyMfaActive(pool, user) ? 'required' : 'preferred';
}

/** Passkey MFA counts for this user: the pool lets passkeys satisfy MFA and the user turned it on. */
export const passkeyMfaActive = (pool: PasskeyPool, user: UserRecord) =>
  pool.factorConfiguration === 'MULTI_FACTOR_WITH_USER_VERIFICATION' && user.passkeyMfa === true;

/** The WEB_AUTHN challenge's CREDENTIAL_REQUEST_OPTIONS (PublicKeyCredentialRequestOptionsJSON). */
export function requestOptions(
  pool: PasskeyPool,
  user: UserRecord,
  challenge: string,
  userVerification: 'required' | 'preferred',
) {
  return {
    challenge,
    timeout: POOL.passkeySignInMs,
    rpId: pool.relyingPartyId,
    allowCredentials: signInPasskeys(pool, user).map((passkey) => ({
      id: passkey.id,
      type: 'public-key',
      ...(passkey.transports.length > 0 ? { transports: passkey.transports } : {}),
    })),
    userVerification,
  };
}

/**
 * The FriendlyCredentialName Cognito generates: the AWS CLI's example of list-web-authn-credentials
 * names a cross-platform (roaming) authenticator's passkey "Roaming passkey"; others are "Passkey".
 */
export const friendlyName = (attachment: PasskeyRecord['attachment']) =>
  attachment === 'cross-platform' ? 'Roaming passkey' : 'Passkey';

/** WebAuthnCredentialDescription. */
export function passkeyDescription(passkey: PasskeyRecord) {
  return {
    CredentialId: passkey.id,
    FriendlyCredentialName: passkey.friendlyName,
    RelyingPartyId: passkey.relyingPartyId,
    ...(passkey.attachment ? { AuthenticatorAttachment: passkey.attachment } : {}),
    AuthenticatorTransports: passkey.transports,
    CreatedAt: passkey.createdAt / 1000,
  };
}
