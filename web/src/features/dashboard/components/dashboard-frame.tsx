import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { EmbeddedDashboard, type EmbeddedDashboardProps } from './embedded-dashboard.tsx';
import type { EmbedState } from './use-embed-session.ts';

export { FRAME_TITLE } from './embedded-dashboard.tsx';

export interface DashboardFrameProps extends Pick<EmbeddedDashboardProps, 'onError' | 'onExperience'> {
  readonly state: EmbedState;
  readonly onReload: () => void;
  readonly onContentLoaded: () => void;
}

/**
 * Spinner, error panel with Retry, or the embedded dashboard with its footer (Refresh is in the
 * page's header bar). The spinner stays until the SDK reports the dashboard's content loaded;
 * the frame loads meanwhile out of sight.
 */
export function DashboardFrame({ state, onReload, onContentLoaded, onError, onExperience }: DashboardFrameProps) {
  if (state.status === 'error') {
    return (
      <Alert tone="error" title="Error Loading Dashboard" className="dashboard-error">
        <p>Failed to load dashboard</p>
        <p>{state.message}</p>
        <div>
          <Button variant="secondary" onClick={onReload}>
            Retry
          </Button>
        </div>
      </Alert>
    );
  }
  const spinner = (
    <div className="dashboard-loading">
      <Spinner label="Loading dashboard..." />
    </div>
  );
  if (state.status !== 'loaded') return spinner;
  return (
    <div className="dashboard-embed">
      {!state.contentLoaded && spinner}
      <EmbeddedDashboard
        url={state.session.url}
        hidden={!state.contentLoaded}
        onContentLoaded={onContentLoaded}
        onError={onError}
        onExperience={onExperience}
      />
      {state.contentLoaded && (
        <div className="dashboard-footer">
          <span className="text-muted">Powered by AWS QuickSight</span>
        </div>
      )}
    </div>
  );
}
