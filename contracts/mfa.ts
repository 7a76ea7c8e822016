import { z } from 'zod';
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
export const mfaStatusResponseSchema = z.object({
  mfaEnabled: z.boolean(),
  mfaDevices: z.array(z.object({ DeliveryMedium: z.string() })),
  preferredMfa: z.string().optional(),
});
export type MfaStatus = z.infer<typeof mfaStatusResponseSchema>;
/** The pool requires MFA: disabling removes the authenticator; setup runs again at next sign-in. */
export const disableMfaResponseSchema = z.object({ message: z.string(), setupRequiredAtNextSignIn: z.literal(true) });
export const messageResponseSchema = z.object({ message: z.string() });
