import { useCallback, useEffect, useMemo, useState } from 'react';
import type { AuditEntry } from '../../../../../contracts/user-admin.ts';
import { Alert } from '../../../components/alert.tsx';
import { Badge } from '../../../components/badge.tsx';
import { Button } from '../../../components/button.tsx';
import { Card } from '../../../components/card.tsx';
import { PageHeader } from '../../../components/layout/page-header.tsx';
import { Select } from '../../../components/select.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { TextField } from '../../../components/text-field.tsx';
import {
  actionLabel,
  actionsIn,
  filterActivity,
  formatWhen,
  NO_FILTER,
  type ActivityFilter,
  type OutcomeFilter,
} from '../activity-filter.ts';
import { useAdminApi } from '../api/admin-api-context.tsx';
import { ADMIN_FAILURES, failureText } from '../errors.ts';

interface Trail {
  readonly entries: readonly AuditEntry[];
  readonly nextToken: string | null;
}

const OUTCOME_OPTIONS = [
  { value: 'all', label: 'All outcomes' },
  { value: 'success', label: 'Success' },
  { value: 'failure', label: 'Failure' },
] as const;

/** /admin/activity: the audit trail of admin actions, newest first, page by page. */
export default function ActivityPage() {
  const api = useAdminApi();
  const [trail, setTrail] = useState<Trail | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const [generation, setGeneration] = useState(0);
  const [filter, setFilter] = useState<ActivityFilter>(NO_FILTER);

  useEffect(() => {
    let current = true;
    api.users.auditLog().then(
      (page) => {
        if (!current) return;
        setTrail({ entries: page.entries, nextToken: page.nextToken });
        setError(null);
        setLoading(false);
      },
      (failure: unknown) => {
        if (!current) return;
        setError(failure);
        setLoading(false);
      },
    );
    return () => {
      current = false;
    };
  }, [api, generation]);

  const loadMore = useCallback(async () => {
    if (!trail?.nextToken) return;
    setLoading(true);
    try {
      const page = await api.users.auditLog(trail.nextToken);
      setTrail({ entries: [...trail.entries, ...page.entries], nextToken: page.nextToken });
      setError(null);
    } catch (failure) {
      setError(failure);
    } finally {
      setLoading(false);
    }
  }, [api, trail]);

  const entries = trail?.entries;
  const shown = useMemo(() => filterActivity(entries ?? [], filter), [entries, filter]);
  const actionOptions = useMemo(() => [{ value: '', label: 'All actions' }, ...actionsIn(entries ?? [])], [entries]);
  const change = (patch: Partial<ActivityFilter>) => setFilter((current) => ({ ...current, ...patch }));

  return (
    <div className="stack">
      <PageHeader
        title="Activity"
        description="Who did what to whom, when, and whether it worked."
        actions={
          <Button
            variant="secondary"
            onClick={() => {
              setLoading(true);
              setGeneration((value) => value + 1);
            }}
            disabled={loading}
          >
            Refresh
          </Button>
        }
      />
      {error !== null && (
        <Alert tone="error" title={ADMIN_FAILURES.loadActivity}>
          <p>{failureText(error, ADMIN_FAILURES.loadActivity)}</p>
        </Alert>
      )}
      <Card title="Audit Trail">
        <div className="activity-filters">
          <TextField
            label="Filter"
            type="search"
            placeholder="Admin, user, action or detail"
            value={filter.text}
            onChange={(event) => change({ text: event.target.value })}
          />
          <Select label="Action" options={actionOptions} value={filter.action} onChange={(event) => change({ action: event.target.value })} />
          <Select
            label="Outcome"
            options={OUTCOME_OPTIONS}
            value={filter.outcome}
            onChange={(event) => change({ outcome: event.target.value as OutcomeFilter })}
          />
        </div>
        {trail === null ? (
          loading && <Spinner label="Loading activity..." />
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
                {shown.length === 0 ? (
                  <tr>
                    <td colSpan={6} className="text-muted">
                      {trail.entries.length === 0 ? 'No activity recorded yet' : 'No activity matches the filter'}
                    </td>
                  </tr>
                ) : (
                  shown.map((entry) => (
                    <tr key={entry.id}>
                      <td data-label="When">
                        <time dateTime={entry.at}>{formatWhen(entry.at)}</time>
                      </td>
                      <td data-label="Admin">{entry.actor}</td>
                      <td data-label="Action">{actionLabel(entry.action)}</td>
                      <td data-label="Target">{entry.target ?? '—'}</td>
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
