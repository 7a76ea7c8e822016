import { useId, useState, type FormEvent } from 'react';
import { MESSAGES } from '#contracts/fields.ts';
import type { DashboardMetadata } from '#contracts/quicksight-admin.ts';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { FormDialog } from '#web/components/form-dialog.tsx';
import { notify } from '#web/components/toaster.tsx';
import { useServerCall, type RunOptions } from '#web/lib/use-server-call.ts';
import type { InviteFields } from '../api/admin-api.ts';
import {
  ADMIN_FAILURES,
  failureDetailLines,
  failureText,
  inviteOutcome,
  inviteSummaryText,
  isNotScopedRefusal,
} from '../errors.ts';
import { DashboardPicker } from './dashboard-picker.tsx';
import './invite-modal.css';

interface InviteResult {
  readonly recordId: string;
  readonly name: string;
  /** null when assigned, else why not. */
  readonly error: string | null;
  /** The server's reason and suggestion for a failure, one line each. */
  readonly details?: readonly string[];
  /** Refused because the dashboard is not company-scoped: it may be repeated as shared data. */
  readonly notScoped: boolean;
}

const ASSIGN_SHARED_LABEL = 'Assign as shared data';

/**
 * The heading of a batch some of whose dashboards wait for the shared-data confirmation: a
 * question for the admin, not a failure, when nothing else went wrong.
 */
function sharedDataTitle(waiting: number): string {
  return waiting === 1
    ? 'This dashboard is not company-scoped: confirm shared data to assign it'
    : `These ${waiting} dashboards are not company-scoped: confirm shared data to assign them`;
}

/** An assignment never rejects: each dashboard's failure is in its result. */
const ASSIGN_REPORTS_FAILURES: RunOptions<never> = { failure: () => null };

export interface InviteModalProps {
  /** The user to invite, or null when closed. */
  readonly email: string | null;
  /** The user's companies as the assignment records them ('' when the user has none). */
  readonly company?: string;
  /** Whether the user has dashboards already: then no new one becomes the default unless chosen. */
  readonly hasDashboards?: boolean;
  readonly catalogue: readonly DashboardMetadata[];
  readonly onClose: () => void;
  /** Assigns one dashboard; called once per selected dashboard, in turn. */
  readonly invite: (fields: InviteFields) => Promise<unknown>;
  /** Called after a dashboard was assigned as shared data (the catalogue entry now records it). */
  readonly onSharedDataConfirmed?: () => void;
}

/** Dashboards the server refused, each with its reason and the server's detail lines; `mark` leads a failure. */
function RefusedList({
  results,
  className,
  mark,
}: {
  readonly results: readonly InviteResult[];
  readonly className: string;
  readonly mark: string;
}) {
  return (
    <ul className="invite-results">
      {results.map((result) => (
        <li key={result.recordId} className={className}>
          {`${mark}${result.name}: ${result.error}`}
          {result.details?.map((line) => (
            <span key={line} className="invite-result-detail">
              {line}
            </span>
          ))}
        </li>
      ))}
    </ul>
  );
}

