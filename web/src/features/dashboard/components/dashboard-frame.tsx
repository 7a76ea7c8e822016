import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import type { EmbedState } from './use-embed-session.ts';

export const FRAME_TITLE = 'QuickSight Analytics Dashboard';

export interface DashboardFrameProps {
  readonly state: EmbedState;
  readonly onReload: () => void;
}

/** Spinner, error panel with Retry, or the embedded dashboard with its footer (Refresh is in the page's header bar). */
export function DashboardFrame({ state, onReload }: DashboardFrameProps) {
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
  if (state.status !== 'loaded') {
    return (
      <div className="dashboard-loading">
        <Spinner label="Loading dashboard..." />
      </div>
    );
  }
  return (
    <div className="dashboard-embed">
      <iframe
        className="embed-frame"
        title={FRAME_TITLE}
        src={state.session.url}
        sandbox="allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox allow-forms allow-downloads"
        allow="fullscreen; clipboard-write"
      />
      <div className="dashboard-footer">
        <span className="text-muted">Powered by AWS QuickSight</span>
      </div>
    </div>
  );
}
