import { useCallback, useState } from 'react';
import type { UserDashboard } from '#contracts/quicksight-admin.ts';
import { Badge } from '#web/components/badge.tsx';
import { Button } from '#web/components/button.tsx';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { EmptyList } from '#web/components/empty-list.tsx';
import { LoadFailure } from '#web/components/load-failure.tsx';
import { Modal } from '#web/components/modal.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { notify } from '#web/components/toaster.tsx';
import { useServerCall } from '#web/lib/use-server-call.ts';
import { useAdminApi } from '../api/admin-api-context.tsx';
import { actionFailure, ADMIN_FAILURES, failureMessage, type Failure } from '../errors.ts';
import { useResource } from '#web/lib/use-resource.ts';
import { FailureAlert } from './failure-alert.tsx';
import './user-dashboards-panel.css';

/** The default dashboard first, then the others in the order they came. */
const defaultFirst = <T extends { readonly isDefault: boolean }>(list: readonly T[]): T[] => [
  ...list.filter((item) => item.isDefault),
  ...list.filter((item) => !item.isDefault),
];

type PendingChange = { readonly kind: 'setDefault' | 'remove'; readonly dashboard: UserDashboard };

interface DashboardsPanelProps {
  readonly onClose: () => void;
  /** Called after the user was removed from a dashboard. */
  readonly onRemoved?: (email: string, dashboardId: string) => void;
}

function DashboardsPanel({ email, onClose, onRemoved }: { readonly email: string } & DashboardsPanelProps) {
  const api = useAdminApi();
  const load = useCallback(() => api.quicksight.userDashboards(email), [api, email]);
  const dashboards = useResource(load);
  const [pending, setPending] = useState<PendingChange | null>(null);
  const call = useServerCall<PendingChange['kind'], Failure>();

  const apply = async () => {
    if (!pending) return;
    const { kind, dashboard } = pending;
    const work = async () => {
      if (kind === 'setDefault') {
        await api.quicksight.setDefaultDashboard(email, dashboard.quicksightDashboardId, dashboard.id);
        notify.success(`${dashboard.name} is now the default dashboard of ${email}`);
      } else {
        await api.quicksight.removeFromDashboard(email, dashboard.quicksightDashboardId, dashboard.id);
        onRemoved?.(email, dashboard.quicksightDashboardId);
        notify.success(`${email} removed from ${dashboard.name}`);
      }
      dashboards.reload();
    };
    await call.run(kind, work, {
      failure: (error) =>
        actionFailure(kind === 'setDefault' ? ADMIN_FAILURES.setDefault : ADMIN_FAILURES.removeFromDashboard, error),
      settled: () => setPending(null),
    });
  };

  const list = dashboards.data === undefined ? undefined : defaultFirst(dashboards.data);
  return (
    <Modal
      open
      wide
      title={`Dashboards for ${email}`}
      onClose={onClose}
      footer={
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      }
    >
      <div className="stack">
        {call.failure && <FailureAlert failure={call.failure} onDismiss={() => call.setFailure(null)} />}
        {dashboards.error !== null && (
          <LoadFailure
            title={ADMIN_FAILURES.loadUserDashboards}
            detail={failureMessage(dashboards.error)}
            onRetry={dashboards.reload}
            retrying={dashboards.loading}
          />
        )}
        {list === undefined ? (
          dashboards.loading && dashboards.error === null && <Spinner label="Loading dashboards..." />
        ) : list.length === 0 ? (
          <EmptyList title="No dashboards assigned to this user.">
            Close this and choose Invite in the user&apos;s menu to give them dashboards, one of them as the default.
          </EmptyList>
        ) : (
          <ul className="assignment-list">
            {list.map((dashboard) => (
              <li key={dashboard.id} className="assignment">
                <div className="assignment-info">
                  <p className="assignment-name">
                    {dashboard.name}
                    {dashboard.isDefault && <Badge tone="success">Default</Badge>}
                  </p>
                  <p className="assignment-link text-muted">{dashboard.link}</p>
                  {dashboard.companyName && <p className="text-muted">Company: {dashboard.companyName}</p>}
                </div>
                <div className="row-actions">
                  {!dashboard.isDefault && (
                    <Button
                      size="sm"
                      variant="secondary"
                      disabled={call.busy}
                      onClick={() => setPending({ kind: 'setDefault', dashboard })}
                    >
                      Set Default <span className="visually-hidden">({dashboard.name})</span>
                    </Button>
                  )}
                  <Button
                    size="sm"
                    variant="danger"
                    disabled={call.busy}
                    onClick={() => setPending({ kind: 'remove', dashboard })}
                    aria-label={`Remove ${dashboard.name}`}
                  >
                    Remove
                  </Button>
                  <a
                    className="btn btn-secondary btn-sm"
                    href={dashboard.link}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={`View ${dashboard.name} (opens in a new tab)`}
                  >
                    View
                  </a>
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
      <ConfirmDialog
        open={pending?.kind === 'setDefault'}
        title="Set Default Dashboard"
        tone="primary"
        confirmLabel="Set Default"
        busyLabel="Saving..."
        busy={call.busy}
        onConfirm={() => void apply()}
        onCancel={() => setPending(null)}
      >
        <p>
          Make <strong>{pending?.dashboard.name}</strong> the default dashboard of {email}?
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={pending?.kind === 'remove'}
        title="Remove Dashboard"
        confirmLabel="Remove"
        busyLabel="Removing..."
        busy={call.busy}
        onConfirm={() => void apply()}
        onCancel={() => setPending(null)}
      >
        <p>
          Remove {email} from <strong>{pending?.dashboard.name}</strong>? They will no longer see it.
        </p>
      </ConfirmDialog>
    </Modal>
  );
}

/** A user's Dashboards panel: assignments with Default badge, Set Default, Remove and View. */
export function UserDashboardsPanel({ email, ...props }: { readonly email: string | null } & DashboardsPanelProps) {
  return email === null ? null : <DashboardsPanel key={email} email={email} {...props} />;
}
