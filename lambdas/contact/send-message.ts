import { SendEmailCommand } from '@aws-sdk/client-sesv2';
import { ENV } from '#contracts/env.ts';
import type { ContactRequest } from '#contracts/contact.ts';
import type { Caller } from '../shared/auth/caller.ts';
import { isAwsError } from '../shared/aws/config.ts';
import { ses } from '../shared/aws/ses.ts';
import { requireEnvs } from '../shared/env.ts';
import { ForbiddenError, HttpError, UpstreamError } from '../shared/errors.ts';
import { isVerificationAccount } from '#contracts/verification.ts';
import { takeContactSlot } from './rate-limit.ts';

export const SENT_MESSAGE = 'Your message has been sent. Our support team will get back to you soon.';
export const NOT_YOUR_EMAIL_MESSAGE = 'The email address must be the one you are signed in with';
export const SENDING_BUSY_MESSAGE =
  'Our email service is busy right now, so your message was not sent. Please try again in a moment.';

/**
 * The wait before the one retry of a throttled send: one to two seconds. SES refuses a send
 * over the account's maximum sending rate (1 email per second in the sandbox) with a
 * retryable throttling error and drops the message (SES developer guide, "Errors related to
 * the sending quotas for your Amazon SES account",
 * https://docs.aws.amazon.com/ses/latest/dg/manage-sending-quotas-errors.html); the AWS
 * Messaging blog's "How to handle a 'Throttling – Maximum sending rate exceeded' error" has
 * the sender back off and retry. One second is one period of the sandbox rate; the random
 * part keeps concurrent retries apart.
 */
export const THROTTLE_BACK_OFF_MS = 1000;

/** SES's refusals over the sending rate: v2 answers TooManyRequestsException, v1 and older SDKs name it Throttling. */
const isThrottled = (error: unknown) =>
  isAwsError(error, 'TooManyRequestsException', 'Throttling', 'ThrottlingException');

const backOff = () => new Promise<void>((resolve) => setTimeout(resolve, THROTTLE_BACK_OFF_MS * (1 + Math.random())));

/**
 * The text the support team reads: the lines the function writes (the sender from the verified
 * token, the priority, the subject), then the user's description quoted line by line. Quoting
 * keeps a line of the description such as `From: someone@else.example` from reading as one of
 * the function's own lines.
 */
const supportMailBody = (from: string, priority: string, request: ContactRequest): string => {
  const quoted = request.message
    .split(/\r\n|\r|\n/)
    .map((line) => (line === '' ? '>' : `> ${line}`))
    .join('\n');
  return `From: ${from}\nPriority: ${priority}\nSubject: ${request.subject}\n\nMessage:\n${quoted}\n`;
};

/**
 * Sends once and, when SES throttled it (the message was dropped, so it cannot arrive twice),
 * once more after the back-off. Other failures are not retried: SES may have accepted a
 * message whose answer was lost. The client makes no retries of its own (lambdas/shared/aws/ses.ts).
 */
const sendWithOneRetry = async (command: SendEmailCommand): Promise<void> => {
  try {
    await ses.send(command);
  } catch (error) {
    if (!isThrottled(error)) throw error;
    await backOff();
    await ses.send(command);
  }
};

/**
 * Sends a support message from the fixed sender to the support address, with the signed-in
 * user as reply-to. The sender comes from the verified token; the body's email must match
 * it. Header fields were checked for line breaks by the request schema. The message takes one
 * of the user's hourly slots, which is given back unless SES accepted it: a message not sent
 * counts against nothing, and the retry uses the same slot. A verification account's test
 * message (npm run verify-deployment, contracts/verification.ts) goes to the sender address
 * only, so the support team's inbox gets nothing from the smoke test.
 */
export const sendContactMessage = async (request: ContactRequest, caller: Caller): Promise<{ message: string }> => {
  const config = requireEnvs([ENV.supportFromAddress, ENV.supportToAddress]);
  if (request.email.toLowerCase() !== caller.email) throw new ForbiddenError(NOT_YOUR_EMAIL_MESSAGE);
  const priority = request.priority || 'normal';
  const giveBack = await takeContactSlot(caller.email);
  try {
    await sendWithOneRetry(
      new SendEmailCommand({
        FromEmailAddress: config[ENV.supportFromAddress],
        Destination: {
          ToAddresses: [
            isVerificationAccount(caller.email) ? config[ENV.supportFromAddress] : config[ENV.supportToAddress],
          ],
        },
        ReplyToAddresses: [caller.email],
        Content: {
          Simple: {
            Subject: { Data: `[Support][${priority}] ${request.subject}`, Charset: 'UTF-8' },
            Body: {
              Text: {
                Data: supportMailBody(caller.email, priority, request),
                Charset: 'UTF-8',
              },
            },
          },
        },
      }),
    );
  } catch (error) {
    await giveBack().catch(() => undefined);
    if (isThrottled(error)) {
      throw new HttpError(503, SENDING_BUSY_MESSAGE, {
        reason: 'The email service is sending as many messages as it may at the moment.',
      });
    }
    throw new UpstreamError('Failed to send email');
  }
  return { message: SENT_MESSAGE };
};
