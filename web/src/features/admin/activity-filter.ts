import type { AuditEntry } from '../../../../contracts/user-admin.ts';

/** What each audited action is called on the Activity tab. */
const ACTION_LABELS: Readonly<Record<string, string>> = {
  CREATE_USER: 'Create user',
  UPDATE_USER: 'Update user',
  ENABLE_USER: 'Enable user',
  DISABLE_USER: 'Disable user',
  DELETE_USER: 'Delete user',
  RESET_USER_MFA: 'Reset MFA',
  PROMOTE_TO_ADMIN: 'Make admin',
  REGISTER_USER: 'Register in QuickSight',
  INVITE_TO_DASHBOARD: 'Assign dashboard',
  REMOVE_FROM_DASHBOARD: 'Remove dashboard',
  SET_DASHBOARD_AS_DEFAULT: 'Set default dashboard',
  CREATE_DASHBOARD_METADATA: 'Create catalogue entry',
  UPDATE_DASHBOARD_METADATA: 'Update catalogue entry',
  DELETE_DASHBOARD_METADATA: 'Delete catalogue entry',
};

/** A readable name; actions added later show their code. */
export const actionLabel = (action: string) => ACTION_LABELS[action] ?? action;

export type OutcomeFilter = 'all' | AuditEntry['outcome'];

export interface ActivityFilter {
  /** Matched, without case, against who, what, whom and the detail. */
  readonly text: string;
  /** An action code, or '' for every action. */
  readonly action: string;
  readonly outcome: OutcomeFilter;
}

export const NO_FILTER: ActivityFilter = { text: '', action: '', outcome: 'all' };

const searchableText = (entry: AuditEntry) =>
  [entry.actor, entry.action, actionLabel(entry.action), entry.target ?? '', entry.detail ?? ''].join('\n').toLowerCase();

export function filterActivity(entries: readonly AuditEntry[], filter: ActivityFilter): readonly AuditEntry[] {
  const needle = filter.text.trim().toLowerCase();
  if (!needle && !filter.action && filter.outcome === 'all') return entries;
  return entries.filter(
    (entry) =>
      (!filter.action || entry.action === filter.action) &&
      (filter.outcome === 'all' || entry.outcome === filter.outcome) &&
      (!needle || searchableText(entry).includes(needle)),
  );
}

/** The actions present in the loaded entries, for the action filter, by their label. */
export function actionsIn(entries: readonly AuditEntry[]): { value: string; label: string }[] {
  return [...new Set(entries.map((entry) => entry.action))]
    .map((action) => ({ value: action, label: actionLabel(action) }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** Local date and time of an ISO timestamp (the raw text when it is not one). */
export function formatWhen(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : date.toLocaleString();
}
