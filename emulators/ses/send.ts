import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { COGNITO_DEFAULT_SENDER } from '../shared/cognito-sender.ts';
import type { MailCapture } from './capture.ts';

/** The access key the sender signs its SES requests with. */
export interface SigningCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

export interface OutgoingMail {
  readonly to: string;
  readonly from?: string;
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
}

/** Sends emails through SES v2 SendEmail to the given endpoint of the local mail capture. */
export function mailSender(options: {
  readonly endpoint: string;
  readonly region: string;
  readonly credentials: SigningCredentials;
}) {
  const client = new SESv2Client({
    endpoint: options.endpoint,
    region: options.region,
    credentials: options.credentials,
  });
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

/**
 * Sender for the Cognito emulator's own emails (sign-up links, reset codes, invitations).
 * They go straight to the capture, past the SES sandbox. In AWS the user pool sends them
 * through this account's SES (lib/auth.ts), so while the account is in the sandbox they reach
 * only verified recipients, and real users need production access. Local mode deliberately
 * does not apply that here, so that sign-up, reset and invitation work for any address;
 * the product's own SendEmail calls (through `sesEndpoint`) still meet the sandbox.
 */
export function cognitoMailSender(
  capture: Pick<MailCapture, 'captureEndpoint'>,
  options: { readonly region: string; readonly credentials: SigningCredentials },
) {
  return mailSender({ endpoint: capture.captureEndpoint, ...options });
}
