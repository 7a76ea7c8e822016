import type { ReactNode } from 'react';
import { Card } from '#web/components/card.tsx';
import { LoadFailure } from '#web/components/load-failure.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { countText } from '../count-text.ts';
import { failureMessage } from '../errors.ts';
import type { SearchState } from '../search.ts';
import { SearchField } from './search-field.tsx';
import './user-list-card.css';

export interface UserListCardProps {
  readonly title: ReactNode;
  readonly titleId?: string;
  /** The search box and the rows it lets through (built with `userSearchText`). */
  readonly search: Pick<SearchState<unknown>, 'query' | 'setQuery' | 'rows'>;
  readonly total: number;
  /** The first load is under way: a spinner instead of the table. */
  readonly loading: boolean;
  /** The last load failed: its error, shown with Retry in place of the table (or above the rows kept). */
  readonly failure?: LoadFailureState | null;
  /** The table. */
  readonly children: ReactNode;
}

export interface LoadFailureState {
  readonly error: unknown;
  /** The screen's failure text. */
  readonly title: string;
  readonly onRetry: () => void;
  readonly retrying: boolean;
  /** Rows of an earlier load are still there to show under the failure. */
  readonly hasRows: boolean;
}

/** A card with a user table and its 'Search users...' box (username or email, any case). */
export function UserListCard({ title, titleId, search, total, loading, failure, children }: UserListCardProps) {
  const failed = failure != null && failure.error !== null;
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
          // No count before the first load: '0 of 0 users' would say the directory is empty.
          {...(loading
            ? {}
            : { resultText: `${search.rows.length.toLocaleString()} of ${countText(total, 'user', 'users')}` })}
        />
      }
    >
      {failed && (
        <LoadFailure
          title={failure.title}
          detail={failureMessage(failure.error)}
          onRetry={failure.onRetry}
          retrying={failure.retrying}
        />
      )}
      {loading ? <Spinner label="Loading users..." /> : (!failed || failure.hasRows) && children}
    </Card>
  );
}

/** What the search box of a user list looks in: the username and the email. */
export const userSearchText = (user: { readonly username: string; readonly email: string }) =>
  `${user.username}\n${user.email}`;

/**
 * The User column: the email, then the username below it. A value too long for the column
 * ends in an ellipsis and shows in full on hover (and in the row's actions menu).
 */
export function UserCell({
  email,
  username,
  badge,
}: {
  readonly email: string;
  readonly username: string;
  readonly badge?: ReactNode;
}) {
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

/** What to do about an empty user table: a search that found nobody, or no accounts at all. */
export const noUsersNextText = (query: string, whenNone: string) =>
  query.trim() ? 'Check the spelling, or search for part of the email address or username.' : whenNone;
