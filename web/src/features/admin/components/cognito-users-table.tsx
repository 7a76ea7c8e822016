import { memo, useCallback, useMemo } from 'react';
import type { CognitoUserWithQuicksight } from '#contracts/quicksight-admin.ts';
import { Badge } from '#web/components/badge.tsx';
import type { RowAction } from '#web/components/row-actions.tsx';
import { ADMINS_GROUP } from '#contracts/groups.ts';
import { blockedReason } from '../protection.ts';
import { AssignedDashboards, type AssignmentsByEmail } from './assigned-dashboards.tsx';
import { Link } from 'react-router';
import { paths } from '#web/config/paths.ts';
import { EmptyList } from '#web/components/empty-list.tsx';
import { noUsersNextText, noUsersText, UserCell } from './user-list-card.tsx';
import { UserTable, type UserColumn } from './user-table.tsx';

/** What to do when there is no account at all: accounts are made on Manage Users. */
const COGNITO_USERS_NEXT_STEP =
  'Accounts are added on Manage Users (Add New User or Import Users); they then appear here to be given dashboards.';
export type CognitoUserAction = 'dashboards' | 'invite' | 'delete' | 'register';

const COGNITO_ROW_HEIGHT = 60;
/** A row as a card on a phone: the user and the menu, then group, QuickSight status, role and dashboards. */
const COGNITO_CARD_HEIGHT = 140;

/** QuickSight role as the table shows it: Admin, Author, another role's own text, or N/A. */
function quicksightRoleText(user: CognitoUserWithQuicksight): string {
  const role = user.quicksight?.role;
  if (!user.existsInQuickSight || !role) return 'N/A';
  if (role === 'ADMIN') return 'Admin';
  if (role === 'AUTHOR') return 'Author';
  return role;
}

export const isAdminUser = (user: CognitoUserWithQuicksight) => user.cognito.cognitoGroup === ADMINS_GROUP;

const NO_NAMES: readonly string[] = [];

/** The columns of Cognito Users; `assignments` undefined while the catalogue is not loaded. */
function cognitoUserColumns(
  assignments: AssignmentsByEmail | undefined,
): readonly UserColumn<CognitoUserWithQuicksight>[] {
  return [
    {
      header: 'User',
      className: 'cell-primary',
      cell: (user) => <UserCell email={user.email} username={user.username} />,
    },
    {
      header: 'Cognito Group',
      cell: (user) => (
        <Badge tone={isAdminUser(user) ? 'warning' : 'neutral'}>{user.cognito.cognitoGroup ?? 'Unknown'}</Badge>
      ),
    },
    {
      header: 'QuickSight Status',
      cell: (user) => (
        <Badge tone={user.existsInQuickSight ? 'success' : 'neutral'}>
          {user.existsInQuickSight ? 'Registered' : 'Not Registered'}
        </Badge>
      ),
    },
    { header: 'QuickSight Role', cardLabel: 'Role', cell: quicksightRoleText },
    {
      header: 'Dashboards',
      cardLabel: 'Dashboards',
      className: 'cell-dashboards',
      cell: (user) => (
        <AssignedDashboards
          email={user.email}
          names={assignments === undefined ? undefined : (assignments.get(user.email.toLowerCase()) ?? NO_NAMES)}
        />
      ),
    },
  ];
}

/** A row's menu: a registered user's dashboards, invitation and removal, or the registration. */
function cognitoUserActions(
  user: CognitoUserWithQuicksight,
  signedInEmail: string,
  onAction: (action: CognitoUserAction, user: CognitoUserWithQuicksight) => void,
): RowAction[] {
  return user.existsInQuickSight
    ? [
        { label: 'Dashboards', onSelect: () => onAction('dashboards', user) },
        { label: 'Invite', onSelect: () => onAction('invite', user) },
        {
          label: 'Delete from QuickSight',
          destructive: true,
          disabledReason: blockedReason('delete', { email: user.email, isAdmin: isAdminUser(user) }, signedInEmail),
          onSelect: () => onAction('delete', user),
        },
      ]
    : [{ label: 'Register User', onSelect: () => onAction('register', user) }];
}

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

/** The Cognito Users table of the dashboards screen, virtualized. */
export const CognitoUsersTable = memo(function CognitoUsersTable({
  users,
  signedInEmail,
  busyEmail,
  query,
  assignments,
  onAction,
}: CognitoUsersTableProps) {
  const columns = useMemo(() => cognitoUserColumns(assignments), [assignments]);
  const actions = useCallback(
    (user: CognitoUserWithQuicksight) => cognitoUserActions(user, signedInEmail, onAction),
    [signedInEmail, onAction],
  );
  return (
    <UserTable
      label="Cognito Users"
      columns={columns}
      users={users}
      isAdmin={isAdminUser}
      actions={actions}
      busyEmail={busyEmail}
      query={query}
      rowHeight={COGNITO_ROW_HEIGHT}
      cardHeight={COGNITO_CARD_HEIGHT}
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
