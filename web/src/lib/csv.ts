import { unparse } from 'papaparse';

/** A cell as the product writes it; null and undefined become empty cells. */
export type CsvCell = string | number | boolean | null | undefined;

/**
 * Text that a spreadsheet could run as a formula gets a leading `'`, which spreadsheets show
 * as text (OWASP "CSV Injection"; ASVS 1.2.10). That is a cell starting with
 * - `=`, `+`, `-` or `@`, or a character whose compatibility form is one of them: the
 *   full-width `＝ ＋ － ＠` (U+FF1D, U+FF0B, U+FF0D, U+FF20) that East Asian input methods
 *   type, and the small forms (U+FE62, U+FE63, U+FE66, U+FE6B);
 * - whitespace or a control character (tab, CR, LF, NUL, space, no-break space U+00A0,
 *   ideographic space U+3000 and the other Unicode spaces), which a spreadsheet may strip
 *   before looking for one of the signs above.
 * Multi-line cells are checked from their first character too.
 */
const FORMULA_SIGN = /^[=+\-@]/;
const LEADING_BLANK_OR_CONTROL = /^[\s\p{Cc}]/u;

const startsLikeFormula = (text: string): boolean =>
  LEADING_BLANK_OR_CONTROL.test(text) || FORMULA_SIGN.test(text.charAt(0).normalize('NFKC'));

/** A cell's text with formula injection neutralised; numbers and booleans stay as they are. */
export const neutraliseCell = (cell: CsvCell): string | number | boolean => {
  if (cell === null || cell === undefined) return '';
  if (typeof cell !== 'string') return cell;
  return startsLikeFormula(cell) ? `'${cell}` : cell;
};

/**
 * RFC 4180 CSV (CRLF line ends, quotes where needed) with a header row. Every string cell
 * that could start a formula (see `startsLikeFormula`) is prefixed with `'`, header cells included.
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
