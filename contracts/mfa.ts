import * as z from 'zod';
import { mfaCode } from './fields.ts';

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

/**
 * Replacing or removing the authenticator needs a sign-in this recent (`auth_time` of the
 * access token, which a refresh does not move). Otherwise the function answers 401 with
 * REAUTHENTICATION_REQUIRED as `reason`; the SPA asks for the password and a current code,
 * signs in again and retries.
 */
export const RECENT_SIGN_IN_SECONDS = 300;
export const REAUTHENTICATION_REQUIRED = 'reauthenticationRequired';
export const REAUTHENTICATION_MESSAGE = 'Please confirm it is you: sign in again to change your authenticator.';
/** The actions that change the authenticator or whether it is used. */
export const STEP_UP_ACTIONS: ReadonlySet<MfaAction> = new Set(['ASSOCIATE_SOFTWARE_TOKEN', 'VERIFY_SOFTWARE_TOKEN', 'SET_MFA_PREFERENCE', 'DISABLE_MFA']);
