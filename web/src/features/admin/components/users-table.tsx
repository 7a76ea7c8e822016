import { memo, useCallback, useMemo, useState } from 'react';
import {
  INVITATION_MESSAGES,
  INVITATION_PENDING_STATUS,
  PROMOTE_MESSAGES,
  type ManagedUser,
} from '#contracts/user-admin.ts';
import { Badge } from '#web/components/badge.tsx';
import type { RowAction } from '#web/components/row-actions.tsx';
import { ADMINS_GROUP } from '#contracts/groups.ts';
import { blockedReason } from '../protection.ts';
import { CompanyCell } from './company-cell.tsx';
import { EmptyList } from '#web/components/empty-list.tsx';
import { noUsersNextText, noUsersText, UserCell } from './user-list-card.tsx';
import { UserTable, type UserColumn } from './user-table.tsx';
import './users-table.css';

export type UserAction = 'edit' | 'toggle' | 'delete' | 'resetMfa' | 'promote' | 'resendInvitation';

/** Cognito's status of an account that has not signed in with its temporary password yet. */
const AWAITING_FIRST_SIGN_IN = INVITATION_PENDING_STATUS;

const INVITATION_TEXTS = { pending: 'Invitation pending', expired: 'Invitation expired' } as const;

/**
 * An invited account that has not signed in yet: pending until its temporary password
 * expires (then it needs Resend Invitation), with the expiry's local date.
 */
function InvitationStatus({ user }: { readonly user: ManagedUser }) {
  // When the row was first shown: the page is reloaded long before a day's difference matters.
  const [now] = useState(Date.now);
  if (user.status !== AWAITING_FIRST_SIGN_IN) return null;
  const expires = user.invitationExpires ? new Date(user.invitationExpires) : null;
  const known = expires !== null && !Number.isNaN(expires.getTime());
  const expired = known && expires.getTime() <= now;
  return (
    <span
      className="invitation-status"
      title={
        known ? `The temporary password ${expired ? 'expired' : 'expires'} ${expires.toLocaleString()}` : undefined
      }
    >
      <Badge tone={expired ? 'warning' : 'info'}>{expired ? INVITATION_TEXTS.expired : INVITATION_TEXTS.pending}</Badge>
      {known && (
        <span className="invitation-expiry">{`${expired ? 'Expired' : 'Expires'} ${expires.toLocaleDateString()}`}</span>
      )}
    </span>
  );
}

/** What to do when there is no account at all. */
const USERS_NEXT_STEP = 'Add one with Add New User, or several from a CSV file with Import Users.';

const USER_ROW_HEIGHT = 60;
/** A row as a card on a phone: the user and the menu, then company, group, status and creation date. */
const USER_CARD_HEIGHT = 136;

/** Local date of an ISO timestamp, or N/A. */
function createdDate(created: string | null): string {
  if (!created) return 'N/A';
  const date = new Date(created);
  return Number.isNaN(date.getTime()) ? 'N/A' : date.toLocaleDateString();
}

const isAdminAccount = (user: ManagedUser) => user.cognitoGroup === ADMINS_GROUP;

/** The columns of All Users; the signed-in admin's own row says Current User. */
function userColumns(signedInEmail: string): readonly UserColumn<ManagedUser>[] {
  const self = signedInEmail.toLowerCase();
  return [
    {
      header: 'User',
      className: 'cell-primary',
      cell: (user) => (
        <UserCell
          email={user.email}
          username={user.username}
          badge={
            user.email.toLowerCase() === self && (
              <Badge tone="info" className="user-badge">
                Current User
              </Badge>
            )
          }
        />
      ),
    },
    {
      header: 'Company',
      cardLabel: 'Company',
      className: 'cell-company',
      cell: (user) => <CompanyCell companies={user.companies} owner={user.owner} />,
    },
    {
      header: 'Cognito Group',
      cell: (user) => (
        <Badge tone={isAdminAccount(user) ? 'warning' : 'neutral'}>{user.cognitoGroup ?? 'Unknown'}</Badge>
      ),
    },
    {
      header: 'Enabled',
      cell: (user) => (
        <span className="enabled-cell">
          <Badge tone={user.enabled ? 'success' : 'danger'}>{user.enabled ? 'Enabled' : 'Disabled'}</Badge>
          <InvitationStatus user={user} />
        </span>
      ),
    },
    { header: 'Created', cardLabel: 'Created', cell: (user) => createdDate(user.created) },
  ];
}

/** A row's menu: what an admin may do to the account, each refused action with its reason. */
function userActions(
  user: ManagedUser,
  signedInEmail: string,
  onAction: (action: UserAction, user: ManagedUser) => void,
): RowAction[] {
  const isAdmin = isAdminAccount(user);
  const target = { email: user.email, isAdmin };
  return [
    {
      label: 'Edit',
      disabledReason: blockedReason('update', target, signedInEmail),
      onSelect: () => onAction('edit', user),
    },
    {
      label: user.enabled ? 'Disable' : 'Enable',
      disabledReason: blockedReason('disable', target, signedInEmail),
      onSelect: () => onAction('toggle', user),
    },
    {
      label: 'Reset MFA',
      disabledReason: blockedReason('resetMfa', target, signedInEmail),
      onSelect: () => onAction('resetMfa', user),
    },
    ...(user.status === AWAITING_FIRST_SIGN_IN
      ? [
          {
            label: 'Resend Invitation',
            disabledReason:
              blockedReason('resendInvitation', target, signedInEmail) ??
              (user.enabled ? null : INVITATION_MESSAGES.disabled),
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
  ];
}

export interface UsersTableProps {
  readonly users: readonly ManagedUser[];
  readonly signedInEmail: string;
  /** The account an action is running for; its buttons are disabled meanwhile. */
  readonly busyEmail: string | null;
  /** The search the rows were filtered with. */
  readonly query: string;
  readonly onAction: (action: UserAction, user: ManagedUser) => void;
}

/** The All Users table (admin-portal §2), virtualized. */
export const UsersTable = memo(function UsersTable({
  users,
  signedInEmail,
  busyEmail,
  query,
  onAction,
}: UsersTableProps) {
  const columns = useMemo(() => userColumns(signedInEmail), [signedInEmail]);
  const actions = useCallback(
    (user: ManagedUser) => userActions(user, signedInEmail, onAction),
    [signedInEmail, onAction],
  );
  return (
    <UserTable
      label="All Users"
      columns={columns}
      users={users}
      isAdmin={isAdminAccount}
      actions={actions}
      busyEmail={busyEmail}
      query={query}
      rowHeight={USER_ROW_HEIGHT}
      cardHeight={USER_CARD_HEIGHT}
      empty={<EmptyList title={noUsersText(query)}>{noUsersNextText(query, USERS_NEXT_STEP)}</EmptyList>}
    />
  );
});
