/**
 * The browser's half of passkeys: navigator.credentials.create and .get through
 * @simplewebauthn/browser (which converts WebAuthn's JSON forms to and from its binary ones),
 * and every failure turned into one of the spec's passkey errors. Loaded only when a passkey is
 * used, so the sign-in page's first load does not carry it.
 */
import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  WebAuthnError,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { PASSKEY_ERRORS, type PasskeyErrorKind } from '#contracts/passkey-messages.ts';

/** A passkey ceremony that did not give a credential, with what the user is told. */
export class PasskeyError extends Error {
  constructor(readonly kind: PasskeyErrorKind) {
    super(PASSKEY_ERRORS[kind]);
    this.name = 'PasskeyError';
  }
}

type Ceremony = 'registration' | 'authentication';

/** The spec's kind of a failure of navigator.credentials (DOMException names, WebAuthn Level 3 §5.1.3 and §5.1.4). */
function kindOf(error: unknown, ceremony: Ceremony): PasskeyErrorKind {
  const code = error instanceof WebAuthnError ? error.code : undefined;
  const cause = error instanceof WebAuthnError && error.cause instanceof Error ? error.cause : error;
  const name = cause instanceof Error ? cause.name : '';
  if (code === 'ERROR_CEREMONY_ABORTED' || name === 'AbortError') return 'aborted';
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError')
    return ceremony === 'registration' ? 'alreadyExists' : 'retrievalFailed';
  if (code === 'ERROR_INVALID_DOMAIN' || code === 'ERROR_INVALID_RP_ID' || name === 'SecurityError')
    return 'relyingPartyMismatch';
  if (
    code === 'ERROR_INVALID_USER_ID_LENGTH' ||
    code === 'ERROR_MALFORMED_PUBKEYCREDPARAMS' ||
    name === 'TypeError' ||
    name === 'ConstraintError'
  )
    return ceremony === 'registration' ? 'invalidRegistrationOptions' : 'invalidAuthenticationOptions';
  if (
    code === 'ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG' ||
    code === 'ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT' ||
    code === 'ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT' ||
    name === 'NotSupportedError'
  )
    return 'notSupported';
  // The user closed the browser's prompt, or it timed out: the browser does not say which.
  if (name === 'NotAllowedError') return 'canceled';
  return ceremony === 'registration' ? 'registrationFailed' : 'retrievalFailed';
}

const requireSupport = () => {
  if (!browserSupportsWebAuthn()) throw new PasskeyError('notSupported');
};

/** Creates a passkey from the identity provider's creation options. */
export async function createPasskey(options: Record<string, unknown>): Promise<RegistrationResponseJSON> {
  requireSupport();
  if (typeof options.challenge !== 'string' || typeof options.rp !== 'object' || typeof options.user !== 'object')
    throw new PasskeyError('invalidRegistrationOptions');
  try {
    return await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
  } catch (error) {
    throw new PasskeyError(kindOf(error, 'registration'));
  }
}

/** Signs a sign-in challenge with a passkey: `options` is the identity provider's CREDENTIAL_REQUEST_OPTIONS. */
export async function signWithPasskey(options: string): Promise<AuthenticationResponseJSON> {
  requireSupport();
  let parsed: unknown;
  try {
    parsed = JSON.parse(options);
  } catch {
    throw new PasskeyError('invalidAuthenticationOptions');
  }
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    typeof (parsed as { challenge?: unknown }).challenge !== 'string'
  )
    throw new PasskeyError('invalidAuthenticationOptions');
  try {
    return await startAuthentication({ optionsJSON: parsed as PublicKeyCredentialRequestOptionsJSON });
  } catch (error) {
    throw new PasskeyError(kindOf(error, 'authentication'));
  }
}
