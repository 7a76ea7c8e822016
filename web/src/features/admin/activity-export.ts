import type { AuditEntry, AuditFilter } from '#contracts/user-admin.ts';
import { toCsv } from '#web/lib/csv.ts';
import { actionLabel } from './activity-filter.ts';

/** Columns of an activity export: readable names, the action code for machines, ISO times. */
const EXPORT_COLUMNS = ['Time (UTC)', 'Admin', 'Action', 'Action code', 'Target', 'Outcome', 'Detail'] as const;

const outcomeLabel = (outcome: AuditEntry['outcome']) => (outcome === 'success' ? 'Success' : 'Failure');

/** The entries as CSV; cells that look like formulas are neutralised by `toCsv`. */
export function activityCsv(entries: readonly AuditEntry[]): string {
  return toCsv(
    EXPORT_COLUMNS,
    entries.map((entry) => [
      entry.at,
      entry.actor,
      actionLabel(entry.action),
      entry.action,
      entry.target ?? '',
      outcomeLabel(entry.outcome),
      entry.detail ?? '',
    ]),
  );
}

/** The entries as JSON, with the filter they were chosen by and when the export was made. */
export function activityJson(entries: readonly AuditEntry[], filter: AuditFilter, exportedAt: string): string {
  const document = {
    exportedAt,
    filter,
    count: entries.length,
    entries: entries.map((entry) => ({
      time: entry.at,
      admin: entry.actor,
      action: actionLabel(entry.action),
      actionCode: entry.action,
      target: entry.target,
      outcome: outcomeLabel(entry.outcome),
      detail: entry.detail ?? null,
    })),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** `activity-2026-03-14T10-00-00Z.csv`: sortable, no characters file systems refuse. */
export const exportFileName = (exportedAt: string, format: 'csv' | 'json') =>
  `activity-${exportedAt.replace(/\.\d+Z$/, 'Z').replace(/:/g, '-')}.${format}`;
