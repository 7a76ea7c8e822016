import { EmptyList } from '#web/components/empty-list.tsx';
import { memo, useMemo, useState } from 'react';
import type { InsightsUser } from '#contracts/insights.ts';
import { Badge } from '#web/components/badge.tsx';
import { Button } from '#web/components/button.tsx';
import { Select } from '#web/components/select.tsx';
import { downloadFile } from '#web/lib/csv.ts';
import type { InsightsRange } from '../api/admin-api.ts';
import {
  CSV_MIME,
  exportName,
  filterInsightUsers,
  formatSeen,
  INSIGHTS_TEXTS,
  unopenedAssignments,
  USER_SHOW_OPTIONS,
  usersCsv,
  type UserShow,
} from '../insights.ts';
import { SearchField } from './search-field.tsx';
import { VirtualTable } from './virtual-table.tsx';
import './insights-users-table.css';

const ROW_HEIGHT = 60;
/** A row as a card on a phone: the email, then company, last seen, views and assignments. */
const CARD_HEIGHT = 160;

const UserRow = memo(function UserRow({
  user,
  ariaRowIndex,
}: {
  readonly user: InsightsUser;
  readonly ariaRowIndex: number;
}) {
  const unopened = unopenedAssignments(user);
  const attention = user.lastSeenAt === null || unopened.length > 0;
  return (
    <tr aria-rowindex={ariaRowIndex} className={attention ? 'vtable-row needs-attention' : 'vtable-row'}>
      <td className="insights-user cell-primary">
        <span className="truncate" title={user.email}>
          {user.email}
        </span>
      </td>
      <td data-label="Company">{user.companies.join(', ') || '—'}</td>
      <td data-label="Last seen">
        {user.lastSeenAt === null ? (
          <Badge tone="warning">{INSIGHTS_TEXTS.neverViewed}</Badge>
        ) : (
          <time dateTime={user.lastSeenAt}>{formatSeen(user.lastSeenAt)}</time>
        )}
      </td>
      <td className="numeric" data-label="Views (30 days)">
        {user.recentViews.toLocaleString()}
      </td>
      <td data-label="Assigned" title={user.assigned.map((assignment) => assignment.name).join(', ')}>
        {user.assigned.length === 0 ? (
          'None'
        ) : (
          <>
            {user.assigned.length.toLocaleString()}{' '}
            {unopened.length > 0 && (
              <Badge tone="danger" title={`Never opened: ${unopened.map((assignment) => assignment.name).join(', ')}`}>
                {unopened.length} never opened
              </Badge>
            )}
          </>
        )}
      </td>
    </tr>
  );
});

export interface InsightsUsersTableProps {
  readonly users: readonly InsightsUser[];
  /** Whether every page of users has arrived (the export waits for it). */
  readonly complete: boolean;
  readonly range: InsightsRange;
}

/** Every user with an assignment or a recorded view: last seen, views in 30 days, assigned dashboards. */
export function InsightsUsersTable({ users, complete, range }: InsightsUsersTableProps) {
  const [query, setQuery] = useState('');
  const [show, setShow] = useState<UserShow>('all');
  const shown = useMemo(() => filterInsightUsers(users, show, query), [users, show, query]);
  return (
    <>
      <div className="insights-table-tools">
        <SearchField
          label="Search users"
          placeholder="Search by email or company..."
          value={query}
          onChange={setQuery}
          resultText={`${shown.length.toLocaleString()} of ${users.length.toLocaleString()} users${complete ? '' : ' (loading more...)'}`}
        />
        <Select
          label="Show"
          options={USER_SHOW_OPTIONS}
          value={show}
          onChange={(event) => setShow(event.target.value as UserShow)}
        />
        <Button
          variant="secondary"
          disabled={!complete}
          onClick={() => downloadFile(exportName('insights-users', range), CSV_MIME, usersCsv(shown))}
        >
          Export users CSV
        </Button>
      </div>
      <VirtualTable
        label="Users"
        columnCount={5}
        rowHeight={ROW_HEIGHT}
        cardHeight={CARD_HEIGHT}
        rows={shown}
        rowKey={(user) => user.email}
        resetScrollKey={`${show}|${query}`}
        header={
          <>
            <th scope="col">User</th>
            <th scope="col">Company</th>
            <th scope="col">Last seen</th>
            <th scope="col">Views (last 30 days)</th>
            <th scope="col">Assigned dashboards</th>
          </>
        }
        renderRow={(user, ariaRowIndex) => <UserRow key={user.email} user={user} ariaRowIndex={ariaRowIndex} />}
        empty={
          users.length === 0 ? (
            complete ? (
              <EmptyList title="No users have dashboards assigned or recorded views">
                Assign dashboards to users on Manage Dashboards; they show here from then on.
              </EmptyList>
            ) : (
              <p>Loading users...</p>
            )
          ) : (
            <EmptyList title="No users match">Check the spelling, or choose All users under Show.</EmptyList>
          )
        }
      />
    </>
  );
}
