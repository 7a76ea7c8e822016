import { useState } from 'react';
import type { DashboardMetadata } from '../../../../../contracts/quicksight-admin.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { notify } from '../../../components/toaster.tsx';
import { useAdminApi } from '../api/admin-api-context.tsx';
import { actionFailure, ADMIN_FAILURES, type Failure } from '../errors.ts';
import { FailureAlert } from './failure-alert.tsx';

/** How many affected users the confirmation lists before summing up the rest. */
export const LISTED_USERS = 10;

function AffectedUsers({ dashboard }: { readonly dashboard: DashboardMetadata }) {
  const emails = dashboard.assignedUserEmails;
  if (emails === undefined) {
    return dashboard.assignedUsers === undefined ? null : <p>It is assigned to {dashboard.assignedUsers} user(s).</p>;
  }
  if (emails.length === 0) return <p>No user has this dashboard assigned.</p>;
  const rest = emails.length - LISTED_USERS;
  return (
    <div>
      <p>These {emails.length} user(s) will lose access to it:</p>
      <ul className="affected-users">
        {emails.slice(0, LISTED_USERS).map((email) => (
          <li key={email}>{email}</li>
        ))}
        {rest > 0 && <li>and {rest} more</li>}
      </ul>
    </div>
  );
}

export interface DeleteDashboardDialogProps {
  readonly dashboard: DashboardMetadata | null;
  readonly onClose: () => void;
  readonly onDeleted: () => void;
}

/** Asks before deleting a catalogue entry, naming the users it is removed from. */
export function DeleteDashboardDialog({ dashboard, onClose, onDeleted }: DeleteDashboardDialogProps) {
  const api = useAdminApi();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);

  const close = () => {
    setFailure(null);
    onClose();
  };

  const remove = async () => {
    if (!dashboard) return;
    setBusy(true);
    setFailure(null);
    try {
      const { message } = await api.quicksight.deleteDashboard(dashboard.id);
      notify.success(message);
      onDeleted();
    } catch (error) {
      setFailure(actionFailure(ADMIN_FAILURES.deleteDashboard, error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <ConfirmDialog
      open={dashboard !== null}
      title="Delete Dashboard"
      confirmLabel="Delete"
      busyLabel="Deleting..."
      busy={busy}
      onConfirm={() => void remove()}
      onCancel={close}
    >
      {dashboard && (
        <div className="stack">
          {failure && <FailureAlert failure={failure} onDismiss={() => setFailure(null)} />}
          <p>
            Delete <strong>{dashboard.dashboardName}</strong> ({dashboard.dashboardId}) from the catalogue? It is also removed
            from every user who has it.
          </p>
          <AffectedUsers dashboard={dashboard} />
        </div>
      )}
    </ConfirmDialog>
  );
}
