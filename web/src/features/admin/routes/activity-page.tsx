import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import type { AuditEntry, AuditFilter } from '#contracts/user-admin.ts';
import { Badge } from '#web/components/badge.tsx';
import { Button } from '#web/components/button.tsx';
import { Card } from '#web/components/card.tsx';
import { EmptyList } from '#web/components/empty-list.tsx';
import { LoadFailure } from '#web/components/load-failure.tsx';
import { PageHeader } from '#web/components/layout/page-header.tsx';
import { Select } from '#web/components/select.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { TextField } from '#web/components/text-field.tsx';
import { notify } from '#web/components/toaster.tsx';
import { downloadFile } from '#web/lib/csv.ts';
import { useServerCall } from '#web/lib/use-server-call.ts';
import { activityCsv, activityJson, exportFileName } from '../activity-export.ts';
import {
  ACTION_OPTIONS,
  actionLabel,
  EMPTY_FILTER_FORM,
  formatWhen,
  toAuditFilter,
  type ActivityFilterForm,
  type OutcomeFilter,
} from '../activity-filter.ts';
import { useAdminApi } from '../api/admin-api-context.tsx';
import { ADMIN_FAILURES, failureMessage } from '../errors.ts';
import '../components/tables.css';
import './activity-page.css';

interface Trail {
  readonly entries: readonly AuditEntry[];
  readonly nextToken: string | null;
}

const OUTCOME_OPTIONS = [
  { value: 'all', label: 'All outcomes' },
  { value: 'success', label: 'Success' },
  { value: 'failure', label: 'Failure' },
] as const;

const ACTION_FILTER_OPTIONS = [{ value: '', label: 'All actions' }, ...ACTION_OPTIONS];

const isFiltered = (filter: AuditFilter) => Object.values(filter).some((value) => value !== undefined);

/** Typed text applies once typing pauses this long, as the Users search does; a choice applies at once. */
const TYPING_PAUSE_MS = 350;

const sameFilter = (a: AuditFilter, b: AuditFilter) => JSON.stringify(a) === JSON.stringify(b);

/** A time that never wraps: its spaces do not break. */
const unbroken = (text: string) => text.replace(/ /g, '\u00a0');

/**
 * An email that wraps, when it must, before its '@' rather than inside a word
 * ("demo.admin" / "@example.com"); other text as it is.
 */
function emailWithBreak(text: string) {
  const at = text.indexOf('@');
  if (at <= 0) return text;
  return (
    <>
      {text.slice(0, at)}
      <wbr />
      {text.slice(at)}
    </>
  );
}

/**
 * /admin/activity: the audit trail of admin actions, newest first, page by page, filtered on
 * the server by admin, action, target, outcome and days as they are chosen or typed (text once
 * typing pauses); the filtered trail exports as CSV or JSON (the export itself is recorded in
 * the trail).
 */
