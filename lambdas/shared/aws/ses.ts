import { SESv2Client } from '@aws-sdk/client-sesv2';
import { ENV } from '#contracts/env.ts';
import { clientConfig } from './config.ts';

/**
 * One attempt per send: the contact function retries a throttled send itself, once, after
 * SES's back-off (lambdas/contact/send-message.ts), and retries nothing else, since SES may
 * have accepted a message whose answer was lost.
 */
export const ses = new SESv2Client({ ...clientConfig(ENV.sesEndpoint), maxAttempts: 1 });
