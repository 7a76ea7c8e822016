import { memo, useCallback, type ReactNode } from 'react';
import { RowActions, type RowAction } from '#web/components/row-actions.tsx';
import { VirtualTable } from './virtual-table.tsx';

/** What every user list shows a row for. */
export interface ListedUser {
  readonly email: string;
  readonly username: string;
}

/** One column of a user table, before the actions column the table adds. */
export interface UserColumn<U> {
  /** The header cell's text. */
  readonly header: string;
  /** The value's name when a row is shown as a card (the cell's data-label); none when the value speaks for itself. */
  readonly cardLabel?: string;
  readonly className?: string;
  readonly cell: (user: U) => ReactNode;
}

export interface UserTableProps<U extends ListedUser> {
  /** Accessible name of the table. */
  readonly label: string;
  readonly columns: readonly UserColumn<U>[];
  readonly users: readonly U[];
  /** Admin rows are highlighted. */
  readonly isAdmin: (user: U) => boolean;
  /** The row's menu: every action, those not allowed disabled with the reason. */
  readonly actions: (user: U) => readonly RowAction[];
  /** The account an action is running for; its buttons are disabled meanwhile. */
  readonly busyEmail: string | null;
  /** The search the rows were filtered with; scrolling returns to the top when it changes. */
  readonly query: string;
  readonly rowHeight: number;
  /** Height of a row shown as a card on a phone. */
  readonly cardHeight: number;
  /** Shown in place of the rows when there are none. */
  readonly empty: ReactNode;
}

interface UserRowProps<U extends ListedUser> {
  readonly user: U;
  readonly ariaRowIndex: number;
  readonly columns: readonly UserColumn<U>[];
  readonly admin: boolean;
  readonly busy: boolean;
  readonly actions: (user: U) => readonly RowAction[];
}

function UserRowCells<U extends ListedUser>({ user, ariaRowIndex, columns, admin, busy, actions }: UserRowProps<U>) {
  return (
    <tr aria-rowindex={ariaRowIndex} className={admin ? 'vtable-row is-admin' : 'vtable-row'}>
      {columns.map((column) => (
        <td key={column.header} data-label={column.cardLabel} className={column.className}>
          {column.cell(user)}
        </td>
      ))}
      <td className="cell-actions">
        <RowActions label={`Actions for ${user.email}`} title={user.email} busy={busy} actions={actions(user)} />
      </td>
    </tr>
  );
}

/** Memoized: a row renders again only when its user, its place, its busy state or the columns change. */
const UserRow = memo(UserRowCells) as typeof UserRowCells;

const userKey = (user: ListedUser) => user.username || user.email;

/**
 * A user list (All Users, Cognito Users), virtualized: the columns it is given, then each row's
 * actions behind one button. The first column is the row's own (`cell-primary`) and leads its card
 * on a phone.
 */
export function UserTable<U extends ListedUser>({
  label,
  columns,
  users,
  isAdmin,
  actions,
  busyEmail,
  query,
  rowHeight,
  cardHeight,
  empty,
}: UserTableProps<U>) {
  const renderRow = useCallback(
    (user: U, ariaRowIndex: number) => (
      <UserRow
        key={userKey(user)}
        user={user}
        ariaRowIndex={ariaRowIndex}
        columns={columns}
        admin={isAdmin(user)}
        busy={busyEmail === user.email}
        actions={actions}
      />
    ),
    [columns, isAdmin, busyEmail, actions],
  );
  return (
    <VirtualTable
      label={label}
      columnCount={columns.length + 1}
      header={
        <>
          {columns.map((column) => (
            <th key={column.header} scope="col">
              {column.header}
            </th>
          ))}
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </>
      }
      rows={users}
      rowKey={userKey}
      renderRow={renderRow}
      rowHeight={rowHeight}
      cardHeight={cardHeight}
      resetScrollKey={query}
      empty={empty}
    />
  );
}
