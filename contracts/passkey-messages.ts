/**
 * What the screens say about passkeys, without a schema library: the sign-in page imports these
 * and must stay within its budget (contracts/passkeys.ts holds the schemas and re-exports them).
 */

/** A passkey sign-in for an account the identity provider offers no passkey for. */
export const NO_PASSKEY_MESSAGE =
  'No passkey is set up for this account. Sign in with your password and authenticator code, then add one on the MFA page.';
/**
 * The passkey failures the spec names, each with what the user is told (user-portal.md, section 4:
 * not supported, already exists, invalid registration or authentication options, relying party
 * mismatch, registration failed, retrieval failed, canceled, aborted).
 */
export const PASSKEY_ERRORS = {
  notSupported: 'This browser or device cannot use passkeys. Sign in with your password and code instead.',
  alreadyExists: 'This device already holds a passkey for your account.',
  invalidRegistrationOptions: 'The portal sent passkey options this device cannot use. Please try again.',
  invalidAuthenticationOptions: 'The portal sent sign-in options this device cannot use. Please try again.',
  relyingPartyMismatch: 'This passkey belongs to another site than this portal.',
  registrationFailed: 'Your device could not create the passkey. Please try again.',
  retrievalFailed: 'No passkey for this account could be used on this device.',
  canceled: 'The passkey request was canceled.',
  aborted: 'The passkey request was interrupted. Please try again.',
} as const;
export type PasskeyErrorKind = keyof typeof PASSKEY_ERRORS;
