import { AUDIT_EXPORT_MAX_ROWS, type AuditEntry, type AuditFilter } from '#contracts/user-admin.ts';
import { readAllAuditEntries } from '../shared/data/audit.ts';

type Auditor = <T>(
  target: string | null,
  work: () => Promise<T>,
  describe?: (result: T) => string | null,
) => Promise<T>;

/** The filter in words for the trail: "actor contains x; action CREATE_USER; from ... to ...". */
const describeAuditFilter = (filter: AuditFilter): string => {
  const parts = [
    filter.actor === undefined ? null : `actor contains "${filter.actor}"`,
    filter.action === undefined ? null : `action ${filter.action}`,
    filter.target === undefined ? null : `target contains "${filter.target}"`,
    filter.outcome === undefined ? null : `outcome ${filter.outcome}`,
    filter.from === undefined ? null : `from ${new Date(filter.from).toISOString()}`,
    filter.to === undefined ? null : `to ${new Date(filter.to).toISOString()}`,
  ].filter((part) => part !== null);
  return parts.length === 0 ? 'whole trail' : parts.join('; ');
};

/**
 * Every entry matching the filter for a file, recorded in the trail itself: who exported,
 * which filter and range, in which format and how many entries (or why it was refused).
 */
export const exportAuditLog = (
  filter: AuditFilter,
  format: 'csv' | 'json',
  audit: Auditor,
): Promise<{ entries: AuditEntry[]; exportedAt: string }> =>
  audit(
    null,
    async () => ({
      entries: await readAllAuditEntries(filter, AUDIT_EXPORT_MAX_ROWS),
      exportedAt: new Date().toISOString(),
    }),
    (result) => `${format.toUpperCase()} export of ${describeAuditFilter(filter)}: ${result.entries.length} entries`,
  );
