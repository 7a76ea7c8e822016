import * as z from 'zod';
import { optionalCompanyName } from './companies.ts';
import { adminEmail, dashboardId } from './fields.ts';
import { ADMINS_GROUP, USERS_GROUP } from './groups.ts';
import { MESSAGES } from './messages.ts';

/**
 * Bulk onboarding: one CSV row per account (`email,companyName,dashboards,defaultDashboard,role`,
 * columns in any order, dashboard ids separated by `;`). The admin portal checks every row
 * before anything is written; the QuickSight management function checks each row again
 * (IMPORT_USER) and creates the account with the pool's invitation email.
 */

export const IMPORT_COLUMNS = ['email', 'companyName', 'dashboards', 'defaultDashboard', 'role'] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];
/** Columns a file must have; the others may be left out (empty values). */
export const REQUIRED_IMPORT_COLUMNS: readonly ImportColumn[] = ['email', 'dashboards'];

export const MAX_IMPORT_ROWS = 500;
export const MAX_IMPORT_FILE_BYTES = 1024 * 1024;
const MAX_DASHBOARDS_PER_ROW = 50;
const DASHBOARD_SEPARATOR = ';';

const IMPORT_ROLES = [USERS_GROUP, ADMINS_GROUP] as const;
type ImportRole = (typeof IMPORT_ROLES)[number];

/** The template the import dialog offers for download. */
export const IMPORT_TEMPLATE = `${IMPORT_COLUMNS.join(',')}\nname@example.com,Example Manufacturing,sales-performance;inventory-margins,sales-performance,Users\n`;

export const IMPORT_MESSAGES = {
  formula: (column: string) =>
    `${column} starts with =, +, -, @, a tab or a carriage return, which spreadsheets run as a formula`,
  role: 'Role must be Users or Admins',
  noDashboards: MESSAGES.selectDashboard,
  tooManyDashboards: `At most ${MAX_DASHBOARDS_PER_ROW} dashboards per user`,
  duplicateDashboard: (id: string) => `Dashboard ${id} is listed twice`,
  defaultNotListed: (id: string) => `Default dashboard ${id} is not among the user's dashboards`,
  unknownDashboard: (id: string) => `Dashboard ${id} is not in the catalogue`,
  created: 'Account created and invitation sent',
  exists: 'An account with this email already exists; nothing was changed',
} as const;

/** A cell a spreadsheet would evaluate (OWASP "CSV injection"). */
const looksLikeFormula = (value: string): boolean => /^[=+\-@\t\r]/.test(value);

const formulaFree = <T extends z.ZodType<string>>(schema: T, column: string) =>
  schema.refine((value) => !looksLikeFormula(value), { message: IMPORT_MESSAGES.formula(column) });

/** The role column: empty means Users; either spelling case. */
const importRole = z
  .string()
  .trim()
  .transform((value, ctx) => {
    if (value === '') return USERS_GROUP as ImportRole;
    const role = IMPORT_ROLES.find((candidate) => candidate.toLowerCase() === value.toLowerCase());
    if (role === undefined) {
      ctx.addIssue({ code: 'custom', message: IMPORT_MESSAGES.role });
      return z.NEVER;
    }
    return role;
  });

/** One row as the function takes it (IMPORT_USER): dashboards as a list, the default one of them. */
const importUserFields = {
  userEmail: formulaFree(z.string({ error: MESSAGES.adminEmailRequired }), 'email').pipe(adminEmail),
  // Empty: no company; otherwise a company name by the one rule names follow (contracts/companies.ts).
  companyName: formulaFree(optionalCompanyName, 'companyName').optional(),
  dashboards: z
    .array(formulaFree(dashboardId, 'dashboards'))
    .min(1, IMPORT_MESSAGES.noDashboards)
    .max(MAX_DASHBOARDS_PER_ROW, IMPORT_MESSAGES.tooManyDashboards),
  defaultDashboard: formulaFree(z.string().trim().max(512), 'defaultDashboard').optional(),
  role: z.enum(IMPORT_ROLES).default(USERS_GROUP),
};

/** Rules across the fields of one row: no dashboard twice, the default among them. */
const checkImportRow = (
  row: { dashboards: readonly string[]; defaultDashboard?: string | undefined },
  addIssue: (message: string, path: string) => void,
): void => {
  const seen = new Set<string>();
  for (const id of row.dashboards) {
    if (seen.has(id.toLowerCase())) addIssue(IMPORT_MESSAGES.duplicateDashboard(id), 'dashboards');
    seen.add(id.toLowerCase());
  }
  if (row.defaultDashboard && !seen.has(row.defaultDashboard.toLowerCase())) {
    addIssue(IMPORT_MESSAGES.defaultNotListed(row.defaultDashboard), 'defaultDashboard');
  }
};

export const importUserRequestSchema = z
  .object({ action: z.literal('IMPORT_USER'), ...importUserFields })
  .superRefine((row, ctx) =>
    checkImportRow(row, (message, path) => ctx.addIssue({ code: 'custom', message, path: [path] })),
  );

export const importUserResponseSchema = z.object({
  outcome: z.enum(['created', 'exists']),
  message: z.string(),
  userEmail: z.string(),
});
export type ImportUserResponse = z.infer<typeof importUserResponseSchema>;

/** A CSV record (header → cell) as the fields of IMPORT_USER, before validation. */
export const importRowFromRecord = (record: Readonly<Partial<Record<ImportColumn, string>>>) => ({
  userEmail: (record.email ?? '').trim(),
  companyName: (record.companyName ?? '').trim(),
  dashboards: (record.dashboards ?? '')
    .split(DASHBOARD_SEPARATOR)
    .map((id) => id.trim())
    .filter((id) => id !== ''),
  defaultDashboard: (record.defaultDashboard ?? '').trim(),
  role: record.role ?? '',
});

/** What the browser checks per row: the function's schema with the role column as written in a file. */
export const importRecordSchema = z
  .object({ ...importUserFields, role: importRole })
  .superRefine((row, ctx) =>
    checkImportRow(row, (message, path) => ctx.addIssue({ code: 'custom', message, path: [path] })),
  );
export type ImportRow = z.infer<typeof importRecordSchema>;
