import { memo, useCallback } from 'react';
import type { CognitoUserWithQuicksight } from '../../../../../contracts/quicksight-admin.ts';
import { Badge } from '../../../components/badge.tsx';
import { RowActions } from '../../../components/row-actions.tsx';
import { ADMINS_GROUP, blockedReason } from '../protection.ts';
import { AssignedDashboards, type AssignmentsByEmail } from './assigned-dashboards.tsx';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { EmptyList } from '../../../components/empty-list.tsx';
import { noUsersNextText, noUsersText, UserCell } from './user-list-card.tsx';
import { VirtualTable } from './virtual-table.tsx';


/** What to do when there is no account at all: accounts are made on Manage Users. */
export const COGNITO_USERS_NEXT_STEP = 'Accounts are added on Manage Users (Add New User or Import Users); they then appear here to be given dashboards.';
export type CognitoUserAction = 'dashboards' | 'invite' | 'delete' | 'register';

export const COGNITO_ROW_HEIGHT = 60;
/** A row as a card on a phone: the user and the menu, then group, QuickSight status, role and dashboards. */
export const COGNITO_CARD_HEIGHT = 140;

/** QuickSight role as the table shows it: Admin, Author, another role's own text, or N/A. */
export function quicksightRoleText(user: CognitoUserWithQuicksight): string {
  const role = user.quicksight?.role;
  if (!user.existsInQuickSight || !role) return 'N/A';
  if (role === 'ADMIN') return 'Admin';
  if (role === 'AUTHOR') return 'Author';
  return role;
}

export const isAdminUser = (user: CognitoUserWithQuicksight) => user.cognito.cognitoGroup === ADMINS_GROUP;

interface CognitoUserRowProps {
  readonly user: CognitoUserWithQuicksight;
  readonly ariaRowIndex: number;
  readonly busy: boolean;
  readonly signedInEmail: string;
  /** Names of the user's assigned dashboards; undefined while the catalogue is not loaded. */
  readonly dashboards: readonly string[] | undefined;
  readonly onAction: (action: CognitoUserAction, user: CognitoUserWithQuicksight) => void;
}

const NO_NAMES: readonly string[] = [];

const CognitoUserRow = memo(function CognitoUserRow({ user, ariaRowIndex, busy, signedInEmail, dashboards, onAction }: CognitoUserRowProps) {
  const isAdmin = isAdminUser(user);
  return (
    <tr aria-rowindex={ariaRowIndex} className={isAdmin ? 'vtable-row is-admin' : 'vtable-row'}>
      <td className="cell-primary">
        <UserCell email={user.email} username={user.username} />
      </td>
      <td>
        <Badge tone={isAdmin ? 'warning' : 'neutral'}>{user.cognito.cognitoGroup ?? 'Unknown'}</Badge>
      </td>
      <td>
        <Badge tone={user.existsInQuickSight ? 'success' : 'neutral'}>
          {user.existsInQuickSight ? 'Registered' : 'Not Registered'}
        </Badge>
      </td>
      <td data-label="Role">{quicksightRoleText(user)}</td>
      <td data-label="Dashboards" className="cell-dashboards">
        <AssignedDashboards email={user.email} names={dashboards} />
      </td>
      <td className="cell-actions">
        <RowActions
          label={`Actions for ${user.email}`}
          title={user.email}
          busy={busy}
          actions={
            user.existsInQuickSight
              ? [
                  { label: 'Dashboards', onSelect: () => onAction('dashboards', user) },
                  { label: 'Invite', onSelect: () => onAction('invite', user) },
                  {
                    label: 'Delete from QuickSight',
                    destructive: true,
                    disabledReason: blockedReason('delete', { email: user.email, isAdmin }, signedInEmail),
                    onSelect: () => onAction('delete', user),
                  },
                ]
              : [{ label: 'Register User', onSelect: () => onAction('register', user) }]
          }
        />
      </td>
    </tr>
  );
});

export interface CognitoUsersTableProps {
  readonly users: readonly CognitoUserWithQuicksight[];
  readonly signedInEmail: string;
  readonly busyEmail: string | null;
  /** The search the rows were filtered with. */
  readonly query: string;
  /** Each user's assigned dashboards (from the catalogue); undefined while it is not loaded. */
  readonly assignments?: AssignmentsByEmail;
  readonly onAction: (action: CognitoUserAction, user: CognitoUserWithQuicksight) => void;
}

const userKey = (user: CognitoUserWithQuicksight) => user.username || user.email;

/** The Cognito Users table of the dashboards screen, virtualized. */
export const CognitoUsersTable = memo(function CognitoUsersTable({
  users,
  signedInEmail,
  busyEmail,
  query,
  assignments,
  onAction,
}: CognitoUsersTableProps) {
  const renderRow = useCallback(
    (user: CognitoUserWithQuicksight, ariaRowIndex: number) => (
      <CognitoUserRow
        key={userKey(user)}
        user={user}
        ariaRowIndex={ariaRowIndex}
        busy={busyEmail === user.email}
        signedInEmail={signedInEmail}
        dashboards={assignments === undefined ? undefined : (assignments.get(user.email.toLowerCase()) ?? NO_NAMES)}
        onAction={onAction}
      />
    ),
    [busyEmail, signedInEmail, assignments, onAction],
  );
  return (
    <VirtualTable
      label="Cognito Users"
      columnCount={6}
      header={
        <>
          <th scope="col">User</th>
          <th scope="col">Cognito Group</th>
          <th scope="col">QuickSight Status</th>
          <th scope="col">QuickSight Role</th>
          <th scope="col">Dashboards</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </>
      }
      rows={users}
      rowKey={userKey}
      renderRow={renderRow}
      rowHeight={COGNITO_ROW_HEIGHT}
      cardHeight={COGNITO_CARD_HEIGHT}
      resetScrollKey={query}
      empty={
        <EmptyList
          title={noUsersText(query)}
          {...(query.trim() ? {} : { action: <Link to={paths.admin.users}>Go to Manage Users</Link> })}
        >
          {noUsersNextText(query, COGNITO_USERS_NEXT_STEP)}
        </EmptyList>
      }
    />
  );
});
