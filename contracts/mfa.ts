import * as z from 'zod';
import { mfaCode } from './fields.ts';
import { passkeyRequestSchemas } from './passkeys.ts';

/** A Cognito device key: `<region>_<uuid>` (at most 55 characters). */
const DEVICE_KEY = /^[a-z]{2}(-[a-z]+)+-\d_[0-9a-f-]{36}$/;

/** POST bodies of the MFA management function (always the caller's own account). */
export const mfaRequestSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('ASSOCIATE_SOFTWARE_TOKEN') }),
  z.object({
    action: z.literal('VERIFY_SOFTWARE_TOKEN'),
    mfaCode,
    friendlyDeviceName: z.string().trim().max(64).optional(),
  }),
  z.object({ action: z.literal('SET_MFA_PREFERENCE'), enabled: z.boolean(), preferred: z.boolean().optional() }),
  z.object({ action: z.literal('GET_MFA_STATUS') }),
  z.object({ action: z.literal('DISABLE_MFA') }),
  // Log out: every session of the account ends (refresh tokens and access tokens alike).
  z.object({ action: z.literal('SIGN_OUT_EVERYWHERE') }),
  // The devices Cognito tracks for the account, and forgetting one of them. Tokens from a
  // refresh cannot call Cognito's device operations, so the function does it for the caller.
  z.object({ action: z.literal('LIST_DEVICES') }),
  z.object({ action: z.literal('FORGET_DEVICE'), deviceKey: z.string().regex(DEVICE_KEY, 'Invalid device key') }),
  ...passkeyRequestSchemas,
]);
export type MfaRequest = z.infer<typeof mfaRequestSchema>;
export type MfaAction = MfaRequest['action'];

export const associateResponseSchema = z.object({ secretCode: z.string() });
export const verifyResponseSchema = z.object({ status: z.literal('SUCCESS'), message: z.string() });

/** The user pool's MFA mode, as Cognito names it (MfaConfiguration). */
export const mfaConfigurationSchema = z.enum(['ON', 'OPTIONAL', 'OFF']);
export type MfaConfiguration = z.infer<typeof mfaConfigurationSchema>;

export const mfaStatusResponseSchema = z.object({
  mfaEnabled: z.boolean(),
  mfaDevices: z.array(z.object({ DeliveryMedium: z.string() })),
  preferredMfa: z.string().optional(),
  /**
   * The pool requires MFA: the authenticator cannot be switched off, only replaced by
   * verifying a new one (ASSOCIATE_SOFTWARE_TOKEN, then VERIFY_SOFTWARE_TOKEN).
   */
  mfaRequired: z.boolean(),
});
export type MfaStatus = z.infer<typeof mfaStatusResponseSchema>;

/** DISABLE_MFA (or SET_MFA_PREFERENCE switching TOTP off) in a pool that requires MFA: 409. */
export const MFA_REQUIRED_MESSAGE =
  'Your account requires an authenticator app. Set up a new authenticator to replace the current one.';
/** DISABLE_MFA where MFA is optional: TOTP is off and sign-in no longer asks for a code. */
export const disableMfaResponseSchema = z.object({ message: z.string() });
export const messageResponseSchema = z.object({ message: z.string() });
export const deviceListResponseSchema = z.object({
  devices: z.array(
    z.object({
      key: z.string(),
      name: z.string(),
      /** Epoch milliseconds of the device's last sign-in. */
      lastUsed: z.number(),
      remembered: z.boolean(),
    }),
  ),
});
export type DeviceListResponse = z.infer<typeof deviceListResponseSchema>;
export const SIGNED_OUT_MESSAGE = 'Signed out on every device';
export const DEVICE_FORGOTTEN_MESSAGE = 'Device forgotten';

/**
 * Replacing or removing the authenticator needs a sign-in this recent (`auth_time` of the
 * access token, which a refresh does not move). Otherwise the function answers 401 with
 * REAUTHENTICATION_REQUIRED as `reason`; the SPA asks for the password and a current code,
 * signs in again and retries.
 */
export const RECENT_SIGN_IN_SECONDS = 300;
export const REAUTHENTICATION_REQUIRED = 'reauthenticationRequired';
export const REAUTHENTICATION_MESSAGE = 'Please confirm it is you: sign in again to change your authenticator.';
/** The actions that change the authenticator, the passkeys or whether they are used. */
export const STEP_UP_ACTIONS: ReadonlySet<MfaAction> = new Set([
  'ASSOCIATE_SOFTWARE_TOKEN',
  'VERIFY_SOFTWARE_TOKEN',
  'SET_MFA_PREFERENCE',
  'DISABLE_MFA',
  'START_PASSKEY_REGISTRATION',
  'COMPLETE_PASSKEY_REGISTRATION',
  'DELETE_PASSKEY',
]);
