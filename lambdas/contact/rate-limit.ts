import { CONTACT_LIMITS } from '#contracts/contact.ts';
import { type ReleaseSlot, type SlidingWindowLimit, takeRateLimitSlot } from '../shared/data/rate-limit.ts';
import { TooManyRequestsError } from '../shared/errors.ts';

const RATE_LIMIT_MESSAGE = `You can send at most ${CONTACT_LIMITS.perUserPerHour} messages per hour. Please try again later.`;

/** The sliding window: never more than `perUserPerHour` messages in any 60 minutes. */
const RATE_LIMIT_WINDOW_MS = 60 * 60 * 1000;

/**
 * One slot item per user and message of the window (pk USER#<email>, sk CONTACT-SLOT#<n>),
 * kept by the shared sliding-window limit (lambdas/shared/data/rate-limit.ts).
 */
const CONTACT_LIMIT: SlidingWindowLimit = {
  slotPrefix: 'CONTACT-SLOT#',
  perWindow: CONTACT_LIMITS.perUserPerHour,
  windowMs: RATE_LIMIT_WINDOW_MS,
  refusal: (wait) =>
    new TooManyRequestsError(RATE_LIMIT_MESSAGE, {
      reason: `The next message can be sent in about ${wait} minute${wait === 1 ? '' : 's'}.`,
    }),
};

/**
 * Takes one of the user's slots for a message; 429 when every slot was used within the last
 * window. Returns a function that gives the slot back when the message could not be sent.
 */
export const takeContactSlot = (email: string): Promise<ReleaseSlot> =>
  takeRateLimitSlot(CONTACT_LIMIT, `USER#${email}`);
