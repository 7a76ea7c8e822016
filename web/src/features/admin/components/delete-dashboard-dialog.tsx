import type { DashboardMetadata } from '#contracts/quicksight-admin.ts';
import { useAdminApi } from '../api/admin-api-context.tsx';
import { ADMIN_FAILURES } from '../errors.ts';
import { DeleteConfirmation } from './delete-confirmation.tsx';
import './delete-dashboard-dialog.css';

/** How many affected users the confirmation lists before summing up the rest. */
const LISTED_USERS = 10;

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
  return (
    <DeleteConfirmation
      open={dashboard !== null}
      title="Delete Dashboard"
      failureTitle={ADMIN_FAILURES.deleteDashboard}
      onDelete={() => api.quicksight.deleteDashboard(dashboard!.id)}
      onDeleted={onDeleted}
      onClose={onClose}
    >
      {dashboard && (
        <>
          <p>
            Delete <strong>{dashboard.dashboardName}</strong> ({dashboard.dashboardId}) from the catalogue? It is also
            removed from every user who has it.
          </p>
          <AffectedUsers dashboard={dashboard} />
        </>
      )}
    </DeleteConfirmation>
  );
}
