import { z } from 'zod';

/** One attachment of a captured message, with its content as sent (base64). */
const capturedAttachmentSchema = z.object({
  fileName: z.string(),
  contentType: z.string(),
  disposition: z.enum(['attachment', 'inline']),
  /** Bytes, decoded. */
  size: z.number(),
  contentBase64: z.string(),
});
export type CapturedAttachment = z.infer<typeof capturedAttachmentSchema>;

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
  /** In the message's order; none for messages captured before attachments were listed. */
  attachments: z.array(capturedAttachmentSchema).default([]),
});
export type CapturedMail = z.infer<typeof capturedMailSchema>;
export const capturedMailListSchema = z.array(capturedMailSchema);

/**
 * An attachment as aws-ses-v2-local stores it: from a Simple or Template content (`filename`, and the API's
 * `ContentDisposition` as `contentDisposition`), or as mailparser reads a raw message's part (`contentDisposition`
 * `attachment` or `inline`); its content in base64.
 */
interface StoredAttachment {
  readonly content: string;
  readonly contentType?: string | undefined;
  readonly filename?: string | undefined;
  readonly contentDisposition?: string | undefined;
}

/** The fields of aws-ses-v2-local's stored email that the list is built from. */
export interface StoredEmail {
  readonly messageId: string;
  readonly from: string;
  readonly replyTo: readonly string[];
  readonly destination: { readonly to: readonly string[]; readonly cc: readonly string[] };
  readonly subject: string;
  readonly body: { readonly html?: string | undefined; readonly text?: string | undefined };
  /** Missing in the messages of a data directory older than the package's attachments. */
  readonly attachments?: readonly StoredAttachment[] | undefined;
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

function toCapturedAttachment(stored: StoredAttachment, index: number): CapturedAttachment {
  const content = typeof stored.content === 'string' ? stored.content : '';
  return {
    // A raw message's part may have no name.
    fileName: stored.filename || `attachment-${index + 1}`,
    contentType: stored.contentType || 'application/octet-stream',
    disposition: stored.contentDisposition?.toLowerCase() === 'inline' ? 'inline' : 'attachment',
    size: Buffer.byteLength(content, 'base64'),
    contentBase64: content,
  };
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
    attachments: (email.attachments ?? []).map(toCapturedAttachment),
  };
}

/** Newest first; messages captured in the same second keep their arrival order reversed. */
export function newestFirst(emails: readonly StoredEmail[]): CapturedMail[] {
  return emails.map(toCapturedMail).reverse();
}
