import { memo, useCallback } from 'react';
import { PROMOTE_MESSAGES, type ManagedUser } from '../../../../../contracts/user-admin.ts';
import { Badge } from '../../../components/badge.tsx';
import { ADMINS_GROUP, blockedReason } from '../protection.ts';
import { GuardedButton } from './guarded-button.tsx';
import { noUsersText, UserCell } from './user-list-card.tsx';
import { VirtualTable } from './virtual-table.tsx';

export type UserAction = 'edit' | 'toggle' | 'delete' | 'resetMfa' | 'promote' | 'resendInvitation';

/** Cognito's status of an account that has not signed in with its temporary password yet. */
export const AWAITING_FIRST_SIGN_IN = 'FORCE_CHANGE_PASSWORD';

export const USER_ROW_HEIGHT = 60;

/** Local date of an ISO timestamp, or N/A. */
export function createdDate(created: string | null): string {
  if (!created) return 'N/A';
  const date = new Date(created);
  return Number.isNaN(date.getTime()) ? 'N/A' : date.toLocaleDateString();
}

interface UserRowProps {
  readonly user: ManagedUser;
  readonly ariaRowIndex: number;
  readonly isCurrentUser: boolean;
  readonly busy: boolean;
  readonly signedInEmail: string;
  readonly onAction: (action: UserAction, user: ManagedUser) => void;
}

const UserRow = memo(function UserRow({ user, ariaRowIndex, isCurrentUser, busy, signedInEmail, onAction }: UserRowProps) {
  const isAdmin = user.cognitoGroup === ADMINS_GROUP;
  const target = { email: user.email, isAdmin };
  const toggleBlocked = blockedReason('disable', target, signedInEmail);
  return (
    <tr aria-rowindex={ariaRowIndex} className={isAdmin ? 'vtable-row is-admin' : 'vtable-row'}>
      <td>
        <UserCell
          email={user.email}
          username={user.username}
          badge={
            isCurrentUser && (
              <Badge tone="info" className="user-badge">
                Current User
              </Badge>
            )
          }
        />
      </td>
      <td>
        <Badge tone={isAdmin ? 'warning' : 'neutral'}>{user.cognitoGroup ?? 'Unknown'}</Badge>
      </td>
      <td>
        <Badge tone={user.enabled ? 'success' : 'danger'}>{user.enabled ? 'Enabled' : 'Disabled'}</Badge>
      </td>
      <td>{createdDate(user.created)}</td>
      <td>
        <div className="row-actions">
          <GuardedButton
            size="sm"
            variant="secondary"
            disabled={busy}
            blockedReason={blockedReason('update', target, signedInEmail)}
            onClick={() => onAction('edit', user)}
            aria-label={`Edit ${user.email}`}
          >
            Edit
          </GuardedButton>
          <GuardedButton
            size="sm"
            variant="secondary"
            disabled={busy}
            blockedReason={toggleBlocked}
            onClick={() => onAction('toggle', user)}
            aria-label={`${user.enabled ? 'Disable' : 'Enable'} ${user.email}`}
          >
            {user.enabled ? 'Disable' : 'Enable'}
          </GuardedButton>
          <GuardedButton
            size="sm"
            variant="danger"
            disabled={busy}
            blockedReason={blockedReason('delete', target, signedInEmail)}
            onClick={() => onAction('delete', user)}
            aria-label={`Delete ${user.email}`}
          >
            Delete
          </GuardedButton>
          <GuardedButton
            size="sm"
            variant="ghost"
            disabled={busy}
            blockedReason={blockedReason('resetMfa', target, signedInEmail)}
            onClick={() => onAction('resetMfa', user)}
            aria-label={`Reset MFA for ${user.email}`}
          >
            Reset MFA
          </GuardedButton>
          {user.status === AWAITING_FIRST_SIGN_IN && (
            <GuardedButton
              size="sm"
              variant="ghost"
              disabled={busy}
              blockedReason={blockedReason('resendInvitation', target, signedInEmail)}
              onClick={() => onAction('resendInvitation', user)}
              aria-label={`Resend invitation to ${user.email}`}
            >
              Resend Invitation
            </GuardedButton>
          )}
          {!isAdmin && (
            <GuardedButton
              size="sm"
              variant="ghost"
              disabled={busy}
              blockedReason={user.enabled ? null : PROMOTE_MESSAGES.disabled}
              onClick={() => onAction('promote', user)}
              aria-label={`Make Admin ${user.email}`}
            >
              Make Admin
            </GuardedButton>
          )}
        </div>
      </td>
    </tr>
  );
});

export interface UsersTableProps {
  readonly users: readonly ManagedUser[];
  readonly signedInEmail: string;
  /** The account an action is running for; its buttons are disabled meanwhile. */
  readonly busyEmail: string | null;
  /** The search the rows were filtered with. */
  readonly query: string;
  readonly onAction: (action: UserAction, user: ManagedUser) => void;
}

const userKey = (user: ManagedUser) => user.username || user.email;

/** The All Users table (admin-portal §2), virtualized. */
export const UsersTable = memo(function UsersTable({
  users,
  signedInEmail,
  busyEmail,
  query,
  onAction,
}: UsersTableProps) {
  const self = signedInEmail.toLowerCase();
  const renderRow = useCallback(
    (user: ManagedUser, ariaRowIndex: number) => (
      <UserRow
        key={userKey(user)}
        user={user}
        ariaRowIndex={ariaRowIndex}
        isCurrentUser={user.email.toLowerCase() === self}
        busy={busyEmail === user.email}
        signedInEmail={signedInEmail}
        onAction={onAction}
      />
    ),
    [self, busyEmail, signedInEmail, onAction],
  );
  return (
    <VirtualTable
      label="All Users"
      columnCount={5}
      header={
        <>
          <th scope="col">User</th>
          <th scope="col">Cognito Group</th>
          <th scope="col">Enabled</th>
          <th scope="col">Created</th>
          <th scope="col">Actions</th>
        </>
      }
      rows={users}
      rowKey={userKey}
      renderRow={renderRow}
      rowHeight={USER_ROW_HEIGHT}
      resetScrollKey={query}
      empty={<p className="text-muted">{noUsersText(query)}</p>}
    />
  );
});
