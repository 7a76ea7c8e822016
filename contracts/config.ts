import * as z from 'zod/mini';

/**
 * The SPA's runtime configuration, served as /config.json: written from stack outputs at
 * deploy time, and by local mode for the local endpoints. Checked at start-up. Written with
 * `zod/mini` because the check runs before the sign-in page, whose script budget is tight.
 */
/** Session limits the SPA enforces when the configuration gives none (and the deployment defaults). */
export const SESSION_DEFAULTS = {
  /** Signed out after this long without activity in any tab of the portal. */
  idleTimeoutMinutes: 30,
  /** Signed out this long after signing in, whatever the activity. */
  absoluteSessionMinutes: 720,
} as const;

const wholeMinutes = z.number().check(z.int(), z.positive());

const sessionSettingsSchema = z.object({
  idleTimeoutMinutes: wholeMinutes,
  absoluteSessionMinutes: wholeMinutes,
});
export type SessionSettings = z.infer<typeof sessionSettingsSchema>;

export const runtimeConfigSchema = z.object({
  productName: z.string().check(z.minLength(1)),
  region: z.string().check(z.minLength(1)),
  userPoolId: z.string().check(z.includes('_', { message: 'Invalid user pool id provided.' })),
  userPoolClientId: z.string().check(z.minLength(1)),
  /** Set in local mode only: the identity provider's address. */
  cognitoEndpoint: z.optional(z.url()),
  graphqlUrl: z.url(),
  functions: z.object({
    embed: z.url(),
    quicksightAdmin: z.url(),
    userAdmin: z.url(),
    mfa: z.url(),
    contact: z.url(),
  }),
  /** Target of the sign-in page's 'Back to the marketing site' link. */
  marketingSiteUrl: z.optional(z.url()),
  /** Idle and absolute session limits; `SESSION_DEFAULTS` when absent. */
  session: z.optional(sessionSettingsSchema),
  /** Whether the pool tracks devices: the sign-in then offers to remember the device. */
  rememberDevices: z.optional(z.boolean()),
  /** Whether passkeys are on: sign-in offers one, the MFA page adds and removes them. */
  passkeys: z.optional(z.boolean()),
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;
