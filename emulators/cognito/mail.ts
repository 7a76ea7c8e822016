import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { POOL } from './config.ts';
import { ERRORS } from './errors.ts';
import type { StoredCode, UserRecord } from './state.ts';
import { escapeHtml } from '../shared/html.ts';

/** Messages the pool sends, its one-time codes and how it shows where they went. */

export interface OutgoingEmail {
  to: string;
  from?: string;
  subject: string;
  text: string;
  html?: string;
}

export type SendEmail = (message: OutgoingEmail) => Promise<void>;

export function verificationLinkEmail(to: string, link: string): OutgoingEmail {
  return {
    to,
    from: POOL.emailSender,
    subject: 'Your verification link',
    text: `Please click the link below to verify your email address.\n${link}\n`,
    html: `<p>Please click the link below to verify your email address.</p><p><a href="${escapeHtml(link)}">Verify Email</a></p>`,
  };
}

/** Cognito's default verification message: attribute changes are verified by code, never by link. */
export function verificationCodeEmail(to: string, code: string): OutgoingEmail {
  return {
    to,
    from: POOL.emailSender,
    subject: 'Your verification code',
    text: `Your verification code is ${code}.`,
  };
}

export function passwordResetEmail(to: string, code: string): OutgoingEmail {
  return {
    to,
    from: POOL.emailSender,
    subject: 'Your password reset code',
    text: `Your password reset code is ${code}`,
  };
}

export interface InvitationTemplate {
  readonly emailSubject: string;
  /** HTML with the placeholders {username} and {####}. */
  readonly emailMessage: string;
}

/** Cognito's message when the pool sets none. */
export const DEFAULT_INVITATION: InvitationTemplate = {
  emailSubject: 'Your temporary password',
  emailMessage: 'Your username is {username} and temporary password is {####}.',
};

/** The message as text: tags dropped, line breaks where blocks end, entities decoded. */
const htmlToText = (html: string) =>
  html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>/gi, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .trim();

/**
 * The invitation as Cognito sends it: the template is HTML, so the user name and the
 * temporary password go in escaped (a generated password may hold & or other symbols).
 */
export function invitationEmail(
  template: InvitationTemplate,
  to: string,
  username: string,
  temporaryPassword: string,
): OutgoingEmail {
  // Replacer functions: a generated password may hold `$&` or `$$`, which a replacement string would expand.
  const html = template.emailMessage
    .replaceAll('{username}', () => escapeHtml(username))
    .replaceAll('{####}', () => escapeHtml(temporaryPassword));
  return { to, from: POOL.emailSender, subject: template.emailSubject, text: htmlToText(html), html };
}

/** "demo.user@example.com" -> "d***@e***", as CodeDeliveryDetails.Destination shows it. */
function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.charAt(0)}***@${domain.charAt(0)}***`;
}

export function codeDeliveryDetails(email: string) {
  return { Destination: maskEmail(email), DeliveryMedium: 'EMAIL', AttributeName: 'email' };
}

export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

const hashCode = (username: string, code: string) => createHash('sha256').update(`${username}:${code}`).digest();

export function storeCode(username: string, code: string, expiresAt: number): StoredCode {
  return { hash: hashCode(username, code).toString('hex'), expiresAt, failedAttempts: 0 };
}

export type CodeCheck = 'ok' | 'mismatch' | 'expired' | 'locked';

/** A wrong guess counts against the code; after too many the code is dead. */
export function checkCode(username: string, stored: StoredCode | undefined, code: string, now: number): CodeCheck {
  if (!stored || stored.expiresAt <= now) return 'expired';
  if (stored.failedAttempts >= POOL.codeAttempts) return 'locked';
  const expected = Buffer.from(stored.hash, 'hex');
  if (timingSafeEqual(expected, hashCode(username, code))) return 'ok';
  stored.failedAttempts += 1;
  return 'mismatch';
}

/** Refuses a code email when the account already received too many this hour. */
export function recordCodeDelivery(user: UserRecord, now: number): void {
  const recent = user.codeDeliveries.filter((at) => at > now - 60 * 60_000);
  if (recent.length >= POOL.codeDeliveriesPerHour) throw ERRORS.attemptLimitExceeded();
  user.codeDeliveries = [...recent, now];
}
