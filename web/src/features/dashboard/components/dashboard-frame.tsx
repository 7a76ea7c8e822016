import { Link } from 'react-router';
import { paths } from '#web/config/paths.ts';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { useConfig } from '#web/lib/config-context.tsx';
import { EmbeddedDashboard, type EmbeddedDashboardProps } from './embedded-dashboard.tsx';
import type { EmbedState } from './use-embed-session.ts';
import { usePhoneFrameHeight } from './use-phone-frame-height.ts';

export interface DashboardFrameProps extends Pick<EmbeddedDashboardProps, 'onError' | 'onExperience' | 'onChanged'> {
  readonly state: EmbedState;
  readonly onReload: () => void;
  readonly onContentLoaded: () => void;
}

/**
 * Local embed pages answer within a second of loading, a few on a busy machine; silence this
 * long means the browser refused them.
 */
const LOCAL_SILENCE_LIMIT_MS = 10_000;

/**
 * In local mode the embed pages come from this machine over https with a self-signed
 * certificate: until the browser trusts it, the frame shows nothing and never reports its
 * content. The panel then names the address where the certificate is accepted.
 */
function CertificateAdvice({ origin }: { readonly origin: string }) {
  const address = `${origin}/`;
  return (
    <p>
      In local mode the dashboards come from <code>{origin}</code>, which uses a self-signed certificate. If your
      browser does not trust it yet, open{' '}
      <a href={address} target="_blank" rel="noreferrer">
        {address}
      </a>
      , accept the certificate, then choose Retry.
    </p>
  );
}

/**
 * Spinner, error panel with Retry, or the embedded dashboard with its footer (Refresh is in the
 * page's header bar). The spinner stays until the SDK reports the dashboard's content loaded;
 * the frame loads meanwhile out of sight.
 */
export function DashboardFrame({
  state,
  onReload,
  onContentLoaded,
  onError,
  onExperience,
  onChanged,
}: DashboardFrameProps) {
  const localMode = useConfig().cognitoEndpoint !== undefined;
  const embedRef = usePhoneFrameHeight<HTMLDivElement>(state.status === 'loaded' && state.contentLoaded);
  if (state.status === 'error') {
    const certificateOrigin = localMode && state.frameOrigin?.startsWith('https:') ? state.frameOrigin : undefined;
    return (
      <Alert tone="error" title="Error Loading Dashboard" className="dashboard-error">
        <p>Failed to load dashboard</p>
        <p>{state.message}</p>
        {certificateOrigin && <CertificateAdvice origin={certificateOrigin} />}
        <p>
          Choose Retry to load it again. If it keeps failing, <Link to={paths.support}>contact support</Link>.
        </p>
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
    <div className="dashboard-embed" ref={embedRef}>
      {!state.contentLoaded && spinner}
      <EmbeddedDashboard
        url={state.session.url}
        hidden={!state.contentLoaded}
        onContentLoaded={onContentLoaded}
        onError={onError}
        onExperience={onExperience}
        onChanged={onChanged}
        {...(localMode ? { silenceLimitMs: LOCAL_SILENCE_LIMIT_MS } : {})}
      />
      {state.contentLoaded && (
        <div className="dashboard-footer">
          <span className="text-muted">Powered by AWS QuickSight</span>
        </div>
      )}
    </div>
  );
}
