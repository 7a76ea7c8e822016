import Papa from 'papaparse';

/**
 * A CSV file (RFC 4180, CRLF line ends) from a header row and data rows. A cell that a
 * spreadsheet would run as a formula (starting with =, +, -, @, a tab or a carriage return)
 * is written with a leading apostrophe, so opening an export never executes its contents.
 */
export function toCsv(headers: readonly string[], rows: readonly (readonly (string | number | boolean | null | undefined)[])[]): string {
  return Papa.unparse(
    { fields: [...headers], data: rows.map((row) => row.map((cell) => (cell === null || cell === undefined ? '' : String(cell)))) },
    { escapeFormulae: true, newline: '\r\n', quotes: false },
  );
}

/** Offers `text` as a file download named `name`. */
export function downloadFile(name: string, mime: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: mime }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next turn, once the browser has started the download.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
