import { escapeHtml } from '../shared/html.ts';
import { attachmentDownload, attachmentPath, isAttachmentPath, type InboxAnswer } from './inbox-downloads.ts';
import type { CapturedAttachment, CapturedMail } from './messages.ts';

/**
 * The inbox page of local mode's mail capture: every captured message, newest first, with its
 * sender, recipients, time and subject, and its text with each web address a link, so that a
 * sign-up link, an invitation or a reset code can be used at once. A message that has an HTML
 * version shows it too, on request, in a frame that runs no script; one with attachments lists
 * them (name, type, size), each a download link (inbox-downloads.ts). Everything a message holds
 * is escaped: its content comes from whoever sent it (a support message, a user's name).
 */

/** Web addresses in a message's text; a trailing full stop, comma or bracket is the sentence's, not the link's. */
const WEB_ADDRESS = /https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/g;

/** A message's text, escaped, with each web address a link. */
function linkedText(text: string): string {
  let html = '';
  let from = 0;
  for (const match of text.matchAll(WEB_ADDRESS)) {
    const address = match[0];
    html += escapeHtml(text.slice(from, match.index));
    html += `<a href="${escapeHtml(address)}">${escapeHtml(address)}</a>`;
    from = match.index + address.length;
  }
  return html + escapeHtml(text.slice(from));
}

const addresses = (label: string, list: readonly string[]) =>
  list.length === 0 ? '' : `<dt>${label}</dt><dd>${escapeHtml(list.join(', '))}</dd>`;

/** A size as people read it: bytes below a kilobyte, else KB or MB with one decimal (1024-based). */
function readableSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KB'] : [bytes / (1024 * 1024), 'MB'];
  return `${value.toFixed(1)} ${unit}`;
}

function attachmentsHtml(message: CapturedMail): string {
  if (message.attachments.length === 0) return '';
  const item = (attachment: CapturedAttachment, index: number) =>
    `<li><a href="${escapeHtml(attachmentPath(message.id, index))}" download="${escapeHtml(attachment.fileName)}">` +
    `${escapeHtml(attachment.fileName)}</a> <span class="meta">${escapeHtml(attachment.contentType)}, ` +
    `<data value="${attachment.size}">${readableSize(attachment.size)}</data>` +
    `${attachment.disposition === 'inline' ? ', inline' : ''}</span></li>`;
  return `<dt>Attachments</dt><dd><ul class="attachments">${message.attachments.map(item).join('')}</ul></dd>\n`;
}

function messageHtml(message: CapturedMail): string {
  const when = new Date(message.at);
  return `<article class="message">
<h2>${escapeHtml(message.subject || '(no subject)')}</h2>
<dl>
<dt>From</dt><dd>${escapeHtml(message.from)}</dd>
${addresses('To', message.to)}${addresses('Cc', message.cc)}${addresses('Reply to', message.replyTo)}
<dt>Received</dt><dd><time datetime="${escapeHtml(message.at)}">${escapeHtml(when.toUTCString())}</time></dd>
${attachmentsHtml(message)}</dl>
<pre class="text">${linkedText(message.text)}</pre>
${
  message.html === null
    ? ''
    : `<details><summary>HTML version</summary><iframe sandbox="allow-popups allow-popups-to-escape-sandbox" title="HTML version of ${escapeHtml(message.subject)}" srcdoc="${escapeHtml(message.html)}"></iframe></details>`
}
</article>`;
}

const STYLE = `
body { margin: 0 auto; max-width: 60rem; padding: 1.5rem; font: 15px/1.5 system-ui, sans-serif; color: #16191f; }
h1 { font-size: 1.5rem; margin: 0 0 0.25rem; }
.message { border: 1px solid #d1d5db; border-radius: 8px; padding: 1rem 1.25rem; margin: 1rem 0; }
.message h2 { font-size: 1.1rem; margin: 0 0 0.5rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.15rem 1rem; margin: 0 0 0.75rem; }
dt { color: #5f6b7a; }
dd { margin: 0; overflow-wrap: anywhere; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; font: inherit; background: #f4f4f5; padding: 0.75rem; border-radius: 6px; margin: 0; }
a { color: #0b63c5; }
iframe { width: 100%; min-height: 12rem; border: 1px solid #d1d5db; border-radius: 6px; margin-top: 0.5rem; }
.attachments { margin: 0; padding-left: 1.1rem; }
.meta { color: #5f6b7a; }
`;

/** The whole page for `messages` (newest first, as the capture lists them). */
function inboxPage(messages: readonly CapturedMail[]): string {
  const count = `${messages.length} ${messages.length === 1 ? 'message' : 'messages'}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mail inbox (local mode)</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Mail inbox</h1>
<p>Every message local mode sent, newest first: ${count}. Reload the page for new ones.</p>
${messages.length === 0 ? '<p>No message yet.</p>' : messages.map(messageHtml).join('\n')}
</body>
</html>
`;
}

/**
 * The inbox's answer to a GET of `path`: the page at the root, an attachment's download, a 404 for any other
 * path under the downloads' own, or undefined for a path that is not the inbox's.
 */
export function inboxAnswer(path: string, messages: () => readonly CapturedMail[]): InboxAnswer | undefined {
  if (path === '/') {
    return {
      status: 200,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        // The page holds what senders wrote: no script runs in it, nor in a message's HTML version.
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
      },
      body: inboxPage(messages()),
    };
  }
  return isAttachmentPath(path) ? attachmentDownload(path, messages()) : undefined;
}
