import { SendEmailCommand } from '@aws-sdk/client-sesv2';
import { ENV } from '#contracts/env.ts';
import type { SubscriptionFormat } from '#contracts/subscriptions.ts';
import { ses } from '../shared/aws/ses.ts';
import { allowedOrigins, requireEnv } from '../shared/env.ts';

const CONTENT_TYPES: Record<SubscriptionFormat, string> = { PDF: 'application/pdf', CSV: 'text/csv' };

export interface DeliveryMail {
  readonly to: string;
  readonly dashboardId: string;
  readonly dashboardName: string;
  readonly format: SubscriptionFormat;
  /** Words for the schedule ("weekly on Monday at 08:00 (Europe/London)"). */
  readonly schedule: string;
  readonly companies: readonly string[];
  readonly file: Uint8Array;
  readonly at: Date;
}

/** SES refuses an attachment FileName over 255 characters (API_Attachment); the date and extension take 15. */
const MAX_NAME_BASE = 200;

/** A file name from the dashboard's name: letters, digits, spaces, dots and dashes kept. */
const attachmentName = (dashboardName: string, format: SubscriptionFormat, at: Date): string => {
  const cleaned = dashboardName.replace(/[^\p{L}\p{N} ._-]+/gu, ' ').replace(/\s+/g, ' ');
  const base = [...cleaned].slice(0, MAX_NAME_BASE).join('').trim() || 'Dashboard';
  return `${base} ${at.toISOString().slice(0, 10)}.${format.toLowerCase()}`;
};

/** The dashboard page of the portal's site: the first allowed origin is the site's. */
const dashboardUrl = (dashboardId: string): string => {
  const site = allowedOrigins()[0];
  if (!site) throw new Error(`${ENV.allowedOrigins} names no site origin`);
  return `${site}/dashboards/${encodeURIComponent(dashboardId)}`;
};

/**
 * Mails the file to the subscriber alone, from the portal's sender identity, as an attachment,
 * with the dashboard's name in the subject and a link to the dashboard.
 */
export const sendDeliveryMail = async (mail: DeliveryMail): Promise<void> => {
  const link = dashboardUrl(mail.dashboardId);
  const body = [
    `Your scheduled ${mail.format} of ${mail.dashboardName} is attached.`,
    '',
    `Companies: ${mail.companies.join(', ')}`,
    `Schedule: ${mail.schedule}`,
    '',
    `Open the dashboard: ${link}`,
    '',
    'You receive this because you subscribed in the analytics portal. To stop it, open Settings in the portal and delete the subscription.',
  ].join('\n');
  await ses.send(
    new SendEmailCommand({
      FromEmailAddress: requireEnv(ENV.supportFromAddress),
      Destination: { ToAddresses: [mail.to] },
      Content: {
        Simple: {
          Subject: { Data: `${mail.dashboardName}: your scheduled ${mail.format}`, Charset: 'UTF-8' },
          Body: { Text: { Data: body, Charset: 'UTF-8' } },
          Attachments: [
            {
              FileName: attachmentName(mail.dashboardName, mail.format, mail.at),
              ContentType: CONTENT_TYPES[mail.format],
              ContentDisposition: 'ATTACHMENT',
              RawContent: mail.file,
            },
          ],
        },
      },
    }),
  );
};
