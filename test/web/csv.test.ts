import { parse } from 'papaparse';
import { describe, expect, it, vi } from 'vitest';
import { downloadFile, neutraliseCell, toCsv } from '../../web/src/lib/csv.ts';

const parsed = (text: string) => parse<string[]>(text, { newline: '\r\n' }).data;

describe('toCsv', () => {
  it('writes a header row and CRLF-separated rows that parse back to the same cells', () => {
    const text = toCsv(['Email', 'Views', 'Note'], [
      ['a@example.com', 3, 'plain'],
      ['b@example.com', 0, 'comma, "quoted"\nand a second line'],
    ]);
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
