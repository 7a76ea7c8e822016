/**
 * Passkeys (WebAuthn credentials) that satisfy the pool's required MFA: the MFA function's
 * passkey actions and answers, and the texts the screens show for each kind of passkey failure.
 * The browser does the ceremonies (navigator.credentials); Cognito keeps the credentials.
 */
import * as z from 'zod';

export { NO_PASSKEY_MESSAGE, PASSKEY_ERRORS } from './passkey-messages.ts';

/** A base64url value as WebAuthn's JSON forms carry them (credential ids, client data, signatures). */
const base64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, 'Must be base64url');

/** A credential id: Cognito accepts up to 131,072 characters; authenticators make ids of at most 1,023 bytes. */
const credentialIdSchema = base64url(1_400);

/**
 * The browser's answer to navigator.credentials.create, in its JSON form
 * (PublicKeyCredential.toJSON(), RegistrationResponseJSON): Cognito verifies it.
 */
const registrationCredentialSchema = z.object({
  id: credentialIdSchema,
  rawId: credentialIdSchema,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(8_192),
    attestationObject: base64url(32_768),
    transports: z.array(z.string().max(32)).max(8).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url(8_192).optional(),
    authenticatorData: base64url(32_768).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()),
});
export type RegistrationCredential = z.infer<typeof registrationCredentialSchema>;

/** The passkey actions of the MFA function (members of its request union, contracts/mfa.ts). */
export const passkeyRequestSchemas = [
  // Add a passkey: Cognito's creation options for this account, then the browser's credential.
  z.object({ action: z.literal('START_PASSKEY_REGISTRATION') }),
  z.object({ action: z.literal('COMPLETE_PASSKEY_REGISTRATION'), credential: registrationCredentialSchema }),
  z.object({ action: z.literal('LIST_PASSKEYS') }),
  z.object({ action: z.literal('DELETE_PASSKEY'), credentialId: credentialIdSchema }),
  // After a sign-in with a passkey: the passkey's last use, shown on the MFA page.
  z.object({ action: z.literal('PASSKEY_USED'), credentialId: credentialIdSchema }),
] as const;

/** START_PASSKEY_REGISTRATION: PublicKeyCredentialCreationOptionsJSON as Cognito gives it. */
export const passkeyRegistrationOptionsSchema = z.object({ options: z.record(z.string(), z.unknown()) });

export const passkeySchema = z.object({
  credentialId: z.string(),
  /** Cognito's name for it (FriendlyCredentialName). */
  name: z.string(),
  /** Epoch milliseconds. */
  createdAt: z.number(),
  /** Epoch milliseconds of the last sign-in with it; absent when never used since it was added. */
  lastUsedAt: z.number().optional(),
  /** Platform (this device's screen lock) or cross-platform (a security key, a phone). */
  attachment: z.string().optional(),
});
export type Passkey = z.infer<typeof passkeySchema>;

/** LIST_PASSKEYS (and the answer of COMPLETE_PASSKEY_REGISTRATION and DELETE_PASSKEY). */
export const passkeyListResponseSchema = z.object({
  passkeys: z.array(passkeySchema),
  /** A passkey with user verification counts as the account's MFA (WebAuthnMfaSettings). */
  passkeyMfa: z.boolean(),
  message: z.string().optional(),
});
export type PasskeyList = z.infer<typeof passkeyListResponseSchema>;

/**
 * The most passkeys the MFA page lets an account add. Cognito documents a LimitExceededException
 * for CompleteWebAuthnRegistration but no number; 20 is one page of ListWebAuthnCredentials.
 */
export const MAX_PASSKEYS = 20;

export const PASSKEY_ADDED_MESSAGE = 'Passkey added. You can now sign in with it instead of a code.';
export const PASSKEY_REMOVED_MESSAGE = 'Passkey removed';
export const PASSKEY_NOT_FOUND_MESSAGE = 'Passkey not found';
export const PASSKEYS_OFF_MESSAGE = 'Passkeys are not turned on for this portal.';
