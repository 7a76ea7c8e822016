import { lazy, Suspense, useCallback, useMemo, useState, type FormEvent } from 'react';
import type { InsightsDashboard, InsightsResponse, InsightsUser } from '#contracts/insights.ts';
import { Button } from '#web/components/button.tsx';
import { Card } from '#web/components/card.tsx';
import { EmptyList } from '#web/components/empty-list.tsx';
import { LoadFailure } from '#web/components/load-failure.tsx';
import { PageHeader } from '#web/components/layout/page-header.tsx';
import { Select } from '#web/components/select.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { TextField } from '#web/components/text-field.tsx';
import { downloadFile } from '#web/lib/csv.ts';
import { useAdminApi } from '../api/admin-api-context.tsx';
import type { InsightsRange } from '../api/admin-api.ts';
import { InsightsUsersTable } from '../components/insights-users-table.tsx';
import { StatCards } from '../components/stat-cards.tsx';
import { failureMessage } from '../errors.ts';
import {
  assignedUserCounts,
  companiesOf,
  CSV_MIME,
  dashboardLabel,
  dashboardsCsv,
  defaultRange,
  exportName,
  formatSeen,
  INSIGHTS_TEXTS,
  rangeProblem,
  unopenedAssignments,
  weeksCsv,
} from '../insights.ts';
import { useInsightUsers, type InsightUsersState } from '../use-insight-users.ts';
import { useResource } from '#web/lib/use-resource.ts';
import { useCompanyList } from '../use-companies.ts';
import '../components/tables.css';
import './insights-page.css';

// The chart library is big: it arrives in a chunk of its own, after the figures.
const InsightsCharts = lazy(() => import('../components/insights-charts.tsx'));

interface Draft {
  readonly from: string;
  readonly to: string;
  readonly company: string;
}

const toRange = (draft: Draft): InsightsRange => ({
  from: draft.from,
  to: draft.to,
  ...(draft.company ? { company: draft.company } : {}),
});

function ExportButton({
  label,
  name,
  csv,
}: {
  readonly label: string;
  readonly name: string;
  readonly csv: () => string;
}) {
  return (
    <Button variant="secondary" size="sm" onClick={() => downloadFile(name, CSV_MIME, csv())}>
      {label}
    </Button>
  );
}

interface DashboardTableProps {
  readonly label: string;
  readonly dashboards: readonly InsightsDashboard[];
  /** What an empty table says, and what to do next (none when nothing needs doing). */
  readonly empty: { readonly title: string; readonly next?: string };
  /** Assigned users per dashboard; undefined while the users are loading. */
  readonly assigned: ReadonlyMap<string, number> | undefined;
}

function DashboardRows({ dashboards, empty, assigned }: Omit<DashboardTableProps, 'label'>) {
  if (dashboards.length === 0) {
    return (
      <tr>
        <td colSpan={4}>
          {empty.next === undefined ? (
            <p className="text-muted">{empty.title}</p>
          ) : (
            <EmptyList title={empty.title}>{empty.next}</EmptyList>
          )}
        </td>
      </tr>
    );
  }
  return dashboards.map((dashboard) => (
    <tr key={dashboard.dashboardId}>
      <th scope="row">
        {dashboardLabel(dashboard)} <span className="text-muted">({dashboard.dashboardId})</span>
      </th>
      <td className="numeric">{dashboard.views.toLocaleString()}</td>
      <td className="numeric">
        {assigned === undefined ? '…' : (assigned.get(dashboard.dashboardId) ?? 0).toLocaleString()}
      </td>
      <td>{dashboard.lastViewedAt === null ? 'Never' : formatSeen(dashboard.lastViewedAt)}</td>
    </tr>
  ));
}

function DashboardTable({ label, dashboards, empty, assigned }: DashboardTableProps) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      <table className="data-table">
        <caption className="visually-hidden">{label}</caption>
        <thead>
          <tr>
            <th scope="col">Dashboard</th>
            <th scope="col">Views in range</th>
            <th scope="col">Assigned users</th>
            <th scope="col">Last viewed (any company)</th>
          </tr>
        </thead>
        <tbody>
          <DashboardRows dashboards={dashboards} empty={empty} assigned={assigned} />
        </tbody>
      </table>
    </div>
  );
}

