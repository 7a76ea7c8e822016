import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../app/paths.ts';
import { EmptyState } from '../../../components/empty-state.tsx';
import { Select } from '../../../components/select.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { Alert } from '../../../components/alert.tsx';
import { useAuth } from '../../../lib/auth/auth-context.ts';
import { useGraphqlClient } from '../../../lib/use-clients.ts';
import { chooseView, fetchDashboardViews, listDashboardViews, SELECTED_VIEW_KEY, type DashboardView } from '../api/views.ts';
import { DashboardFrame } from '../components/dashboard-frame.tsx';
import { useEmbedSession } from '../components/use-embed-session.ts';

function readStoredViewId(): string | null {
  try {
    return window.localStorage.getItem(SELECTED_VIEW_KEY);
  } catch {
    return null;
  }
}

/** /home: the analytics dashboard page. */
export default function HomePage() {
  const { session } = useAuth();
  const graphql = useGraphqlClient();
  const loginId = session?.email ?? '';
  const [views, setViews] = useState<readonly DashboardView[] | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(readStoredViewId);

  useEffect(() => {
    let active = true;
    void listDashboardViews(graphql, loginId).then((list) => {
      if (active) setViews(list);
    });
    return () => {
      active = false;
    };
  }, [graphql, loginId]);

  const selected = useMemo(() => (views ? chooseView(views, selectedId) : undefined), [views, selectedId]);
  // Once signed out, no embed URL is fetched or renewed.
  const { state, reload } = useEmbedSession(session ? (selected?.quicksightDashboardId ?? null) : null);

  // Refresh also reloads the views, so an administrator's change (a new default, a renamed or
  // removed dashboard) shows without a page reload; a new choice fetches its own embed URL.
  // When the views cannot be read, the current list stays and the embed URL is asked again,
  // so the error panel tells what went wrong.
  const refresh = async () => {
    let list: DashboardView[];
    try {
      list = await fetchDashboardViews(graphql, loginId);
    } catch {
      reload();
      return;
    }
    setViews(list);
    if (chooseView(list, selectedId)?.quicksightDashboardId === selected?.quicksightDashboardId) reload();
  };

  const select = (id: string) => {
    setSelectedId(id);
    try {
      window.localStorage.setItem(SELECTED_VIEW_KEY, id);
    } catch {
      // Storage may be unavailable (private mode); the choice then lasts for this visit.
    }
  };

  // The embedded dashboard never stays on screen after sign-out, even for the moment before
  // the protected route leaves.
  if (!session) return null;

  if (views === null) {
    return (
      <div className="dashboard-loading">
        <Spinner label="Loading dashboard..." />
      </div>
    );
  }

  if (views.length === 0) {
    return (
      <EmptyState title="No dashboards yet">
        <p>An administrator assigns dashboards to your account. Once one is assigned, it appears here.</p>
        <p>
          Need access? <Link to={paths.support}>Contact support</Link>.
        </p>
      </EmptyState>
    );
  }

  return (
    <div className="stack">
      <h1 className="visually-hidden">Dashboard</h1>
      <div className="dashboard-toolbar">
        <Select
          label="Select Dashboard"
          className="dashboard-select"
          value={selected?.id ?? ''}
          onChange={(event) => select(event.target.value)}
          options={views.map((view) => ({ value: view.id, label: view.name }))}
        />
      </div>
      {selected && !selected.quicksightDashboardId ? (
        <Alert tone="warning">This view is not linked to a dashboard. Ask your administrator to assign it again.</Alert>
      ) : (
        <DashboardFrame state={state} onReload={() => void refresh()} />
      )}
    </div>
  );
}