export default function ActivityPage() {
  const api = useAdminApi();
  const [trail, setTrail] = useState<Trail | null>(null);
  const [trailLoading, setTrailLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const [generation, setGeneration] = useState(0);
  const [form, setForm] = useState<ActivityFilterForm>(EMPTY_FILTER_FORM);
  const [filter, setFilter] = useState<AuditFilter>({});
  const [rangeError, setRangeError] = useState<string | null>(null);
  // Load more and the exports: a failure of theirs shows as the trail's (LoadFailure).
  const { run, isBusy } = useServerCall<'more' | 'csv' | 'json', never>();
  const loading = trailLoading || isBusy('more');
  const exporting = isBusy('csv') || isBusy('json');
  const reportAsTrailError = useCallback((failure: unknown) => {
    setError(failure);
    return null;
  }, []);

  useEffect(() => {
    let current = true;
    api.users.auditLog(filter).then(
      (page) => {
        if (!current) return;
        setTrail({ entries: page.entries, nextToken: page.nextToken });
        setError(null);
        setTrailLoading(false);
      },
      (failure: unknown) => {
        if (!current) return;
        setError(failure);
        setTrailLoading(false);
      },
    );
    return () => {
      current = false;
    };
  }, [api, filter, generation]);

  const reload = () => {
    setTrailLoading(true);
    setGeneration((value) => value + 1);
  };

  const loadMore = useCallback(async () => {
    if (!trail?.nextToken) return;
    const { entries, nextToken } = trail;
    const work = async () => {
      const page = await api.users.auditLog(filter, nextToken);
      setTrail({ entries: [...entries, ...page.entries], nextToken: page.nextToken });
      setError(null);
    };
    await run('more', work, { failure: reportAsTrailError });
  }, [api, trail, filter, run, reportAsTrailError]);

  // How soon the form's latest change applies: typed text waits for a pause, a choice does not.
  const delay = useRef(0);
  const change = (patch: Partial<ActivityFilterForm>, typed = false) => {
    delay.current = typed ? TYPING_PAUSE_MS : 0;
    setForm((current) => ({ ...current, ...patch }));
  };

  // The filter the table was last asked for, to skip a change that asks for the same rows.
  const applied = useRef<AuditFilter>({});
  const applyFilter = useCallback((next: AuditFilter) => {
    if (sameFilter(applied.current, next)) return;
    applied.current = next;
    setTrailLoading(true);
    setFilter(next);
  }, []);

  const applyForm = useCallback(
    (current: ActivityFilterForm) => {
      let next: AuditFilter;
      try {
        next = toAuditFilter(current);
      } catch (failure) {
        // A reversed range is shown by its field and asks nothing of the server.
        setRangeError((failure as Error).message);
        return;
      }
      setRangeError(null);
      applyFilter(next);
    },
    [applyFilter],
  );

  useEffect(() => {
    const timer = window.setTimeout(() => applyForm(form), delay.current);
    return () => window.clearTimeout(timer);
  }, [form, applyForm]);

  // Enter applies what is typed without waiting for the pause.
  const submit = (event: FormEvent) => {
    event.preventDefault();
    delay.current = 0;
    applyForm(form);
  };

  const clear = () => {
    delay.current = 0;
    setForm(EMPTY_FILTER_FORM);
  };

  /** Exports what the form says (applying it to the table too, so both show the same rows). */
  const exportTrail = async (format: 'csv' | 'json') => {
    let chosen: AuditFilter;
    try {
      chosen = toAuditFilter(form);
    } catch (failure) {
      setRangeError((failure as Error).message);
      return;
    }
    setRangeError(null);
    applyFilter(chosen);
    await run(
      format,
      async () => {
        const { entries, exportedAt } = await api.users.exportAuditLog(chosen, format);
        const text = format === 'csv' ? activityCsv(entries) : activityJson(entries, chosen, exportedAt);
        downloadFile(
          exportFileName(exportedAt, format),
          format === 'csv' ? 'text/csv;charset=utf-8' : 'application/json',
          text,
        );
        notify.success(`Exported ${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}`);
        setError(null);
        // The export is itself an entry of the trail.
        reload();
      },
      { failure: reportAsTrailError },
    );
  };

  const entries = trail?.entries ?? [];
  const formFilled = JSON.stringify(form) !== JSON.stringify(EMPTY_FILTER_FORM);
  const retry = () => reload();
  const statusText =
    loading && trail !== null
      ? 'Updating...'
      : trail === null || error !== null
        ? ''
        : `${entries.length.toLocaleString()} ${entries.length === 1 ? 'entry' : 'entries'}${isFiltered(filter) ? ' matching the filters' : ''}${trail.nextToken ? ', more with Load more' : ''}`;

  return (
    <div className="stack">
      <PageHeader
        title="Activity"
        description="Who did what to whom, when, and whether it worked."
        actions={
          <div className="row">
            <Button variant="secondary" onClick={reload} disabled={loading}>
              {loading && trail !== null ? 'Refreshing...' : 'Refresh'}
            </Button>
            <Button variant="secondary" onClick={() => void exportTrail('csv')} disabled={exporting}>
              {isBusy('csv') ? 'Exporting...' : 'Export CSV'}
            </Button>
            <Button variant="secondary" onClick={() => void exportTrail('json')} disabled={exporting}>
              {isBusy('json') ? 'Exporting...' : 'Export JSON'}
            </Button>
          </div>
        }
      />
      <Card title="Audit Trail">
        <form className="activity-filters" aria-label="Filter the trail" onSubmit={submit}>
          <TextField
            label="Admin"
            type="search"
            placeholder="Email or part of it"
            value={form.actor}
            onChange={(event) => change({ actor: event.target.value }, true)}
          />
          <Select
            label="Action"
            options={ACTION_FILTER_OPTIONS}
            value={form.action}
            onChange={(event) => change({ action: event.target.value })}
          />
          <TextField
            label="Target"
            type="search"
            placeholder="Email or dashboard"
            value={form.target}
            onChange={(event) => change({ target: event.target.value }, true)}
          />
          <Select
            label="Outcome"
            options={OUTCOME_OPTIONS}
            value={form.outcome}
            onChange={(event) => change({ outcome: event.target.value as OutcomeFilter })}
          />
          <TextField
            label="From"
            type="date"
            value={form.fromDay}
            onChange={(event) => change({ fromDay: event.target.value })}
            error={rangeError ?? undefined}
          />
          <TextField
            label="To"
            type="date"
            value={form.toDay}
            onChange={(event) => change({ toDay: event.target.value })}
          />
          <div className="activity-filter-actions">
            <Button type="button" variant="secondary" onClick={clear} disabled={!formFilled}>
              Clear filters
            </Button>
          </div>
        </form>
        <p className="activity-status text-muted" role="status" aria-live="polite">
          {statusText}
        </p>
        {error !== null && (
          <LoadFailure
            title={ADMIN_FAILURES.loadActivity}
            detail={failureMessage(error)}
            onRetry={retry}
            retrying={loading}
          />
        )}
        {trail === null || error !== null ? (
          trail === null && loading && <Spinner label="Loading activity..." />
        ) : (
          <div className="table-scroll" role="region" aria-label="Audit trail" tabIndex={0}>
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Admin</th>
                  <th scope="col">Action</th>
                  <th scope="col">Target</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Detail</th>
                </tr>
              </thead>
              <tbody>
                {entries.length === 0 ? (
                  <tr>
                    <td colSpan={6}>
                      {isFiltered(filter) ? (
                        <EmptyList
                          title="No activity matches the filters"
                          action={
                            <Button size="sm" variant="secondary" onClick={clear}>
                              Clear filters
                            </Button>
                          }
                        >
                          Widen the days, choose All actions or All outcomes, or search for part of an email.
                        </EmptyList>
                      ) : (
                        <EmptyList title="No activity recorded yet">
                          Every change an admin makes (users, dashboards, companies) is listed here as it happens.
                        </EmptyList>
                      )}
                    </td>
                  </tr>
                ) : (
                  entries.map((entry) => (
                    <tr key={entry.id}>
                      <td data-label="When">
                        <time dateTime={entry.at}>{unbroken(formatWhen(entry.at))}</time>
                      </td>
                      <td data-label="Admin">{emailWithBreak(entry.actor)}</td>
                      <td data-label="Action">{actionLabel(entry.action)}</td>
                      <td data-label="Target">{entry.target ? emailWithBreak(entry.target) : '—'}</td>
                      <td data-label="Outcome">
                        <Badge tone={entry.outcome === 'success' ? 'success' : 'danger'}>
                          {entry.outcome === 'success' ? 'Success' : 'Failure'}
                        </Badge>
                      </td>
                      <td className="activity-detail" data-label="Detail">
                        {entry.detail ?? ''}
                      </td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </div>
        )}
        {trail?.nextToken && (
          <div className="load-more">
            <Button variant="secondary" onClick={() => void loadMore()} disabled={loading}>
              {loading ? 'Loading...' : 'Load more'}
            </Button>
          </div>
        )}
      </Card>
    </div>
  );
}