function userStats(users: readonly InsightsUser[]) {
  return [
    {
      label: 'Users who viewed in the last 30 days',
      value: users.filter((user) => user.recentViews > 0).length,
      tone: 'success' as const,
    },
    {
      label: 'Users who never viewed a dashboard',
      value: users.filter((user) => user.lastSeenAt === null).length,
      tone: 'danger' as const,
    },
    {
      label: 'Users with an assigned dashboard never opened',
      value: users.filter((user) => unopenedAssignments(user).length > 0).length,
      tone: 'danger' as const,
    },
  ];
}

/** The Insights tables' empty states. */
const INSIGHTS_EMPTY = {
  noDashboards: {
    title: 'No dashboards in the catalogue',
    next: 'Add dashboards on Manage Dashboards and assign them to users; their views are counted here once users open them.',
  },
  allViewed: { title: 'Every dashboard in the catalogue was viewed in this range' },
} as const;

function InsightsBody({
  data,
  range,
  people,
  onRetryUsers,
}: {
  readonly data: InsightsResponse;
  readonly range: InsightsRange;
  readonly people: InsightUsersState;
  readonly onRetryUsers: () => void;
}) {
  const notViewed = useMemo(
    () => data.dashboards.filter((dashboard) => dashboard.inCatalogue && dashboard.views === 0),
    [data.dashboards],
  );
  const assigned = useMemo(() => (people.complete ? assignedUserCounts(people.users) : undefined), [people]);
  const stats = useMemo(
    () => [
      { label: 'Dashboard views in range', value: data.totalViews },
      ...(people.complete ? userStats(people.users) : []),
    ],
    [data.totalViews, people],
  );
  const counts = assigned ?? new Map<string, number>();
  return (
    <>
      <StatCards stats={stats} />
      {!people.complete && people.error === null && (
        <Spinner label={`Loading users... ${people.users.length.toLocaleString()} so far`} />
      )}
      <Card title="Usage over time and by dashboard">
        <Suspense fallback={<Spinner label="Loading charts..." />}>
          <InsightsCharts weeks={data.weeks} dashboards={data.dashboards} />
        </Suspense>
      </Card>
      <Card
        title="Active users per week"
        actions={
          <ExportButton
            label="Export weeks CSV"
            name={exportName('insights-weeks', range)}
            csv={() => weeksCsv(data.weeks)}
          />
        }
      >
        <p className="text-muted">
          Active users count everyone who opened a dashboard during the ISO week (Monday to Sunday), also where the
          range starts or ends inside it; views count only the days in the range.
        </p>
        <div className="table-scroll" role="region" aria-label="Active users per week" tabIndex={0}>
          <table className="data-table">
            <caption className="visually-hidden">Active users per week</caption>
            <thead>
              <tr>
                <th scope="col">ISO week</th>
                <th scope="col">Week starting</th>
                <th scope="col">Active users</th>
                <th scope="col">Views</th>
              </tr>
            </thead>
            <tbody>
              {data.weeks.map((week) => (
                <tr key={week.week}>
                  <th scope="row">{week.week}</th>
                  <td>{week.start}</td>
                  <td className="numeric">{week.activeUsers.toLocaleString()}</td>
                  <td className="numeric">{week.views.toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
      <Card
        title="Views per dashboard"
        actions={
          <ExportButton
            label="Export dashboards CSV"
            name={exportName('insights-dashboards', range)}
            csv={() => dashboardsCsv(data.dashboards, counts)}
          />
        }
      >
        <DashboardTable
          label="Views per dashboard"
          dashboards={data.dashboards}
          empty={INSIGHTS_EMPTY.noDashboards}
          assigned={assigned}
        />
      </Card>
      <Card
        title="Dashboards not viewed in this range"
        actions={
          <ExportButton
            label="Export not viewed CSV"
            name={exportName('insights-not-viewed', range)}
            csv={() => dashboardsCsv(notViewed, counts)}
          />
        }
      >
        <DashboardTable
          label="Dashboards not viewed in this range"
          dashboards={notViewed}
          empty={
            data.dashboards.some((dashboard) => dashboard.inCatalogue)
              ? INSIGHTS_EMPTY.allViewed
              : INSIGHTS_EMPTY.noDashboards
          }
          assigned={assigned}
        />
      </Card>
      <Card title="Users">
        <p className="text-muted">
          Users with at least one assigned dashboard or a recorded view. Highlighted rows have never viewed a dashboard
          or have an assigned dashboard they never opened. {INSIGHTS_TEXTS.neverMeaning(data.retentionDays)}
        </p>
        {people.error !== null && (
          <LoadFailure
            title={INSIGHTS_TEXTS.loadUsersFailed}
            detail={failureMessage(people.error)}
            onRetry={onRetryUsers}
          />
        )}
        {(people.error === null || people.users.length > 0) && (
          <InsightsUsersTable users={people.users} complete={people.complete} range={range} />
        )}
      </Card>
    </>
  );
}

/** /admin/insights: who looks at which dashboard, and who does not. */
export default function InsightsPage() {
  const api = useAdminApi();
  const [range, setRange] = useState<InsightsRange>(() => defaultRange());
  const [draft, setDraft] = useState<Draft>(() => ({ ...defaultRange(), company: '' }));
  const [problem, setProblem] = useState<ReturnType<typeof rangeProblem>>(undefined);
  const load = useCallback(() => api.quicksight.insights(range), [api, range]);
  const { data, error, loading, reload } = useResource(load);
  const [generation, setGeneration] = useState(0);
  const people = useInsightUsers(api.quicksight, range.company, generation);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const next = toRange(draft);
    const found = rangeProblem(next);
    setProblem(found);
    if (found) return;
    if (JSON.stringify(next) === JSON.stringify(range)) {
      reload();
      setGeneration((value) => value + 1);
    } else {
      setRange(next);
    }
  };
  // The companies of the portal (LIST_COMPANIES); until they load, or if they cannot, those of the users shown.
  const companyList = useCompanyList();
  const companyNames =
    companyList.data?.companies.map((company) => company.name).sort((a, b) => a.localeCompare(b)) ??
    companiesOf(people.users);
  const companyOptions = [
    { value: '', label: 'All companies' },
    ...[...new Set([...companyNames, ...(draft.company ? [draft.company] : [])])].map((company) => ({
      value: company,
      label: company,
    })),
  ];
  const change = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  const retryUsers = useCallback(() => setGeneration((value) => value + 1), []);
  const retry = () => {
    reload();
    retryUsers();
  };

  return (
    <div className="stack">
      <PageHeader title="Insights" description={INSIGHTS_TEXTS.viewMeaning} />
      <Card title="Filters">
        <form className="insights-filters" onSubmit={apply} noValidate>
          <TextField
            label="From"
            type="date"
            value={draft.from}
            max={draft.to}
            onChange={(event) => change({ from: event.target.value })}
            error={problem?.field === 'from' ? problem.message : undefined}
          />
          <TextField
            label="To"
            type="date"
            value={draft.to}
            min={draft.from}
            onChange={(event) => change({ to: event.target.value })}
            error={problem?.field === 'to' ? problem.message : undefined}
          />
          <Select
            label="Company"
            options={companyOptions}
            value={draft.company}
            onChange={(event) => change({ company: event.target.value })}
            error={problem?.field === 'company' ? problem.message : undefined}
          />
          <div className="insights-apply">
            <Button type="submit" disabled={loading}>
              {loading ? 'Loading...' : 'Apply'}
            </Button>
          </div>
        </form>
      </Card>
      {error !== null && (
        <LoadFailure
          title={INSIGHTS_TEXTS.loadFailed}
          detail={failureMessage(error)}
          onRetry={retry}
          retrying={loading}
        />
      )}
      {data === undefined ? (
        loading && <Spinner label="Loading insights..." />
      ) : (
        <InsightsBody
          data={data}
          people={people}
          onRetryUsers={retryUsers}
          range={{ from: data.from, to: data.to, ...(data.company ? { company: data.company } : {}) }}
        />
      )}
    </div>
  );
}
