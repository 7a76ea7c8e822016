import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import type { LocalCredentials } from '../environment.ts';

/** Cognito's own sender address when a pool has no SES configuration. */
export const COGNITO_DEFAULT_SENDER = 'no-reply@verificationemail.com';

export interface OutgoingMail {
  readonly to: string;
  readonly from?: string;
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
}

/** Sends the identity provider's emails through SES v2 SendEmail to the local mail capture. */
export function mailSender(options: { readonly endpoint: string; readonly region: string; readonly credentials: LocalCredentials }) {
  const client = new SESv2Client({ endpoint: options.endpoint, region: options.region, credentials: options.credentials });
  return {
    async send(mail: OutgoingMail): Promise<void> {
      await client.send(
        new SendEmailCommand({
          FromEmailAddress: mail.from ?? COGNITO_DEFAULT_SENDER,
          Destination: { ToAddresses: [mail.to] },
          Content: {
            Simple: {
              Subject: { Data: mail.subject, Charset: 'UTF-8' },
              Body: {
                Text: { Data: mail.text, Charset: 'UTF-8' },
                ...(mail.html !== undefined && { Html: { Data: mail.html, Charset: 'UTF-8' } }),
              },
            },
          },
        }),
      );
    },
    destroy: () => client.destroy(),
  };
}
