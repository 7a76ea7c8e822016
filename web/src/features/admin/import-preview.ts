import Papa from 'papaparse';
import { USERS_GROUP } from '#contracts/groups.ts';
import {
  IMPORT_COLUMNS,
  IMPORT_MESSAGES,
  importRecordSchema,
  importRowFromRecord,
  MAX_IMPORT_FILE_BYTES,
  MAX_IMPORT_ROWS,
  REQUIRED_IMPORT_COLUMNS,
  type ImportColumn,
  type ImportRow,
} from '#contracts/user-import.ts';

/**
 * The browser's side of a bulk import: the file is read and every row checked before
 * anything is sent. A file-level problem (size, encoding, headers, row count) refuses the
 * whole file; a row-level problem skips that row. The server checks each row again.
 */

export const FILE_PROBLEMS = {
  empty: 'The file is empty.',
  tooLarge: (bytes: number) =>
    `The file is ${(bytes / (1024 * 1024)).toFixed(1)} MB; an import file may be at most ${MAX_IMPORT_FILE_BYTES / (1024 * 1024)} MB (${MAX_IMPORT_ROWS} rows).`,
  binary: 'The file is not a text (CSV) file.',
  encoding: 'The file is not UTF-8 text. Save it as "CSV UTF-8" and choose it again.',
  noRows: 'The file has a header but no rows.',
  tooManyRows: (count: number) =>
    `The file has ${count} rows; at most ${MAX_IMPORT_ROWS} can be imported at once. Split it into smaller files.`,
  missingColumn: (column: string) => `The header has no ${column} column.`,
  duplicateColumn: (column: string) => `The header names the ${column} column more than once.`,
  unknownColumn: (column: string) =>
    `The header has an unknown column "${column}"; the columns are ${IMPORT_COLUMNS.join(', ')}.`,
  malformed: (line: number, message: string) => `Line ${line}: ${message}.`,
} as const;

export const ROW_PROBLEMS = {
  cellCount: (cells: number, columns: number) => `The row has ${cells} cells; the header has ${columns}`,
  duplicateEmail: (line: number) => `The same email is on line ${line}`,
} as const;

/** The file as text, or why it cannot be read as a UTF-8 CSV file. */
export async function readImportFile(file: Blob): Promise<{ text: string } | { problem: string }> {
  if (file.size === 0) return { problem: FILE_PROBLEMS.empty };
  if (file.size > MAX_IMPORT_FILE_BYTES) return { problem: FILE_PROBLEMS.tooLarge(file.size) };
  const bytes = new Uint8Array(await readBytes(file));
  // UTF-16 files (a BOM of FF FE or FE FF) and binaries (spreadsheets, images) hold NUL bytes.
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
    return { problem: FILE_PROBLEMS.encoding };
  if (bytes.includes(0)) return { problem: FILE_PROBLEMS.binary };
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    return { text };
  } catch {
    return { problem: FILE_PROBLEMS.encoding };
  }
}

const readBytes = (file: Blob): Promise<ArrayBuffer> =>
  typeof file.arrayBuffer === 'function'
    ? file.arrayBuffer()
    : new Promise((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(reader.result as ArrayBuffer);
        reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
        reader.readAsArrayBuffer(file);
      });

type RowStatus = 'ready' | 'exists' | 'invalid';

export interface PreviewRow {
  /** Line of the file (the header is line 1). */
  readonly line: number;
  readonly email: string;
  readonly companyName: string;
  readonly dashboards: readonly string[];
  readonly defaultDashboard: string;
  readonly role: string;
  readonly status: RowStatus;
  readonly problems: readonly string[];
  /** The companyName names no existing company: it is created only when the admin confirms. */
  readonly newCompany: boolean;
  /** The row as IMPORT_USER takes it, when it is valid. */
  readonly request?: ImportRow;
}

export type ImportPreview =
  | { readonly fileProblems: readonly string[] }
  | { readonly fileProblems: readonly []; readonly rows: readonly PreviewRow[] };

export interface PreviewContext {
  /** Dashboard ids of the catalogue. */
  readonly catalogue: readonly string[];
  /** Emails of the accounts that exist. */
  readonly existingEmails: readonly string[];
  /** Names of the companies that exist. */
  readonly companies: readonly string[];
}

