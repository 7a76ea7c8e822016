import { setTimeout as sleep } from 'node:timers/promises';
import { capturedMailListSchema, type CapturedMail } from '#emulators/ses/messages.ts';
import type { StackInfo } from '#clients/local-stack.ts';

export type { CapturedMail } from '#emulators/ses/messages.ts';

export interface MailQuery {
  /** A recipient of the message (case-insensitive). */
  readonly to: string;
  /** Part of the subject, or a pattern it matches. */
  readonly subject?: string | RegExp;
  /** Ignore messages captured before this time (e.g. when the test's action started). */
  readonly since?: Date;
  /** @default 15_000 */
  readonly timeoutMs?: number;
}

/** Every captured message, newest first. */
export async function listMail(stack: StackInfo): Promise<CapturedMail[]> {
  const response = await fetch(stack.mail.apiUrl);
  if (!response.ok) throw new Error(`The mail capture answered ${response.status}`);
  return capturedMailListSchema.parse(await response.json());
}

function matches(mail: CapturedMail, query: MailQuery): boolean {
  const to = query.to.toLowerCase();
  if (!mail.to.some((address) => address.toLowerCase() === to || address.toLowerCase().endsWith(`<${to}>`)))
    return false;
  if (query.since && Date.parse(mail.at) < Math.floor(query.since.getTime() / 1000) * 1000) return false;
  if (query.subject === undefined) return true;
  return typeof query.subject === 'string' ? mail.subject.includes(query.subject) : query.subject.test(mail.subject);
}

/** The newest captured message matching the query, waiting for it to arrive. */
export async function readMail(stack: StackInfo, query: MailQuery): Promise<CapturedMail> {
  const deadline = Date.now() + (query.timeoutMs ?? 15_000);
  for (;;) {
    const found = (await listMail(stack)).find((mail) => matches(mail, query));
    if (found) return found;
    if (Date.now() > deadline) {
      throw new Error(
        `No mail to ${query.to}${query.subject ? ` with subject ${String(query.subject)}` : ''} arrived in time`,
      );
    }
    await sleep(250);
  }
}
