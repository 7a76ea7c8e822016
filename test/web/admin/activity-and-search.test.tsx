import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AuditEntry } from '../../../contracts/user-admin.ts';
import { actionsIn, filterActivity, NO_FILTER } from '../../../web/src/features/admin/activity-filter.ts';
import ActivityPage from '../../../web/src/features/admin/routes/activity-page.tsx';
import { buildSearchIndex, filterByIndex } from '../../../web/src/features/admin/search.ts';
import { apiError, fakeAdminApi, renderAdmin } from './support.tsx';

const entry = (id: string, overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  id,
  at: '2026-03-14T10:00:00.000Z',
  actor: 'demo.admin@example.com',
  action: 'CREATE_USER',
  target: `${id}@example.com`,
  outcome: 'success',
  detail: null,
  ...overrides,
});

const firstPage = [
  entry('a1', { action: 'DISABLE_USER', target: 'jane@example.com' }),
  entry('a2', { action: 'DELETE_USER', target: 'other.admin@example.com', outcome: 'failure', detail: 'Cannot delete other admin accounts' }),
  entry('a3', { action: 'INVITE_TO_DASHBOARD', target: 'jane@example.com', detail: 'dashboard sales-performance (default)' }),
];

describe('search index', () => {
  const rows = ['Jane.Doe@Example.com', 'sam@example.com', 'SAMANTHA@example.com'];
  const index = buildSearchIndex(rows, (row) => row);

  it('matches without case and ignores surrounding spaces', () => {
    expect(filterByIndex(rows, index, ' sam ')).toEqual(['sam@example.com', 'SAMANTHA@example.com']);
    expect(filterByIndex(rows, index, 'JANE')).toEqual(['Jane.Doe@Example.com']);
  });

  it('gives the same list back for an empty query', () => {
    expect(filterByIndex(rows, index, '  ')).toBe(rows);
  });
});

describe('activity filter', () => {
  it('filters by text, action and outcome together', () => {
    expect(filterActivity(firstPage, NO_FILTER)).toBe(firstPage);
    expect(filterActivity(firstPage, { ...NO_FILTER, text: 'JANE' }).map((e) => e.id)).toEqual(['a1', 'a3']);
    expect(filterActivity(firstPage, { ...NO_FILTER, text: 'assign dashboard' }).map((e) => e.id)).toEqual(['a3']);
    expect(filterActivity(firstPage, { ...NO_FILTER, outcome: 'failure' }).map((e) => e.id)).toEqual(['a2']);
    expect(filterActivity(firstPage, { text: 'jane', action: 'DISABLE_USER', outcome: 'success' }).map((e) => e.id)).toEqual(['a1']);
  });

  it('offers the actions present, by name', () => {
    expect(actionsIn(firstPage)).toEqual([
      { value: 'INVITE_TO_DASHBOARD', label: 'Assign dashboard' },
      { value: 'DELETE_USER', label: 'Delete user' },
      { value: 'DISABLE_USER', label: 'Disable user' },
    ]);
  });
});

describe('Activity tab', () => {
  it('lists the trail newest first, filters it and loads more', async () => {
    const auditLog = vi.fn(async (nextToken?: string) =>
      nextToken === undefined
        ? { entries: firstPage, nextToken: 'page-2' }
        : { entries: [entry('b1', { action: 'RESET_USER_MFA', target: 'sam@example.com' })], nextToken: null },
    );
    renderAdmin(<ActivityPage />, { api: fakeAdminApi({ users: { auditLog } }), path: '/admin/activity' });
    const table = await screen.findByRole('table');
    const rows = () => within(table).getAllByRole('row').slice(1);
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows()[0]).toHaveTextContent('Disable user');
    expect(rows()[1]).toHaveTextContent('Failure');
    expect(rows()[1]).toHaveTextContent('Cannot delete other admin accounts');

    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Outcome'), 'failure');
    expect(rows()).toHaveLength(1);
    await user.selectOptions(screen.getByLabelText('Outcome'), 'all');
    await user.type(screen.getByLabelText('Filter'), 'nobody');
    expect(screen.getByText('No activity matches the filter')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Filter'));

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(rows()).toHaveLength(4));
    expect(auditLog).toHaveBeenLastCalledWith('page-2');
    expect(rows()[3]).toHaveTextContent('Reset MFA');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('reports a trail that cannot be loaded', async () => {
    const auditLog = vi.fn(async () => Promise.reject(apiError(403, 'Forbidden')));
    renderAdmin(<ActivityPage />, { api: fakeAdminApi({ users: { auditLog } }), path: '/admin/activity' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load the activity log');
    expect(alert).toHaveTextContent('Forbidden');
  });
});
