import { parse } from 'papaparse';
import { describe, expect, it, vi } from 'vitest';
import { downloadFile, neutraliseCell, toCsv } from '#web/lib/csv.ts';

const parsed = (text: string) => parse<string[]>(text, { newline: '\r\n' }).data;

describe('toCsv', () => {
  it('writes a header row and CRLF-separated rows that parse back to the same cells', () => {
    const text = toCsv(
      ['Email', 'Views', 'Note'],
      [
        ['a@example.com', 3, 'plain'],
        ['b@example.com', 0, 'comma, "quoted"\nand a second line'],
      ],
    );
    expect(text.split('\r\n')[0]).toBe('Email,Views,Note');
    expect(parsed(text)).toEqual([
      ['Email', 'Views', 'Note'],
      ['a@example.com', '3', 'plain'],
      ['b@example.com', '0', 'comma, "quoted"\nand a second line'],
    ]);
  });

  it.each(['=HYPERLINK("http://x")', '+1+2', '-2+3', '@SUM(A1)', '\tcmd', '\rcmd', '=1\n=2'])(
    'prefixes the formula-like cell %j with a quote',
    (cell) => {
      const [, row] = parsed(toCsv(['Value'], [[cell]]));
      expect(row).toEqual([`'${cell}`]);
    },
  );

  // Each leading character a spreadsheet may skip or read as a formula sign, written out one by one.
  it.each([
    ['a line feed', '\n=1+2'],
    ['a space', ' =1+2'],
    ['a no-break space U+00A0', '\u00A0=1+2'],
    ['an ideographic space U+3000', '\u3000=1+2'],
    ['a full-width equals sign U+FF1D', '\uFF1D1+2'],
    ['a full-width plus sign U+FF0B', '\uFF0B1+2'],
    ['a full-width hyphen-minus U+FF0D', '\uFF0D1+2'],
    ['a full-width commercial at U+FF20', '\uFF20SUM(A1)'],
    ['a small equals sign U+FE66', '\uFE661+2'],
    ['a null character', '\u0000=1+2'],
    ['a vertical tab', '\u000B=1+2'],
  ])('prefixes a cell starting with %s with a quote, in data and header rows', (_name, cell) => {
    expect(neutraliseCell(cell)).toBe(`'${cell}`);
    expect(parsed(toCsv([cell], [[cell]]))).toEqual([[`'${cell}`], [`'${cell}`]]);
  });

  it('leaves text with those characters further in alone', () => {
    for (const cell of ['a =1', 'a\u00A0b', 'a\u3000b', 'a\uFF1D1', 'x\n=1']) expect(neutraliseCell(cell)).toBe(cell);
    expect(neutraliseCell('')).toBe('');
  });

  it('neutralises header cells too, and leaves numbers, booleans and safe text alone', () => {
    expect(parsed(toCsv(['=Header'], [[-5], [true], ['a=b'], [null], [undefined]]))).toEqual([
      ["'=Header"],
      ['-5'],
      ['true'],
      ['a=b'],
      [''],
      [''],
    ]);
    expect(neutraliseCell(-1)).toBe(-1);
    expect(neutraliseCell('-1')).toBe("'-1");
  });

  it('refuses a row whose width differs from the header', () => {
    expect(() => toCsv(['A', 'B'], [['1', '2'], ['3']])).toThrow('CSV row 2 has 1 cells; the header has 2');
  });

  it('writes only the header for no rows', () => {
    expect(toCsv(['A', 'B'], [])).toBe('A,B');
  });
});

describe('downloadFile', () => {
  it('offers the text as a named download of the given type and releases the object URL', async () => {
    const blobs: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:csv-1';
    });
    const revokeObjectURL = vi.fn();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL }));
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });

    downloadFile('users.csv', 'text/csv;charset=utf-8', 'A,B\r\n1,2');

    expect(clicked).toHaveLength(1);
    expect(clicked[0]!.download).toBe('users.csv');
    expect(clicked[0]!.href).toBe('blob:csv-1');
    expect(clicked[0]!.isConnected).toBe(false);
    expect(blobs[0]!.type).toBe('text/csv;charset=utf-8');
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blobs[0]!);
    });
    expect(text).toBe('A,B\r\n1,2');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:csv-1');
  });
});
