import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Ellipsis, Mail, Printer, Redo2, RefreshCw, RotateCcw, Undo2, type LucideIcon } from 'lucide-react';
import { Link, useNavigate, useParams } from 'react-router';
import { NOT_ASSIGNED_MESSAGE } from '#contracts/embed.ts';
import { dashboardPath, paths } from '#web/config/paths.ts';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { EmptyState } from '#web/components/empty-state.tsx';
import { Menu } from '#web/components/menu.tsx';
import { Select } from '#web/components/select.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { Tooltip } from '#web/components/tooltip.tsx';
import { useAuth } from '#web/lib/auth/auth-context.ts';
import { useGraphqlClient } from '#web/lib/use-clients.ts';
import { PHONE_QUERY, useMediaQuery } from '#web/lib/use-media-query.ts';
import {
  fetchDashboardViews,
  listDashboardViews,
  SELECTED_VIEW_KEY,
  viewFor,
  viewLinkId,
  type DashboardView,
} from '../api/views.ts';
import { DashboardFrame } from '../components/dashboard-frame.tsx';
import { useDashboardExperience, type ToolbarAction } from '../components/use-dashboard-experience.ts';
import { useEmbedSession } from '../components/use-embed-session.ts';

/** Loaded when first opened: the sign-in and the dashboard's first paint need none of it. */
const SubscribeDialog = lazy(() => import('../components/subscribe-dialog.tsx'));

/** The toolbar's actions: the embedded dashboard's own, and Subscribe (its file by email). */
type PageAction = ToolbarAction | 'subscribe';

/**
 * The view actions, each an icon with its label; `unavailable` says why one is off (shown under it in the phone's
 * menu, where no tooltip is).
 */
const TOOLBAR_ACTIONS: readonly {
  action: PageAction;
  label: string;
  icon: LucideIcon;
  hint: string;
  unavailable: string;
}[] = [
  {
    action: 'print',
    label: 'Print',
    icon: Printer,
    hint: 'Print the dashboard',
    unavailable: 'Once the dashboard has loaded',
  },
  {
    action: 'reset',
    label: 'Reset',
    icon: RotateCcw,
    hint: "Back to the dashboard's defaults",
    unavailable: 'Once the dashboard has loaded',
  },
  {
    action: 'undo',
    label: 'Undo',
    icon: Undo2,
    hint: 'Undo the last change in the dashboard',
    unavailable: 'Nothing to undo: no change made in the dashboard yet',
  },
  {
    action: 'redo',
    label: 'Redo',
    icon: Redo2,
    hint: 'Redo the change undone',
    unavailable: 'Nothing to redo: no change undone',
  },
  {
    action: 'subscribe',
    label: 'Subscribe',
    icon: Mail,
    hint: 'Email this dashboard to yourself on a schedule',
    unavailable: 'This view is not linked to a dashboard',
  },
];

/**
 * The toolbar's icons: decoration beside the visible label, which names the button. On a phone Refresh shows its
 * label alone, and More keeps its cue.
 */
const ICON = { size: 16, strokeWidth: 2, className: 'toolbar-icon', 'aria-hidden': true, focusable: false } as const;

const NO_COMPANIES: readonly string[] = [];

function readStoredViewId(): string | null {
  try {
    return window.localStorage.getItem(SELECTED_VIEW_KEY);
  } catch {
    return null;
  }
}

/**
 * /home and /dashboards/<id>: the analytics dashboard page. Each view has its own address, so
 * a view can be linked to and the browser's back and forward switch views; /home shows the
 * remembered choice or the default.
 */
