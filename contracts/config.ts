import { z } from 'zod';

/**
 * The SPA's runtime configuration, served as /config.json: written from stack outputs at
 * deploy time, and by local mode for the local endpoints. Checked at start-up.
 */
export const runtimeConfigSchema = z.object({
  productName: z.string().min(1),
  region: z.string().min(1),
  userPoolId: z.string().includes('_', { message: 'Invalid user pool id provided.' }),
  userPoolClientId: z.string().min(1),
  /** Set in local mode only: the identity provider's address. */
  cognitoEndpoint: z.url().optional(),
  graphqlUrl: z.url(),
  functions: z.object({
    embed: z.url(),
    quicksightAdmin: z.url(),
    userAdmin: z.url(),
    mfa: z.url(),
    contact: z.url(),
  }),
  /** Target of the sign-in page's 'Back to the marketing site' link. */
  marketingSiteUrl: z.url().optional(),
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;
