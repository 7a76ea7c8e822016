import * as z from 'zod/mini';

/**
 * The SPA's runtime configuration, served as /config.json: written from stack outputs at
 * deploy time, and by local mode for the local endpoints. Checked at start-up. Written with
 * `zod/mini` because the check runs before the sign-in page, whose script budget is tight.
 */
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
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;
