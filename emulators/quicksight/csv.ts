/**
 * Delimited text as RFC 4180 defines it, read for ingestions and written for snapshot CSVs, with
 * the delimiter and text qualifier of the upload settings: records end with CRLF (or, read, a bare
 * LF), a field holding the delimiter, the qualifier or a line break is enclosed in the qualifier,
 * and a qualifier inside such a field is doubled. Blank lines hold no record.
 */

export class DelimitedTextError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DelimitedTextError';
  }
}

export interface DelimitedTextFormat {
  readonly delimiter: string;
  /** The text qualifier (RFC 4180's double quote, or a single quote). */
  readonly qualifier: string;
}

export function parseDelimited(text: string, { delimiter, qualifier }: DelimitedTextFormat): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let line = 1;
  let i = 0;
  /** Whether the current record has begun: a line with no character holds no record. */
  let started = false;

  const endField = () => {
    record.push(field);
    field = '';
  };
  const endRecord = () => {
    if (started) {
      endField();
      records.push(record);
    }
    record = [];
    field = '';
    started = false;
  };

  while (i < text.length) {
    const char = text[i]!;
    if (char === qualifier && field === '') {
      // A qualified field: up to the closing qualifier, doubled qualifiers standing for one.
      started = true;
      const openedOn = line;
      i += 1;
      for (;;) {
        if (i >= text.length)
          throw new DelimitedTextError(`the quoted field opened on line ${openedOn} is never closed`);
        const inner = text[i]!;
        if (inner === qualifier) {
          if (text[i + 1] === qualifier) {
            field += qualifier;
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        if (inner === '\n') line += 1;
        field += inner;
        i += 1;
      }
      const next = text[i];
      if (next !== undefined && next !== delimiter && next !== '\r' && next !== '\n') {
        throw new DelimitedTextError(`line ${line} has text after the closing ${qualifier} of a quoted field`);
      }
      continue;
    }
    if (char === delimiter) {
      started = true;
      endField();
      i += 1;
      continue;
    }
    if (char === '\r' || char === '\n') {
      endRecord();
      i += char === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line += 1;
      continue;
    }
    started = true;
    field += char;
    i += 1;
  }
  endRecord();
  return records;
}

/** Writes records as delimited text, each ending with CRLF, quoting the fields that need it. */
export function formatDelimited(
  records: readonly (readonly string[])[],
  { delimiter, qualifier }: DelimitedTextFormat,
) {
  const field = (value: string) =>
    value.includes(delimiter) || value.includes(qualifier) || /[\r\n]/.test(value)
      ? `${qualifier}${value.split(qualifier).join(qualifier + qualifier)}${qualifier}`
      : value;
  return records.map((record) => `${record.map(field).join(delimiter)}\r\n`).join('');
}
