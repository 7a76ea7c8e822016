/**
 * The file names a raw MIME message gives its parts, read from the headers of the message and of each body
 * part (RFC 2045/2046, nested `message/rfc822` parts included): a part's `Content-Disposition` filename or,
 * failing that, its `Content-Type` name, with RFC 2231 continuations and charsets and RFC 2047 encoded words
 * decoded. The bodies are not decoded: only the names are needed, to check them against the file extensions
 * SES refuses in a raw message too ("Amazon SES unsupported attachment types",
 * https://docs.aws.amazon.com/ses/latest/dg/mime-types.html).
 */

/** Bytes as text, one character per byte (header bytes stay as they are until a charset says otherwise). */
const asBytes = (text: string) => Buffer.from(text, 'latin1');

function decodeBytes(bytes: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset.trim() || 'utf-8').decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}

/** RFC 2047 encoded words (`=?utf-8?B?...?=`, `=?utf-8?Q?...?=`); whitespace between two words is dropped. */
function decodeWords(value: string): string {
  const joined = value.replace(/(=\?[^?\s]+\?[bq]\?[^?\s]*\?=)\s+(?==\?)/gi, '$1');
  return joined.replace(/=\?([^?\s]+)\?([bq])\?([^?\s]*)\?=/gi, (_, charset: string, encoding: string, text: string) =>
    decodeBytes(
      encoding.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64')
        : asBytes(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9a-f]{2})/gi, (_h, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          ),
      charset.split('*')[0]!,
    ),
  );
}

/** A header value's parameters by lower-case name (`; name="value"` or `; name=value`). */
function parameters(value: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of value.matchAll(/;\s*([^\s=;"]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g)) {
    const raw = match[2]!.trim();
    found.set(match[1]!.toLowerCase(), raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw);
  }
  return found;
}

/** One parameter's value: RFC 2231 (`name*=utf-8''...`, `name*0*=`, `name*1=`) before the plain `name=`. */
function parameter(params: Map<string, string>, name: string): string | undefined {
  const pieces: { readonly text: string; readonly encoded: boolean }[] = [];
  const single = params.get(`${name}*`);
  if (single !== undefined) pieces.push({ text: single, encoded: true });
  for (let i = 0; single === undefined; i += 1) {
    const encoded = params.get(`${name}*${i}*`);
    const plain = params.get(`${name}*${i}`);
    if (encoded === undefined && plain === undefined) break;
    pieces.push(encoded === undefined ? { text: plain!, encoded: false } : { text: encoded, encoded: true });
  }
  if (pieces.length === 0) {
    const plain = params.get(name);
    // Raw UTF-8 in a header (RFC 6532) first, then the encoded words, which are ASCII.
    return plain === undefined ? undefined : decodeWords(decodeBytes(asBytes(plain), 'utf-8'));
  }
  let charset = 'utf-8';
  const first = pieces[0]!;
  const withCharset = first.encoded ? /^([^']*)'[^']*'(.*)$/.exec(first.text) : null;
  if (withCharset) {
    charset = withCharset[1] || charset;
    pieces[0] = { text: withCharset[2]!, encoded: true };
  }
  const text = pieces
    .map((piece) =>
      piece.encoded
        ? piece.text.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
        : piece.text,
    )
    .join('');
  return decodeBytes(asBytes(text), charset);
}

/**
 * A header block's fields by lower-case name, each name's values in order and trimmed, folded lines unfolded
 * (RFC 5322, section 2.2.3). `lines` are the block's lines, without the blank line that ends it.
 */
function headerFields(lines: readonly string[]): Map<string, string[]> {
  const unfolded = lines
    .join('\r\n')
    .replace(/\r\n[ \t]+/g, ' ')
    .split('\r\n');
  const fields = new Map<string, string[]>();
  for (const line of unfolded) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    fields.set(name, [...(fields.get(name) ?? []), line.slice(colon + 1).trim()]);
  }
  return fields;
}

/** The header fields of a raw message, read as UTF-8 (RFC 6532 allows it in addresses and names). */
export function messageHeaders(raw: Buffer): Map<string, string[]> {
  const text = raw.toString('utf8');
  const end = text.search(/\r?\n\r?\n/);
  return headerFields((end < 0 ? text : text.slice(0, end)).split(/\r?\n/));
}

interface PartHeaders {
  readonly type: string;
  readonly disposition: string;
}

/** The name a part's headers give it, if any. */
function partName({ type, disposition }: PartHeaders): string | undefined {
  return parameter(parameters(disposition), 'filename') ?? parameter(parameters(type), 'name');
}

/** Every part's name in a raw message, in order. */
export function rawPartFileNames(raw: Buffer): string[] {
  const lines = raw.toString('latin1').split(/\r?\n/);
  const boundaries = new Set<string>();
  const names: string[] = [];
  let header: string[] | undefined = [];
  const endHeader = (lines: string[]) => {
    const fields = headerFields(lines);
    const field = (name: string) => fields.get(name)?.[0] ?? '';
    const part = { type: field('content-type'), disposition: field('content-disposition') };
    const boundary = parameters(part.type).get('boundary');
    if (boundary) boundaries.add(boundary);
    const name = partName(part);
    if (name !== undefined) names.push(name);
    // The body of an enclosed message starts with that message's own headers.
    return /^\s*message\/rfc822\b/i.test(part.type) ? [] : undefined;
  };
  for (const line of lines) {
    if (header) {
      if (line === '') header = endHeader(header);
      else header.push(line);
      continue;
    }
    if (line.startsWith('--')) {
      const marker = line.trimEnd().slice(2);
      if (boundaries.has(marker)) header = [];
    }
  }
  if (header && header.length > 0) endHeader(header);
  return names;
}
