import { z } from 'zod';

/** One captured message as `mail.apiUrl` answers it (the list is newest first). */
const capturedMailSchema = z.object({
  id: z.string(),
  /** When it was captured (ISO time). */
  at: z.string(),
  from: z.string(),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  replyTo: z.array(z.string()),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
});
export type CapturedMail = z.infer<typeof capturedMailSchema>;
export const capturedMailListSchema = z.array(capturedMailSchema);

/** The fields of aws-ses-v2-local's stored email that the list is built from. */
export interface StoredEmail {
  readonly messageId: string;
  readonly from: string;
  readonly replyTo: readonly string[];
  readonly destination: { readonly to: readonly string[]; readonly cc: readonly string[] };
  readonly subject: string;
  readonly body: { readonly html?: string | undefined; readonly text?: string | undefined };
  /** Epoch seconds. */
  readonly at: number;
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&nbsp;': ' ',
};

/** Readable text of an HTML-only message, so a test can search every message's text. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<a\s[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, '$2 ($1)')
    .replace(/<br\s*\/?>|<\/(p|div|h\d|li|tr)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (entity) => ENTITIES[entity] ?? entity)
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function toCapturedMail(email: StoredEmail): CapturedMail {
  const html = email.body.html ?? null;
  return {
    id: email.messageId,
    at: new Date(email.at * 1000).toISOString(),
    from: email.from,
    to: [...email.destination.to],
    cc: [...email.destination.cc],
    replyTo: [...email.replyTo],
    subject: email.subject,
    text: email.body.text ?? (html === null ? '' : htmlToText(html)),
    html,
  };
}

/** Newest first; messages captured in the same second keep their arrival order reversed. */
export function newestFirst(emails: readonly StoredEmail[]): CapturedMail[] {
  return emails.map(toCapturedMail).reverse();
}
