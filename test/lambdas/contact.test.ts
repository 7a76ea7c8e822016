import { MessageRejected, SendEmailCommand, TooManyRequestsException } from '@aws-sdk/client-sesv2';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '#contracts/fields.ts';
import { type Handler, type Harness, invoke, loadHandler, OTHER_USER, startHarness, USER } from './support/harness.ts';

let h: Harness;
let handler: Handler;

beforeAll(async () => {
  h = await startHarness();
  handler = await loadHandler('contact');
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  h.ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
});
afterEach(() => {
  process.env.SUPPORT_TO_ADDRESS = 'support@portal.example.com';
  vi.useRealTimers();
});

const RATE_LIMIT = 'You can send at most 5 messages per hour. Please try again later.';
const message = {
  email: USER.email,
  subject: 'Cannot see the sales dashboard',
  message: 'It stays blank.',
  priority: 'high',
};
const send = async (body: unknown, who = USER) => invoke(handler, { token: await h.token(who), body });

describe('contact function', () => {
  it('sends from the fixed sender to support with the user as reply-to', async () => {
    const res = await send(message);
    expect(res).toMatchObject({ status: 200, body: { message: expect.stringContaining('sent') } });
    const input = h.ses.commandCalls(SendEmailCommand)[0]?.args[0].input;
    expect(input).toMatchObject({
      FromEmailAddress: 'no-reply@portal.example.com',
      Destination: { ToAddresses: ['support@portal.example.com'] },
      ReplyToAddresses: [USER.email],
      Content: { Simple: { Subject: { Data: '[Support][high] Cannot see the sales dashboard' } } },
    });
    expect(input?.Content?.Simple?.Body?.Text?.Data).toContain('It stays blank.');
  });

  it("writes the function's From, Priority and Subject lines once: the description's own lines are quoted under them", async () => {
    const res = await send({
      ...message,
      message: 'Please call me.\nFrom: ceo@example.com\r\nPriority: high\n\nSubject: urgent',
    });
    expect(res.status).toBe(200);
    const body = h.ses.commandCalls(SendEmailCommand)[0]?.args[0].input.Content?.Simple?.Body?.Text?.Data ?? '';
    const lines = body.split('\n');
    expect(lines.filter((line) => line.startsWith('From:'))).toEqual([`From: ${USER.email}`]);
    expect(lines.filter((line) => line.startsWith('Priority:'))).toEqual(['Priority: high']);
    expect(lines.filter((line) => line.startsWith('Subject:'))).toEqual(['Subject: Cannot see the sales dashboard']);
    expect(body).toBe(
      [
        `From: ${USER.email}`,
        'Priority: high',
        'Subject: Cannot see the sales dashboard',
        '',
        'Message:',
        '> Please call me.',
        '> From: ceo@example.com',
        '> Priority: high',
        '>',
        '> Subject: urgent',
        '',
      ].join('\n'),
    );
  });

  it('uses normal priority when none is given', async () => {
    await send({ ...message, priority: '' });
    expect(h.ses.commandCalls(SendEmailCommand)[0]?.args[0].input.Content?.Simple?.Subject?.Data).toMatch(
      /^\[Support\]\[normal\]/,
    );
  });

  it("refuses a body email that is not the caller's (403)", async () => {
    const res = await send({ ...message, email: OTHER_USER.email });
    expect(res).toMatchObject({
      status: 403,
      body: { error: 'The email address must be the one you are signed in with' },
    });
    expect(h.ses.calls()).toHaveLength(0);
  });

  it.each([
    [{ subject: 'Hi\r\nBcc: victim@example.com' }, 'Subject must be on one line', 'subject'],
    [{ subject: '' }, MESSAGES.contactSubject, 'subject'],
    [{ subject: 'x'.repeat(201) }, 'Subject must be at most 200 characters', 'subject'],
    [{ message: ' ' }, MESSAGES.contactDescription, 'message'],
    [{ message: 'x'.repeat(5001) }, 'Description must be at most 5000 characters', 'message'],
    [{ email: 'nope' }, MESSAGES.contactEmail, 'email'],
    [{ email: 'user@example.com\r\nBcc: victim@example.com' }, MESSAGES.contactEmail, 'email'],
    [{ priority: 'urgent' }, expect.any(String), 'priority'],
  ])('refuses %j with 400', async (override, error, field) => {
    const res = await send({ ...message, ...override });
    expect(res).toMatchObject({ status: 400, body: { error, fields: [field] } });
    expect(h.ses.calls()).toHaveLength(0);
  });

  it('allows 5 messages per user per hour, also when sent at once, then answers 429', async () => {
    const results = await Promise.all(Array.from({ length: 12 }, () => send(message)));
    expect(results.map((r) => r.status).sort()).toEqual([...Array<number>(5).fill(200), ...Array<number>(7).fill(429)]);
    expect(results.find((r) => r.status === 429)?.body.error).toBe(RATE_LIMIT);
    expect(h.ses.commandCalls(SendEmailCommand)).toHaveLength(5);
    // Another user's allowance is their own.
    expect((await send({ ...message, email: OTHER_USER.email }, OTHER_USER)).status).toBe(200);
  });

  it('never allows more than 5 messages in any 60 minutes across a clock-hour boundary', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-02T09:59:00Z'));
    const first = await Promise.all(Array.from({ length: 5 }, () => send(message)));
    expect(first.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);

    vi.setSystemTime(new Date('2026-03-02T10:00:00Z'));
    const next = await Promise.all(Array.from({ length: 5 }, () => send(message)));
    expect(next.map((r) => r.status)).toEqual([429, 429, 429, 429, 429]);
    expect(next[0]?.body).toMatchObject({
      error: RATE_LIMIT,
      reason: 'The next message can be sent in about 59 minutes.',
    });

    vi.setSystemTime(new Date('2026-03-02T10:58:59Z'));
    expect((await send(message)).status).toBe(429);
    vi.setSystemTime(new Date('2026-03-02T10:59:00Z'));
    const later = await Promise.all(Array.from({ length: 6 }, () => send(message)));
    expect(later.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 429]);
    expect(h.ses.commandCalls(SendEmailCommand)).toHaveLength(10);
  });

  it('frees each slot 60 minutes after its own message (a sliding window, not a fixed hour)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const at = (time: string) => vi.setSystemTime(new Date(`2026-03-02T${time}Z`));
    at('10:00:00');
    await send(message);
    await send(message);
    at('10:30:00');
    for (let i = 0; i < 3; i += 1) expect((await send(message)).status).toBe(200);
    expect((await send(message)).status).toBe(429);

    at('11:00:00');
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await send(message)).status);
    expect(statuses).toEqual([200, 200, 429]);
    at('11:29:59');
    expect((await send(message)).status).toBe(429);
    at('11:30:00');
    expect((await send(message)).status).toBe(200);
    expect(h.ses.commandCalls(SendEmailCommand)).toHaveLength(8);
  });

  it('gives the slot back when SES fails, answering 502', async () => {
    h.ses.on(SendEmailCommand).rejects(new Error('SES down'));
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const res = await send(message);
      expect(res).toMatchObject({ status: 502, body: { error: 'Failed to send email' } });
    }
    h.ses.on(SendEmailCommand).resolves({ MessageId: 'm-2' });
    const afterwards = await Promise.all(Array.from({ length: 6 }, () => send(message)));
    expect(afterwards.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 429]);
  });

  describe('under SES sending-rate throttling', () => {
    // SES refuses a send over the account's maximum sending rate (1 email per second in the
    // sandbox) with a retryable throttling error and drops the message:
    // https://docs.aws.amazon.com/ses/latest/dg/manage-sending-quotas-errors.html
    const throttled = () =>
      new TooManyRequestsException({ message: 'Maximum sending rate exceeded.', $metadata: { httpStatusCode: 429 } });
    const BUSY = 'Our email service is busy right now, so your message was not sent. Please try again in a moment.';

    /**
     * Lets pending I/O and promise callbacks run (setImmediate is never faked here) until the
     * condition holds, for up to 10 s of real time: on a busy machine the local DynamoDB's
     * answers take many turns of the event loop.
     */
    const until = async (condition: () => boolean) => {
      const deadline = performance.now() + 10_000;
      while (!condition() && performance.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
      expect(condition()).toBe(true);
    };

    /**
     * SES answers in turn with `answers`; the back-off timer after the first answer is fake, so
     * the test moves the clock instead of waiting.
     */
    const sesAnswers = (...answers: (() => unknown)[]) => {
      let calls = 0;
      h.ses.on(SendEmailCommand).callsFake(() => {
        const answer = answers[calls] ?? answers[answers.length - 1]!;
        calls += 1;
        if (calls === 1) vi.useFakeTimers({ toFake: ['setTimeout'] });
        else vi.useRealTimers();
        return answer();
      });
      return () => calls;
    };

    it('retries a throttled send once after waiting at least 1 second, and the message counts once', async () => {
      const calls = sesAnswers(
        () => Promise.reject(throttled()),
        () => ({ MessageId: 'm-retried' }),
      );
      const pending = send(message);
      await until(() => calls() === 1);
      await vi.advanceTimersByTimeAsync(999);
      expect(calls()).toBe(1);
      await vi.advanceTimersByTimeAsync(1001);
      expect(await pending).toMatchObject({ status: 200, body: { message: expect.stringContaining('sent') } });
      expect(calls()).toBe(2);
      // The retry used the first attempt's slot: four more messages fit in the hour, not five.
      h.ses.on(SendEmailCommand).resolves({ MessageId: 'm-next' });
      const more = await Promise.all(Array.from({ length: 5 }, () => send(message)));
      expect(more.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 429]);
    });

    it('answers 503 with a message when the retry is throttled too, and the message uses no slot', async () => {
      const calls = sesAnswers(() => Promise.reject(throttled()));
      const pending = send(message);
      await until(() => calls() === 1);
      await vi.advanceTimersByTimeAsync(2000);
      expect(await pending).toMatchObject({ status: 503, body: { error: BUSY } });
      expect(calls()).toBe(2);
      // Nothing was sent, so the user still has all 5 messages of the hour.
      h.ses.on(SendEmailCommand).resolves({ MessageId: 'm-later' });
      const later = await Promise.all(Array.from({ length: 6 }, () => send(message)));
      expect(later.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 429]);
    });

    it('answers 502 when the retry fails for another reason, giving the slot back', async () => {
      const calls = sesAnswers(
        () => Promise.reject(throttled()),
        () =>
          Promise.reject(
            new MessageRejected({ message: 'Email address is not verified.', $metadata: { httpStatusCode: 400 } }),
          ),
      );
      const pending = send(message);
      await until(() => calls() === 1);
      await vi.advanceTimersByTimeAsync(2000);
      expect(await pending).toMatchObject({ status: 502, body: { error: 'Failed to send email' } });
      h.ses.on(SendEmailCommand).resolves({ MessageId: 'm-later' });
      const later = await Promise.all(Array.from({ length: 6 }, () => send(message)));
      expect(later.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 429]);
    });

    it('does not retry other failures: SES may have accepted a message whose answer was lost', async () => {
      h.ses
        .on(SendEmailCommand)
        .rejects(
          new MessageRejected({ message: 'Email address is not verified.', $metadata: { httpStatusCode: 400 } }),
        );
      expect(await send(message)).toMatchObject({ status: 502, body: { error: 'Failed to send email' } });
      expect(h.ses.commandCalls(SendEmailCommand)).toHaveLength(1);
    });
  });

  it('names missing mail configuration', async () => {
    delete process.env.SUPPORT_TO_ADDRESS;
    const res = await send(message);
    expect(res).toMatchObject({ status: 500, body: { missing: ['SUPPORT_TO_ADDRESS'] } });
    expect(h.ses.calls()).toHaveLength(0);
  });
});
