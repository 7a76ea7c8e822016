import { SendEmailCommand } from '@aws-sdk/client-sesv2';
import { ENV } from '../../contracts/env.ts';
import type { ContactRequest } from '../../contracts/contact.ts';
import type { Caller } from '../shared/auth/caller.ts';
import { ses } from '../shared/aws/ses.ts';
import { requireEnvs } from '../shared/env.ts';
import { ForbiddenError, UpstreamError } from '../shared/errors.ts';
import { takeContactSlot } from './rate-limit.ts';

export const SENT_MESSAGE = 'Your message has been sent. Our support team will get back to you soon.';
export const NOT_YOUR_EMAIL_MESSAGE = 'The email address must be the one you are signed in with';

/**
 * Sends a support message from the fixed sender to the support address, with the signed-in
 * user as reply-to. The sender comes from the verified token; the body's email must match
 * it. Header fields were checked for line breaks by the request schema.
 */
export const sendContactMessage = async (request: ContactRequest, caller: Caller): Promise<{ message: string }> => {
  const config = requireEnvs([ENV.supportFromAddress, ENV.supportToAddress]);
  if (request.email.toLowerCase() !== caller.email) throw new ForbiddenError(NOT_YOUR_EMAIL_MESSAGE);
  const priority = request.priority || 'normal';
  const giveBack = await takeContactSlot(caller.email);
  try {
    await ses.send(
      new SendEmailCommand({
        FromEmailAddress: config[ENV.supportFromAddress],
        Destination: { ToAddresses: [config[ENV.supportToAddress]] },
        ReplyToAddresses: [caller.email],
        Content: {
          Simple: {
            Subject: { Data: `[Support][${priority}] ${request.subject}`, Charset: 'UTF-8' },
            Body: {
              Text: {
                Data: `From: ${caller.email}\nPriority: ${priority}\nSubject: ${request.subject}\n\n${request.message}\n`,
                Charset: 'UTF-8',
              },
            },
          },
        },
      }),
    );
  } catch {
    await giveBack().catch(() => undefined);
    throw new UpstreamError('Failed to send email');
  }
  return { message: SENT_MESSAGE };
};