function InviteDialog({
  email,
  company = '',
  hasDashboards = true,
  catalogue,
  onClose,
  invite,
  onSharedDataConfirmed,
}: { readonly email: string } & Omit<InviteModalProps, 'email'>) {
  const radioGroup = useId();
  const [selected, setSelected] = useState<readonly string[]>([]);
  const [defaultId, setDefaultId] = useState<string | null>(null);
  const [validation, setValidation] = useState<string | null>(null);
  const { busy, run } = useServerCall<'invite', never, InviteResult[]>();
  const [results, setResults] = useState<readonly InviteResult[] | null>(null);

  const byId = new Map(catalogue.map((dashboard) => [dashboard.id, dashboard]));
  const chosen = selected.flatMap((id) => byId.get(id) ?? []);

  const toggle = (recordId: string) => {
    setValidation(null);
    // A changed selection is a new batch: Invite again, not a confirmation of the last one's refusals.
    setResults(null);
    const removing = selected.includes(recordId);
    setSelected(removing ? selected.filter((id) => id !== recordId) : [...selected, recordId]);
    // Deselecting the default dashboard clears the default.
    if (removing && defaultId === recordId) setDefaultId(null);
    // A user without dashboards gets the first one picked as their default (they may choose another).
    if (!removing && selected.length === 0 && !hasDashboards) setDefaultId(recordId);
  };

  /** Assigns each dashboard in turn; with `confirmSharedData`, as shared data. */
  const assign = async (
    dashboards: readonly DashboardMetadata[],
    confirmSharedData: boolean,
  ): Promise<InviteResult[]> => {
    const outcome: InviteResult[] = [];
    for (const dashboard of dashboards) {
      try {
        await invite({
          userEmail: email,
          dashboardId: dashboard.dashboardId,
          dashboardName: dashboard.dashboardName,
          dashboardLink: dashboard.dashboardLink,
          makeDefault: dashboard.id === defaultId,
          ...(confirmSharedData ? { confirmSharedData } : {}),
        });
        outcome.push({ recordId: dashboard.id, name: dashboard.dashboardName, error: null, notScoped: false });
      } catch (error) {
        outcome.push({
          recordId: dashboard.id,
          name: dashboard.dashboardName,
          error: failureText(error, ADMIN_FAILURES.invite),
          details: failureDetailLines(error),
          notScoped: isNotScopedRefusal(error),
        });
      }
    }
    return outcome;
  };

  /** Closes with the summary when everything was assigned; otherwise keeps the results in view. */
  const finish = (outcome: readonly InviteResult[]) => {
    const failed = outcome.filter((result) => result.error !== null).length;
    const summary = inviteSummaryText(outcome.length - failed, failed);
    if (failed === 0) {
      notify.success(summary);
      onClose();
      return;
    }
    setResults(outcome);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (chosen.length === 0) {
      setValidation(MESSAGES.selectDashboard);
      return;
    }
    setResults(null);
    const outcome = await run('invite', () => assign(chosen, false), ASSIGN_REPORTS_FAILURES);
    if (outcome) finish(outcome);
  };

  /** Repeats the refused not-scoped assignments with the admin's confirmation of shared data. */
  const assignShared = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || results === null) return;
    const refused = new Set(results.filter((result) => result.notScoped).map((result) => result.recordId));
    const outcome = await run(
      'invite',
      () =>
        assign(
          chosen.filter((dashboard) => refused.has(dashboard.id)),
          true,
        ),
      ASSIGN_REPORTS_FAILURES,
    );
    if (!outcome) return;
    if (outcome.some((result) => result.error === null)) onSharedDataConfirmed?.();
    const repeated = new Map(outcome.map((result) => [result.recordId, result]));
    finish(results.map((result) => repeated.get(result.recordId) ?? result));
  };

  const waitingResults = results?.filter((result) => result.notScoped) ?? [];
  const failedResults = results?.filter((result) => result.error !== null && !result.notScoped) ?? [];
  const assignedResults = results?.filter((result) => result.error === null) ?? [];
  // Refusals that only wait for the admin's confirmation are a question (warning), not a failure; the dialog's own
  // button then asks it, so the one primary action is the one the admin is asked to take.
  const confirming = waitingResults.length > 0;
  const outcome =
    confirming && failedResults.length === 0
      ? { tone: 'warning' as const, title: sharedDataTitle(waitingResults.length) }
      : inviteOutcome(assignedResults.length, failedResults.length + waitingResults.length);

  return (
    <FormDialog
      wide
      title="Invite to Dashboard"
      onClose={onClose}
      onSubmit={(event) => void (confirming ? assignShared(event) : submit(event))}
      busy={busy}
      submitLabel={confirming ? ASSIGN_SHARED_LABEL : 'Invite'}
      busyLabel={confirming ? 'Assigning...' : 'Inviting...'}
    >
      <p className="text-muted">
        Assign dashboards to <strong>{email}</strong>.
      </p>
      {results && (
        <Alert tone={outcome.tone} title={outcome.title} className="invite-outcome">
          {failedResults.length > 0 && (
            <>
              <p className="invite-results-heading">Not assigned ({failedResults.length}):</p>
              <RefusedList results={failedResults} className="is-failed" mark="✗ " />
            </>
          )}
          {confirming && (
            <>
              <p className="invite-results-heading">Waiting for your confirmation ({waitingResults.length}):</p>
              <RefusedList results={waitingResults} className="is-waiting" mark="" />
            </>
          )}
          {assignedResults.length > 0 && (
            <>
              <p className="invite-results-heading">Assigned ({assignedResults.length}):</p>
              <ul className="invite-results">
                {assignedResults.map((result) => (
                  <li key={result.recordId} className="is-ok">
                    {`✓ ${result.name}: assigned`}
                  </li>
                ))}
              </ul>
            </>
          )}
          {confirming && (
            <p className="shared-data-confirm">
              {ASSIGN_SHARED_LABEL} records that every company{' '}
              {waitingResults.length === 1 ? 'it reaches' : 'they reach'} may see all of{' '}
              {waitingResults.length === 1 ? 'its' : 'their'} rows. Cancel to leave{' '}
              {waitingResults.length === 1 ? 'it' : 'them'} unassigned.
            </p>
          )}
        </Alert>
      )}
      {/* The assignment's company comes from the company model (the server fills it): text, not a field. */}
      <dl className="invite-company">
        <dt className="field-label">Company Name</dt>
        <dd>{company || 'No company'}</dd>
        <dd className="field-hint">From the user's company. Change it with Edit User on Manage Users.</dd>
      </dl>
      <DashboardPicker
        label="Dashboards"
        dashboards={catalogue}
        selected={selected}
        onToggle={toggle}
        invalid={validation !== null}
      />
      {validation && (
        <p className="field-error" role="alert">
          {validation}
        </p>
      )}
      {chosen.length > 0 && (
        <fieldset className="selected-dashboards">
          <legend className="field-label">Selected dashboards</legend>
          <ul>
            {chosen.map((dashboard) => (
              <li key={dashboard.id} className="selected-dashboard">
                <span className="selected-dashboard-name">{dashboard.dashboardName}</span>
                <label className="selected-dashboard-default">
                  <input
                    type="radio"
                    name={radioGroup}
                    checked={defaultId === dashboard.id}
                    onChange={() => setDefaultId(dashboard.id)}
                  />
                  Set as Default <span className="visually-hidden">({dashboard.dashboardName})</span>
                </label>
                <Button size="sm" variant="ghost" onClick={() => toggle(dashboard.id)}>
                  <span aria-hidden="true">✕</span>
                  <span className="visually-hidden">Remove {dashboard.dashboardName} from the selection</span>
                </Button>
              </li>
            ))}
          </ul>
        </fieldset>
      )}
    </FormDialog>
  );
}

/**
 * 'Invite to Dashboard': company name, dashboards (one may be the default), results per
 * dashboard. A dashboard refused as not company-scoped can be assigned again as shared data.
 */
export function InviteModal({ email, ...props }: InviteModalProps) {
  return email === null ? null : <InviteDialog key={email} email={email} {...props} />;
}
