import type { ReactNode } from 'react';
import { Card } from '../../../components/card.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { countText } from '../count-text.ts';
import type { SearchState } from '../search.ts';
import { SearchField } from './search-field.tsx';

export interface UserListCardProps {
  readonly title: ReactNode;
  readonly titleId?: string;
  /** The search box and the rows it lets through (built with `userSearchText`). */
  readonly search: Pick<SearchState<unknown>, 'query' | 'setQuery' | 'rows'>;
  readonly total: number;
  /** The first load is under way: a spinner instead of the table. */
  readonly loading: boolean;
  /** The table. */
  readonly children: ReactNode;
}

/** A card with a user table and its 'Search users...' box (username or email, any case). */
export function UserListCard({ title, titleId, search, total, loading, children }: UserListCardProps) {
  return (
    <Card
      {...(titleId ? { 'aria-labelledby': titleId } : {})}
      title={title}
      actions={
        <SearchField
          label="Search users"
          placeholder="Search users..."
          value={search.query}
          onChange={search.setQuery}
          resultText={`${search.rows.length.toLocaleString()} of ${countText(total, 'user', 'users')}`}
        />
      }
    >
      {loading ? <Spinner label="Loading users..." /> : children}
    </Card>
  );
}

/** What the search box of a user list looks in: the username and the email. */
export const userSearchText = (user: { readonly username: string; readonly email: string }) => `${user.username}\n${user.email}`;

/**
 * The User column: the email, then the username below it. A value too long for the column
 * ends in an ellipsis and shows in full on hover (and in the row's actions menu).
 */
export function UserCell({ email, username, badge }: { readonly email: string; readonly username: string; readonly badge?: ReactNode }) {
  return (
    <div className="user-cell">
      <span className="user-email">
        <span className="truncate" title={email}>
          {email}
        </span>
        {badge}
      </span>
      <span className="user-name text-muted truncate" title={username}>
        {username}
      </span>
    </div>
  );
}

/** The tables' empty states (admin-portal §2). */
export const noUsersText = (query: string) => (query.trim() ? 'No users found matching your search' : 'No users found');
