import type { AuditEntry, AuditFilter } from '#contracts/user-admin.ts';

/** What each audited action is called on the Activity tab and in its exports. */
const ACTION_LABELS: Readonly<Record<string, string>> = {
  CREATE_USER: 'Create user',
  UPDATE_USER: 'Update user',
  ENABLE_USER: 'Enable user',
  DISABLE_USER: 'Disable user',
  DELETE_USER: 'Delete user',
  RESET_USER_MFA: 'Reset MFA',
  PROMOTE_TO_ADMIN: 'Make admin',
  RESEND_INVITATION: 'Resend invitation',
  IMPORT_USER: 'Import user',
  EXPORT_AUDIT_LOG: 'Export activity',
  REGISTER_USER: 'Register in QuickSight',
  INVITE_TO_DASHBOARD: 'Assign dashboard',
  REMOVE_FROM_DASHBOARD: 'Remove dashboard',
  SET_DASHBOARD_AS_DEFAULT: 'Set default dashboard',
  CREATE_DASHBOARD_METADATA: 'Create catalogue entry',
  UPDATE_DASHBOARD_METADATA: 'Update catalogue entry',
  DELETE_DASHBOARD_METADATA: 'Delete catalogue entry',
  CREATE_COMPANY: 'Create company',
  UPDATE_COMPANY: 'Update company',
  DELETE_COMPANY: 'Delete company',
  SET_USER_COMPANIES: 'Set user company',
  CHECK_COMPANY_ACCESS: 'Check company access',
  FIX_COMPANY_ACCESS: 'Fix company access',
  CONFIRM_SHARED_DATA: 'Confirm shared data',
  CREATE_SUBSCRIPTION: 'Subscribe',
  PAUSE_SUBSCRIPTION: 'Pause subscription',
  RESUME_SUBSCRIPTION: 'Resume subscription',
  DELETE_SUBSCRIPTION: 'Delete subscription',
  SEND_SUBSCRIPTION_NOW: 'Send subscription now',
  CANCEL_SUBSCRIPTION: 'Cancel subscription',
  DELIVER_SUBSCRIPTION: 'Deliver subscription',
};

/** A readable name; actions added later show their code. */
export const actionLabel = (action: string) => ACTION_LABELS[action] ?? action;

/** Every audited action, by name, for the action filter. */
export const ACTION_OPTIONS: readonly { value: string; label: string }[] = Object.entries(ACTION_LABELS)
  .map(([value, label]) => ({ value, label }))
  .sort((a, b) => a.label.localeCompare(b.label));

export type OutcomeFilter = 'all' | AuditEntry['outcome'];

/** The Activity tab's filter form as typed: dates are local calendar days (YYYY-MM-DD). */
export interface ActivityFilterForm {
  readonly actor: string;
  /** An action code, or '' for every action. */
  readonly action: string;
  readonly target: string;
  readonly outcome: OutcomeFilter;
  readonly fromDay: string;
  readonly toDay: string;
}

export const EMPTY_FILTER_FORM: ActivityFilterForm = {
  actor: '',
  action: '',
  target: '',
  outcome: 'all',
  fromDay: '',
  toDay: '',
};

export const REVERSED_RANGE = 'The From day must not be after the To day';

/**
 * The form as the server's filter: the From day from its local midnight, the To day up to
 * its last millisecond, both as ISO times; blank fields left out.
 */
export function toAuditFilter(form: ActivityFilterForm): AuditFilter {
  const from = form.fromDay ? new Date(`${form.fromDay}T00:00:00`) : undefined;
  const to = form.toDay ? new Date(`${form.toDay}T23:59:59.999`) : undefined;
  if (from !== undefined && to !== undefined && from > to) throw new RangeError(REVERSED_RANGE);
  return {
    actor: form.actor.trim() || undefined,
    target: form.target.trim() || undefined,
    ...(form.action ? { action: form.action } : {}),
    ...(form.outcome === 'all' ? {} : { outcome: form.outcome }),
    ...(from === undefined || Number.isNaN(from.getTime()) ? {} : { from: from.toISOString() }),
    ...(to === undefined || Number.isNaN(to.getTime()) ? {} : { to: to.toISOString() }),
  };
}

/** Local date and time of an ISO timestamp (the raw text when it is not one). */
export function formatWhen(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : date.toLocaleString();
}
