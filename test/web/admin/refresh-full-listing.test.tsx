import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import DashboardsPage from '#web/features/admin/routes/dashboards-page.tsx';
import UsersPage from '#web/features/admin/routes/users-page.tsx';
import {
  ADMIN_EMAIL,
  cognitoUser,
  fakeAdminApi,
  listCompaniesOf,
  managedUser,
  renderAdmin,
  stubViewport,
} from './support.tsx';

/**
 * The user lists open from the portal's copy of the directory; the pages' Refresh asks for a
 * full listing of the pool (fullListing), which is what shows accounts changed outside the portal.
 */
beforeEach(() => stubViewport());

describe('Refresh on the admin user lists', () => {
  it('Manage Users opens from the copy and lists the whole pool on Refresh, showing the account found', async () => {
    const listUsers = vi.fn(async (fullListing?: boolean) =>
      fullListing
        ? [managedUser(ADMIN_EMAIL, { cognitoGroup: 'Admins' }), managedUser('console.made@example.com')]
        : [managedUser(ADMIN_EMAIL, { cognitoGroup: 'Admins' })],
    );
    const api = fakeAdminApi({ quicksight: { listCompanies: listCompaniesOf([]) }, users: { listUsers } });
    renderAdmin(<UsersPage />, { api });
    await screen.findByText(ADMIN_EMAIL);
    expect(listUsers).toHaveBeenCalledTimes(1);
    expect(listUsers.mock.calls[0]?.[0]).toBe(false);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('console.made@example.com')).toBeInTheDocument();
    expect(listUsers.mock.calls.map((call) => call[0])).toEqual([false, true]);
  });

  it('Manage Dashboards does the same for its user list', async () => {
    const listUsers = vi.fn(async (fullListing?: boolean) =>
      fullListing ? [cognitoUser(ADMIN_EMAIL), cognitoUser('console.made@example.com')] : [cognitoUser(ADMIN_EMAIL)],
    );
    const api = fakeAdminApi({
      quicksight: { listUsers, listCatalogue: vi.fn(async () => []), listCompanies: listCompaniesOf([]) },
    });
    renderAdmin(<DashboardsPage />, { api });
    await screen.findByText(ADMIN_EMAIL);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(listUsers.mock.calls.map((call) => call[0])).toEqual([false, true]));
    expect(await screen.findByText('console.made@example.com')).toBeInTheDocument();
  });
});
