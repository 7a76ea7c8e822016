import { unparse } from 'papaparse';

/** A cell as the product writes it; null and undefined become empty cells. */
export type CsvCell = string | number | boolean | null | undefined;

/**
 * Text that a spreadsheet would run as a formula (or that starts with a control character
 * some spreadsheets strip before doing so). Such cells get a leading `'`, which spreadsheets
 * show as text. Multi-line cells are checked from their first character too.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell's text with formula injection neutralised; numbers and booleans stay as they are. */
export const neutraliseCell = (cell: CsvCell): string | number | boolean => {
  if (cell === null || cell === undefined) return '';
  if (typeof cell !== 'string') return cell;
  return FORMULA_START.test(cell) ? `'${cell}` : cell;
};

/**
 * RFC 4180 CSV (CRLF line ends, quotes where needed) with a header row. Every string cell
 * starting with = + - @, tab or carriage return is prefixed with `'`, header cells included.
 */
export function toCsv(headers: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  const width = headers.length;
  for (const [index, row] of rows.entries()) {
    if (row.length !== width) throw new Error(`CSV row ${index + 1} has ${row.length} cells; the header has ${width}`);
  }
  const fields = headers.map((header) => String(neutraliseCell(header)));
  const options = { newline: '\r\n', quotes: false, escapeFormulae: false };
  // With no data rows papaparse would still end the header with a line break.
  if (rows.length === 0) return unparse([fields], options);
  return unparse({ fields, data: rows.map((row) => row.map(neutraliseCell)) }, options);
}

/** Offers text to the browser as a download named `name`. */
export function downloadFile(name: string, mime: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: mime }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click ran; the object URL is only needed until then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