function headerProblems(header: readonly string[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const column of header) {
    if (seen.has(column)) problems.push(FILE_PROBLEMS.duplicateColumn(column));
    seen.add(column);
    if (!(IMPORT_COLUMNS as readonly string[]).includes(column)) problems.push(FILE_PROBLEMS.unknownColumn(column));
  }
  for (const column of REQUIRED_IMPORT_COLUMNS)
    if (!seen.has(column)) problems.push(FILE_PROBLEMS.missingColumn(column));
  return [...new Set(problems)];
}

/** The messages of a failed row check, each once (an email problem comes with its reason). */
const issueMessages = (issues: readonly { message: string }[]) => [...new Set(issues.map((issue) => issue.message))];

/** Parses the CSV and checks every row against the catalogue, the accounts and the file itself. */
export function previewImport(text: string, context: PreviewContext): ImportPreview {
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy' });
  const malformed = parsed.errors
    .filter((error) => error.type === 'Quotes' || error.type === 'Delimiter')
    .map((error) => FILE_PROBLEMS.malformed((error.row ?? 0) + 1, error.message.replace(/\.$/, '')));
  if (malformed.length > 0) return { fileProblems: malformed };
  const [headerCells, ...records] = parsed.data;
  if (headerCells === undefined) return { fileProblems: [FILE_PROBLEMS.empty] };
  const header = headerCells.map((cell) => cell.trim());
  const problems = headerProblems(header);
  if (problems.length > 0) return { fileProblems: problems };
  if (records.length === 0) return { fileProblems: [FILE_PROBLEMS.noRows] };
  if (records.length > MAX_IMPORT_ROWS) return { fileProblems: [FILE_PROBLEMS.tooManyRows(records.length)] };

  const catalogue = new Set(context.catalogue.map((id) => id.toLowerCase()));
  const existing = new Set(context.existingEmails.map((email) => email.toLowerCase()));
  const companies = new Set(context.companies.map((name) => name.toLowerCase()));
  const firstLineOf = new Map<string, number>();
  const rows = records.map((cells, index): PreviewRow => {
    const line = index + 2;
    const record = Object.fromEntries(header.map((column, at) => [column, cells[at] ?? ''])) as Partial<
      Record<ImportColumn, string>
    >;
    const fields = importRowFromRecord(record);
    const shown = {
      line,
      email: fields.userEmail,
      companyName: fields.companyName,
      dashboards: fields.dashboards,
      defaultDashboard: fields.defaultDashboard,
      role: fields.role.trim() || USERS_GROUP,
      newCompany: fields.companyName !== '' && !companies.has(fields.companyName.toLowerCase()),
    };
    const rowProblems: string[] = [];
    if (cells.length !== header.length) rowProblems.push(ROW_PROBLEMS.cellCount(cells.length, header.length));
    const checked = importRecordSchema.safeParse(fields);
    if (!checked.success) rowProblems.push(...issueMessages(checked.error.issues));
    for (const id of fields.dashboards)
      if (!catalogue.has(id.toLowerCase())) rowProblems.push(IMPORT_MESSAGES.unknownDashboard(id));
    const key = fields.userEmail.toLowerCase();
    const first = firstLineOf.get(key);
    if (key !== '' && first !== undefined) rowProblems.push(ROW_PROBLEMS.duplicateEmail(first));
    else if (key !== '') firstLineOf.set(key, line);
    if (rowProblems.length > 0 || !checked.success)
      return { ...shown, status: 'invalid', problems: [...new Set(rowProblems)] };
    if (existing.has(key)) return { ...shown, status: 'exists', problems: [] };
    return { ...shown, status: 'ready', problems: [], request: checked.data };
  });
  return { fileProblems: [], rows };
}

/** The companies the ready rows name that do not exist yet, each once (the first spelling), in file order. */
export function newCompaniesOf(rows: readonly PreviewRow[]): string[] {
  const byKey = new Map<string, string>();
  for (const row of rows) {
    if (row.status === 'ready' && row.newCompany && !byKey.has(row.companyName.toLowerCase()))
      byKey.set(row.companyName.toLowerCase(), row.companyName);
  }
  return [...byKey.values()];
}
