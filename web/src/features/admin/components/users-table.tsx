import { memo, useCallback, useState } from 'react';
import { INVITATION_MESSAGES, INVITATION_PENDING_STATUS, PROMOTE_MESSAGES, type ManagedUser } from '../../../../../contracts/user-admin.ts';
import { Badge } from '../../../components/badge.tsx';
import { RowActions } from '../../../components/row-actions.tsx';
import { ADMINS_GROUP, blockedReason } from '../protection.ts';
import { CompanyCell } from './company-cell.tsx';
import { EmptyList } from '../../../components/empty-list.tsx';
import { noUsersNextText, noUsersText, UserCell } from './user-list-card.tsx';
import { VirtualTable } from './virtual-table.tsx';

export type UserAction = 'edit' | 'toggle' | 'delete' | 'resetMfa' | 'promote' | 'resendInvitation';

/** Cognito's status of an account that has not signed in with its temporary password yet. */
export const AWAITING_FIRST_SIGN_IN = INVITATION_PENDING_STATUS;

export const INVITATION_TEXTS = { pending: 'Invitation pending', expired: 'Invitation expired' } as const;

/**
 * An invited account that has not signed in yet: pending until its temporary password
 * expires (then it needs Resend Invitation), with the expiry's local date.
 */
export function InvitationStatus({ user }: { readonly user: ManagedUser }) {
  // When the row was first shown: the page is reloaded long before a day's difference matters.
  const [now] = useState(Date.now);
  if (user.status !== AWAITING_FIRST_SIGN_IN) return null;
  const expires = user.invitationExpires ? new Date(user.invitationExpires) : null;
  const known = expires !== null && !Number.isNaN(expires.getTime());
  const expired = known && expires.getTime() <= now;
  return (
    <span className="invitation-status" title={known ? `The temporary password ${expired ? 'expired' : 'expires'} ${expires.toLocaleString()}` : undefined}>
      <Badge tone={expired ? 'warning' : 'info'}>{expired ? INVITATION_TEXTS.expired : INVITATION_TEXTS.pending}</Badge>
      {known && <span className="invitation-expiry">{`${expired ? 'Expired' : 'Expires'} ${expires.toLocaleDateString()}`}</span>}
    </span>
  );
}

/** What to do when there is no account at all. */
export const USERS_NEXT_STEP = 'Add one with Add New User, or several from a CSV file with Import Users.';

export const USER_ROW_HEIGHT = 60;
/** A row as a card on a phone: the user and the menu, then company, group, status and creation date. */
export const USER_CARD_HEIGHT = 136;

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
  return (
    <tr aria-rowindex={ariaRowIndex} className={isAdmin ? 'vtable-row is-admin' : 'vtable-row'}>
      <td className="cell-primary">
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
      <td data-label="Company" className="cell-company">
        <CompanyCell companies={user.companies} owner={user.owner} />
      </td>
      <td>
        <Badge tone={isAdmin ? 'warning' : 'neutral'}>{user.cognitoGroup ?? 'Unknown'}</Badge>
      </td>
      <td>
        <span className="enabled-cell">
          <Badge tone={user.enabled ? 'success' : 'danger'}>{user.enabled ? 'Enabled' : 'Disabled'}</Badge>
          <InvitationStatus user={user} />
        </span>
      </td>
      <td data-label="Created">{createdDate(user.created)}</td>
      <td className="cell-actions">
        <RowActions
          label={`Actions for ${user.email}`}
          title={user.email}
          busy={busy}
          actions={[
            { label: 'Edit', disabledReason: blockedReason('update', target, signedInEmail), onSelect: () => onAction('edit', user) },
            {
              label: user.enabled ? 'Disable' : 'Enable',
              disabledReason: blockedReason('disable', target, signedInEmail),
              onSelect: () => onAction('toggle', user),
            },
            { label: 'Reset MFA', disabledReason: blockedReason('resetMfa', target, signedInEmail), onSelect: () => onAction('resetMfa', user) },
            ...(user.status === AWAITING_FIRST_SIGN_IN
              ? [
                  {
                    label: 'Resend Invitation',
                    disabledReason: blockedReason('resendInvitation', target, signedInEmail) ?? (user.enabled ? null : INVITATION_MESSAGES.disabled),
                    onSelect: () => onAction('resendInvitation', user),
                  },
                ]
              : []),
            ...(isAdmin
              ? []
              : [
                  {
                    label: 'Make Admin',
                    disabledReason: user.enabled ? null : PROMOTE_MESSAGES.disabled,
                    onSelect: () => onAction('promote', user),
                  },
                ]),
            {
              label: 'Delete',
              destructive: true,
              disabledReason: blockedReason('delete', target, signedInEmail),
              onSelect: () => onAction('delete', user),
            },
          ]}
        />
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
      columnCount={6}
      header={
        <>
          <th scope="col">User</th>
          <th scope="col">Company</th>
          <th scope="col">Cognito Group</th>
          <th scope="col">Enabled</th>
          <th scope="col">Created</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </>
      }
      rows={users}
      rowKey={userKey}
      renderRow={renderRow}
      rowHeight={USER_ROW_HEIGHT}
      cardHeight={USER_CARD_HEIGHT}
      resetScrollKey={query}
      empty={<EmptyList title={noUsersText(query)}>{noUsersNextText(query, USERS_NEXT_STEP)}</EmptyList>}
    />
  );
});
