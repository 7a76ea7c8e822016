import type { CapturedMail } from './messages.ts';

/**
 * The inbox's attachment downloads: `/messages/<message id>/attachments/<n>` (n from 1, in the message's
 * order), answered with the attachment's bytes as sent, its content type and `Content-Disposition: attachment`
 * with its file name (RFC 6266: an ASCII `filename` and the exact name as UTF-8 in `filename*`, RFC 8187).
 * An unknown message or attachment is a 404. What a download holds comes from whoever sent it: it is never
 * shown in the inbox's origin (attachment disposition, no sniffing, a sandbox with nothing allowed).
 */

/** What the inbox answers a GET with. */
export interface InboxAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Buffer;
}

const PREFIX = '/messages/';
const DOWNLOAD = /^\/messages\/([^/]+)\/attachments\/([1-9]\d{0,5})$/;

/** The path an attachment is downloaded at; `index` counts from 0. */
export const attachmentPath = (messageId: string, index: number) =>
  `${PREFIX}${encodeURIComponent(messageId)}/attachments/${index + 1}`;

export const isAttachmentPath = (path: string) => path.startsWith(PREFIX);

/** A media type as a header may carry it (`type/subtype`, parameters allowed), else a generic one. */
function safeContentType(value: string): string {
  const token = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
  const mediaType = new RegExp(`^${token}/${token}(\\s*;[\\x20-\\x7e]*)?$`);
  return mediaType.test(value) ? value : 'application/octet-stream';
}

/** `attachment; filename="..."; filename*=UTF-8''...`: the ASCII name has what is not plain ASCII replaced. */
function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\%/]/g, '_');
  // RFC 8187 attr-chars: encodeURIComponent leaves ' ( ) * as they are, which must be percent-encoded.
  const utf8 = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}

const notFound = (message: string): InboxAnswer => ({
  status: 404,
  headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  body: `${message}\n`,
});

/** The answer to a GET of a path under `/messages/`. */
export function attachmentDownload(path: string, messages: readonly CapturedMail[]): InboxAnswer {
  const match = DOWNLOAD.exec(path);
  if (!match) return notFound('No such attachment.');
  let id: string;
  try {
    id = decodeURIComponent(match[1]!);
  } catch {
    return notFound('No such message.');
  }
  const message = messages.find((candidate) => candidate.id === id);
  if (!message) return notFound('No such message.');
  const attachment = message.attachments[Number(match[2]) - 1];
  if (!attachment) return notFound('No such attachment.');
  return {
    status: 200,
    headers: {
      'content-type': safeContentType(attachment.contentType),
      'content-disposition': attachmentDisposition(attachment.fileName),
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'no-store',
    },
    body: Buffer.from(attachment.contentBase64, 'base64'),
  };
}