export default function HomePage() {
  const { session } = useAuth();
  const graphql = useGraphqlClient();
  const navigate = useNavigate();
  const phone = useMediaQuery(PHONE_QUERY);
  const { viewId: linkId } = useParams();
  const loginId = session?.email ?? '';
  const [views, setViews] = useState<readonly DashboardView[] | null>(null);
  const [storedId, setStoredId] = useState<string | null>(readStoredViewId);

  useEffect(() => {
    let active = true;
    void listDashboardViews(graphql, loginId).then((list) => {
      if (active) setViews(list);
    });
    return () => {
      active = false;
    };
  }, [graphql, loginId]);

  const choice = useMemo(() => (views ? viewFor(views, linkId, storedId) : undefined), [views, linkId, storedId]);
  const selected = choice?.view;
  // Once signed out, no embed URL is fetched or renewed.
  const { state, reload, contentLoaded, frameFailed } = useEmbedSession(
    session ? (selected?.quicksightDashboardId ?? null) : null,
  );
  const companies = state.status === 'loaded' ? state.session.companies : NO_COMPANIES;
  const [companyChoice, setCompanyChoice] = useState('');
  const [subscribing, setSubscribing] = useState(false);
  const dashboard = useDashboardExperience(companies, companyChoice, state.status === 'loaded' && state.contentLoaded);
  const choosesCompany = dashboard.hasCompanyParameter && companies.length > 1;
  const enabled: Record<PageAction, boolean> = {
    print: dashboard.ready,
    reset: dashboard.ready,
    undo: dashboard.canUndo,
    redo: dashboard.canRedo,
    subscribe: Boolean(selected?.quicksightDashboardId),
  };
  const act = (action: PageAction) => {
    if (action === 'subscribe') {
      setSubscribing(true);
      return;
    }
    if (action === 'reset') setCompanyChoice('');
    dashboard.run(action);
  };

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
    if (viewFor(list, linkId, storedId).view?.quicksightDashboardId === selected?.quicksightDashboardId) reload();
  };

  // A new choice is a new address (back returns to the previous view) and is remembered. On
  // /home the view shown first gets its own address before the new one, so Back returns to it
  // (/home itself would show the remembered, that is the new, choice).
  const select = (id: string) => {
    const view = views?.find((candidate) => candidate.id === id);
    if (!view) return;
    if (linkId === undefined && selected && selected.id !== view.id)
      void navigate(dashboardPath(viewLinkId(selected)), { replace: true });
    setStoredId(id);
    try {
      window.localStorage.setItem(SELECTED_VIEW_KEY, id);
    } catch {
      // Storage may be unavailable (private mode); the choice then lasts for this visit.
    }
    void navigate(dashboardPath(viewLinkId(view)));
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
        {linkId !== undefined && <Alert tone="warning">{NOT_ASSIGNED_MESSAGE}</Alert>}
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
        {choosesCompany && (
          <Select
            label="Companies"
            className="dashboard-select"
            value={companyChoice}
            onChange={(event) => setCompanyChoice(event.target.value)}
            options={[
              { value: '', label: 'All my companies' },
              ...companies.map((company) => ({ value: company, label: company })),
            ]}
          />
        )}
        <Tooltip content="Refresh dashboard URL">
          <Button variant="secondary" onClick={() => void refresh()}>
            <RefreshCw {...ICON} />
            Refresh
          </Button>
        </Tooltip>
        <div role="toolbar" aria-label="Dashboard actions" className="dashboard-actions">
          {phone ? (
            // One row on a phone: the view actions are a menu, each saying why it is off when it is.
            <Menu
              label="More dashboard actions"
              triggerClassName="btn btn-secondary"
              trigger={
                <>
                  <Ellipsis {...ICON} className="toolbar-icon menu-cue" />
                  More
                </>
              }
              items={TOOLBAR_ACTIONS.map(({ action, label, unavailable }) => ({
                label,
                onSelect: () => act(action),
                disabledReason: enabled[action] ? null : unavailable,
              }))}
            />
          ) : (
            TOOLBAR_ACTIONS.map(({ action, label, icon: Icon, hint }) => (
              <Tooltip key={action} content={hint}>
                <Button variant="secondary" disabled={!enabled[action]} onClick={() => act(action)}>
                  <Icon {...ICON} />
                  {label}
                </Button>
              </Tooltip>
            ))
          )}
        </div>
      </div>
      {choice?.notAssigned && (
        <Alert tone="warning">
          <p>{NOT_ASSIGNED_MESSAGE}</p>
          <p>Your default dashboard is shown instead.</p>
        </Alert>
      )}
      {selected && !selected.quicksightDashboardId ? (
        <Alert tone="warning">This view is not linked to a dashboard. Ask your administrator to assign it again.</Alert>
      ) : (
        <DashboardFrame
          state={state}
          onReload={() => void refresh()}
          onContentLoaded={contentLoaded}
          onError={frameFailed}
          onExperience={dashboard.setExperience}
          onChanged={dashboard.changed}
        />
      )}
      {subscribing && selected?.quicksightDashboardId && (
        <Suspense fallback={null}>
          <SubscribeDialog
            dashboardId={selected.quicksightDashboardId}
            dashboardName={selected.name}
            // The file holds what the page shows: the company chosen, where the dashboard offers the choice.
            company={choosesCompany && companies.includes(companyChoice) ? companyChoice : ''}
            onClose={() => setSubscribing(false)}
          />
        </Suspense>
      )}
    </div>
  );
}
