import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import UsersPage from '#web/features/admin/routes/users-page.tsx';
import { PROMOTE_MESSAGES, RESET_MFA_MESSAGE } from '#contracts/user-admin.ts';
import { COMPANY_MESSAGES } from '#contracts/companies.ts';
import {
  ADMIN_EMAIL,
  apiError,
  chooseRowAction,
  company,
  fakeAdminApi,
  listCompaniesOf,
  managedUser,
  renderAdmin,
  rowActionItem,
  stubViewport,
  type AdminApiOverrides,
} from './support.tsx';

const people = [
  managedUser(ADMIN_EMAIL, { cognitoGroup: 'Admins' }),
  managedUser('other.admin@example.com', { cognitoGroup: 'Admins' }),
  managedUser('jane.doe@example.com', { companies: ['Acme'] }),
  managedUser('paused@example.com', { enabled: false, created: null }),
  managedUser('orphan@example.com', { cognitoGroup: null }),
];

const COMPANIES = [company('Acme'), company('Globex Distribution', { kind: 'distributor' }), company('Initech')];

function renderUsers(users = people, overrides: AdminApiOverrides = {}) {
  const api = fakeAdminApi({
    quicksight: { listCompanies: listCompaniesOf(COMPANIES), ...overrides.quicksight },
    users: { listUsers: vi.fn(async () => users), ...overrides.users },
  });
  renderAdmin(<UsersPage />, { api });
  return { api, user: userEvent.setup() };
}

const rowOf = async (email: string) => (await screen.findByText(email)).closest('tr')!;

beforeEach(() => stubViewport());

describe('user management screen', () => {
  it('shows the heading, the figures and the security notice', async () => {
    renderUsers();
    expect(screen.getByRole('heading', { level: 1, name: 'User Management' })).toBeInTheDocument();
    await screen.findByText('jane.doe@example.com');
    const figure = (label: string) => screen.getByText(label).nextElementSibling;
    expect(figure('Total Users')).toHaveTextContent('5');
    expect(figure('Active Users')).toHaveTextContent('4');
    expect(figure('Disabled Users')).toHaveTextContent('1');
    expect(
      screen.getByText(
        'You cannot edit, disable, delete or reset MFA of admin accounts (including your own). Change your own password with Change Password.',
      ),
    ).toBeInTheDocument();
  });

  it('lists the users with Current User, group, state and local created date', async () => {
    const { user } = renderUsers();
    const self = await rowOf(ADMIN_EMAIL);
    expect(within(self).getByText('Current User')).toBeInTheDocument();
    expect(within(self).getByText('Admins')).toBeInTheDocument();
    expect(
      within(await rowOf('jane.doe@example.com')).getByText(new Date('2026-03-14T10:00:00.000Z').toLocaleDateString()),
    ).toBeInTheDocument();
    const paused = await rowOf('paused@example.com');
    expect(within(paused).getByText('Disabled')).toBeInTheDocument();
    expect(within(paused).getByText('N/A')).toBeInTheDocument();
    expect(within(await rowOf('orphan@example.com')).getByText('Unknown')).toBeInTheDocument();
    expect(await rowActionItem(user, 'paused@example.com', 'Enable')).toBeInTheDocument();
    expect(within(await rowOf('jane.doe@example.com')).queryByText('Current User')).not.toBeInTheDocument();
  });

  it.each([
    [ADMIN_EMAIL, 'Edit', 'Cannot change the password or email of your own account'],
    ['other.admin@example.com', 'Edit', 'Cannot update other admin accounts'],
    [ADMIN_EMAIL, 'Disable', 'Cannot disable your own account'],
    [ADMIN_EMAIL, 'Delete', 'Cannot delete your own account'],
    [ADMIN_EMAIL, 'Reset MFA', 'Cannot reset MFA for your own account'],
    ['other.admin@example.com', 'Disable', 'Cannot disable other admin accounts'],
    ['other.admin@example.com', 'Delete', 'Cannot delete other admin accounts'],
    ['other.admin@example.com', 'Reset MFA', 'Cannot reset MFA for other admin accounts'],
  ])('%s: %s is disabled in the row menu, with the reason "%s" under it', async (email, action, reason) => {
    const { api, user } = renderUsers();
    await rowOf(email);
    const item = await rowActionItem(user, email, action);
    expect(item).toHaveAttribute('aria-disabled', 'true');
    expect(item).toHaveAccessibleDescription(reason);
    expect(item).toHaveTextContent(reason);
    await user.click(item);
    expect(screen.queryByRole('dialog', { name: 'Edit User' })).not.toBeInTheDocument();
    expect(api.users.disableUser).not.toHaveBeenCalled();
    expect(api.users.deleteUser).not.toHaveBeenCalled();
    expect(api.users.resetMfa).not.toHaveBeenCalled();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('searches username and email without case', async () => {
    const { user } = renderUsers();
    await rowOf('jane.doe@example.com');
    await user.type(screen.getByPlaceholderText('Search users...'), 'JANE');
    await waitFor(() => expect(screen.queryByText('paused@example.com')).not.toBeInTheDocument());
    expect(screen.getByText('jane.doe@example.com')).toBeInTheDocument();
    expect(screen.getByText('1 of 5 users')).toBeInTheDocument();
    await user.clear(screen.getByPlaceholderText('Search users...'));
    await user.type(screen.getByPlaceholderText('Search users...'), 'sub-orphan');
    await waitFor(() => expect(screen.queryByText('jane.doe@example.com')).not.toBeInTheDocument());
    expect(screen.getByText('orphan@example.com')).toBeInTheDocument();
    await user.type(screen.getByPlaceholderText('Search users...'), 'zzz');
    expect(await screen.findByText('No users found matching your search')).toBeInTheDocument();
  });

  it('says so when there are no users', async () => {
    renderUsers([]);
    expect(await screen.findByText('No users found')).toBeInTheDocument();
  });

  it('reports a failed load', async () => {
    renderUsers(people, {
      users: { listUsers: vi.fn(async () => Promise.reject(apiError(500, 'Internal server error'))) },
    });
    expect(await screen.findByText('Failed to load users. Please try again.')).toBeInTheDocument();
  });

  it('disables and enables a user', async () => {
    const disableUser = vi.fn(async () => ({ message: 'User disabled successfully' }));
    const { user } = renderUsers(people, { users: { disableUser } });
    await rowOf('jane.doe@example.com');
    await chooseRowAction(user, 'jane.doe@example.com', 'Disable');
    expect(disableUser).toHaveBeenCalledWith('jane.doe@example.com');
    const row = await rowOf('jane.doe@example.com');
    await waitFor(() => expect(within(row).getByText('Disabled')).toBeInTheDocument());
    expect(await rowActionItem(user, 'jane.doe@example.com', 'Enable')).toBeInTheDocument();
  });

  it('deletes after a confirmation and removes the row', async () => {
    const deleteUser = vi.fn(async () => ({ message: 'User deleted successfully' }));
    const { user } = renderUsers(people, { users: { deleteUser } });
    await rowOf('jane.doe@example.com');
    await chooseRowAction(user, 'jane.doe@example.com', 'Delete');
    const dialog = screen.getByRole('alertdialog', { name: 'Delete User' });
    expect(dialog).toHaveTextContent('jane.doe@example.com');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('jane.doe@example.com')).not.toBeInTheDocument());
    expect(deleteUser).toHaveBeenCalledWith('jane.doe@example.com');
  });

  it("shows 'Failed to delete user {email}: {reason}.' when the deletion fails", async () => {
    const deleteUser = vi.fn(async () => Promise.reject(apiError(404, 'User not found')));
    const { user } = renderUsers(people, { users: { deleteUser } });
    await rowOf('jane.doe@example.com');
    await chooseRowAction(user, 'jane.doe@example.com', 'Delete');
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete user jane.doe@example.com: User not found.')).toBeInTheDocument();
    expect(screen.getByText('jane.doe@example.com')).toBeInTheDocument();
  });

  it('resets MFA after a confirmation that says what follows', async () => {
    const resetMfa = vi.fn(async () => ({ message: RESET_MFA_MESSAGE }));
    const { user } = renderUsers(people, { users: { resetMfa } });
    await rowOf('jane.doe@example.com');
    await chooseRowAction(user, 'jane.doe@example.com', 'Reset MFA');
    const dialog = screen.getByRole('alertdialog', { name: 'Reset MFA' });
    expect(dialog).toHaveTextContent('Reset MFA for jane.doe@example.com?');
    expect(dialog).toHaveTextContent('signed out everywhere');
    expect(dialog).toHaveTextContent('At their next sign-in they set up a new authenticator');
    await user.click(within(dialog).getByRole('button', { name: 'Reset MFA' }));
    await waitFor(() => expect(resetMfa).toHaveBeenCalledWith('jane.doe@example.com'));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(await screen.findByText(RESET_MFA_MESSAGE)).toBeInTheDocument();
  });

  it('keeps the account unchanged when the reset is cancelled', async () => {
    const resetMfa = vi.fn(async () => ({ message: RESET_MFA_MESSAGE }));
    const { user } = renderUsers(people, { users: { resetMfa } });
    await rowOf('jane.doe@example.com');
    await chooseRowAction(user, 'jane.doe@example.com', 'Reset MFA');
    await user.click(
      within(screen.getByRole('alertdialog', { name: 'Reset MFA' })).getByRole('button', { name: 'Cancel' }),
    );
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(resetMfa).not.toHaveBeenCalled();
  });

  it('makes a user an admin after a confirmation, and offers it to non-admins only', async () => {
    const promoteToAdmin = vi.fn(async () => ({ message: PROMOTE_MESSAGES.promoted }));
    const { user } = renderUsers(people, { users: { promoteToAdmin } });
    const row = await rowOf('jane.doe@example.com');
    for (const admin of [ADMIN_EMAIL, 'other.admin@example.com']) {
      await user.click(screen.getByRole('button', { name: `Actions for ${admin}` }));
      expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).not.toContain('Make Admin');
      await user.keyboard('{Escape}');
    }
    await chooseRowAction(user, 'jane.doe@example.com', 'Make Admin');
    const dialog = screen.getByRole('alertdialog', { name: 'Make Admin' });
    expect(dialog).toHaveTextContent('Make jane.doe@example.com an admin?');
    expect(dialog).toHaveTextContent('removing someone from the Admins group is done in Cognito');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Make Admin' }));
    await waitFor(() => expect(promoteToAdmin).toHaveBeenCalledWith('jane.doe@example.com'));
    expect(await screen.findByText(PROMOTE_MESSAGES.promoted)).toBeInTheDocument();
    await waitFor(() => expect(within(row).getByText('Admins')).toBeInTheDocument());
    expect(await rowActionItem(user, 'jane.doe@example.com', 'Delete')).toHaveAccessibleDescription(
      'Cannot delete other admin accounts',
    );
  });

  it('does not offer promotion of a disabled account, and reports a refused one', async () => {
    const promoteToAdmin = vi.fn(async () => Promise.reject(apiError(409, PROMOTE_MESSAGES.alreadyAdmin)));
    const { user } = renderUsers(people, { users: { promoteToAdmin } });
    await rowOf('paused@example.com');
    const paused = await rowActionItem(user, 'paused@example.com', 'Make Admin');
    expect(paused).toHaveAttribute('aria-disabled', 'true');
    expect(paused).toHaveAccessibleDescription(PROMOTE_MESSAGES.disabled);
    await user.keyboard('{Escape}');
    await chooseRowAction(user, 'jane.doe@example.com', 'Make Admin');
    await user.click(
      within(screen.getByRole('alertdialog', { name: 'Make Admin' })).getByRole('button', { name: 'Make Admin' }),
    );
    expect(await screen.findByText('Failed to make the user an admin')).toBeInTheDocument();
    expect(within(await rowOf('jane.doe@example.com')).queryByText('Admins')).not.toBeInTheDocument();
  });

  it('resends the invitation of an account that has not signed in yet, and offers it for no other', async () => {
    const pending = managedUser('pending@example.com', { status: 'FORCE_CHANGE_PASSWORD' });
    const resendInvitation = vi.fn(async () => ({ message: 'Invitation sent again with a new temporary password.' }));
    const { user } = renderUsers([...people, pending], { users: { resendInvitation } });
    await rowOf('pending@example.com');
    await user.click(screen.getByRole('button', { name: 'Actions for jane.doe@example.com' }));
    expect(screen.queryByRole('menuitem', { name: 'Resend Invitation' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    await chooseRowAction(user, 'pending@example.com', 'Resend Invitation');
    await waitFor(() => expect(resendInvitation).toHaveBeenCalledWith('pending@example.com'));
    expect(await screen.findByText('Invitation sent again with a new temporary password.')).toBeInTheDocument();
  });

  it('shows why a resend was refused', async () => {
    const pending = managedUser('pending@example.com', { status: 'FORCE_CHANGE_PASSWORD' });
    const resendInvitation = vi.fn(async () =>
      Promise.reject(apiError(409, 'Only an account that has not signed in yet can get a new invitation')),
    );
    const { user } = renderUsers([...people, pending], { users: { resendInvitation } });
    await rowOf('pending@example.com');
    await chooseRowAction(user, 'pending@example.com', 'Resend Invitation');
    expect(await screen.findByText('Failed to resend the invitation')).toBeInTheDocument();
    expect(screen.getByText('Only an account that has not signed in yet can get a new invitation')).toBeInTheDocument();
  });

  it('creates a user and reloads the list', async () => {
    const listUsers = vi.fn(async () => people);
    const createUser = vi.fn(async () => ({ message: 'User created successfully' }));
    const { user } = renderUsers(people, { users: { listUsers, createUser } });
    await rowOf('jane.doe@example.com');
    await user.click(screen.getByRole('button', { name: 'Add New User' }));
    await user.type(screen.getByLabelText('Email'), 'new.user@example.com');
    await user.click(screen.getByLabelText(/Set a password now/));
    await user.type(screen.getByLabelText('Password'), 'Secret#2026');
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    await waitFor(() => expect(createUser).toHaveBeenCalledWith('new.user@example.com', 'Secret#2026'));
    await waitFor(() => expect(listUsers).toHaveBeenCalledTimes(2));
    expect(screen.queryByRole('dialog', { name: 'Create New User' })).not.toBeInTheDocument();
  });

  it('changes a password from the Edit dialog', async () => {
    const updatePassword = vi.fn(async () => ({ message: 'User updated successfully' }));
    const { user } = renderUsers(people, { users: { updatePassword } });
    await rowOf('jane.doe@example.com');
    await chooseRowAction(user, 'jane.doe@example.com', 'Edit');
    // The email is read-only: the dialog opens on the password.
    expect(screen.getByLabelText('New Password')).toHaveFocus();
    await user.type(screen.getByLabelText('New Password'), 'Another#2026');
    await user.click(screen.getByRole('button', { name: 'Update User' }));
    await waitFor(() => expect(updatePassword).toHaveBeenCalledWith('jane.doe@example.com', 'Another#2026'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit User' })).not.toBeInTheDocument());
  });

  it("shows each user's company, owner accounts marked", async () => {
    renderUsers([
      managedUser('jane.doe@example.com', { companies: ['Acme'] }),
      managedUser('owner@example.com', { companies: ['Initech', 'Acme'], owner: true }),
      managedUser('nobody@example.com'),
    ]);
    expect(within(await rowOf('jane.doe@example.com')).getByText('Acme')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Company' })).toBeInTheDocument();
    expect(within(await rowOf('owner@example.com')).getByText('Owner: Acme, Initech')).toBeInTheDocument();
    expect(within(await rowOf('nobody@example.com')).getByText('No company')).toBeInTheDocument();
  });

  it("changes a user's company from the Edit dialog and shows it in the row", async () => {
    const setUserCompanies = vi.fn(
      async (userEmail: string, choice: { companies: readonly string[]; owner: boolean }) => ({
        message: COMPANY_MESSAGES.userCompaniesSet,
        userEmail,
        companies: [...choice.companies],
        owner: choice.owner,
      }),
    );
    const updatePassword = vi.fn(async () => ({ message: 'unexpected' }));
    const { user } = renderUsers(people, { quicksight: { setUserCompanies }, users: { updatePassword } });
    await chooseRowAction(user, 'jane.doe@example.com', 'Edit');
    const dialog = screen.getByRole('dialog', { name: 'Edit User' });
    const select = within(dialog).getByRole('combobox', { name: 'Company' });
    await waitFor(() => expect(select).toBeEnabled());
    await user.selectOptions(select, 'Globex Distribution');
    await user.click(within(dialog).getByRole('button', { name: 'Update User' }));
    await waitFor(() =>
      expect(setUserCompanies).toHaveBeenCalledWith('jane.doe@example.com', {
        companies: ['Globex Distribution'],
        owner: false,
      }),
    );
    expect(updatePassword).not.toHaveBeenCalled();
    expect(await screen.findByText(COMPANY_MESSAGES.userCompaniesSet)).toBeInTheDocument();
    expect(within(await rowOf('jane.doe@example.com')).getByText('Globex Distribution')).toBeInTheDocument();
  });

  it('creates a user with a company: the account first, then its company', async () => {
    const createUser = vi.fn(async () => ({ message: 'User created successfully' }));
    const setUserCompanies = vi.fn(async () => ({
      message: COMPANY_MESSAGES.userCompaniesSet,
      userEmail: 'new.user@example.com',
      companies: ['Initech'],
      owner: false,
    }));
    const { user } = renderUsers(people, { quicksight: { setUserCompanies }, users: { createUser } });
    await rowOf('jane.doe@example.com');
    await user.click(screen.getByRole('button', { name: 'Add New User' }));
    await user.type(screen.getByLabelText('Email'), 'new.user@example.com');
    await user.click(screen.getByLabelText(/Set a password now/));
    await user.type(screen.getByLabelText('Password'), 'Secret#2026');
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Company' })).toBeEnabled());
    await user.selectOptions(screen.getByRole('combobox', { name: 'Company' }), 'Initech');
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    await waitFor(() =>
      expect(setUserCompanies).toHaveBeenCalledWith('new.user@example.com', { companies: ['Initech'], owner: false }),
    );
    expect(createUser.mock.invocationCallOrder[0]).toBeLessThan(setUserCompanies.mock.invocationCallOrder[0]!);
  });
});

describe('row actions', () => {
  it("keeps every row's actions behind one button in the same column, whatever the row allows", async () => {
    const { user } = renderUsers();
    const table = await screen.findByRole('table', { name: 'All Users' });
    await screen.findByText('jane.doe@example.com');
    const lastCells = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell').at(-1)!);
    expect(lastCells.map((cell) => within(cell).getAllByRole('button').length)).toEqual(people.map(() => 1));
    // Delete is the destructive item: last, and marked so in the menu only.
    await user.click(screen.getByRole('button', { name: 'Actions for jane.doe@example.com' }));
    const items = screen.getAllByRole('menuitem');
    expect(items.map((item) => item.querySelector('.menu-item-label')?.textContent)).toEqual([
      'Edit',
      'Disable',
      'Reset MFA',
      'Make Admin',
      'Delete',
    ]);
    expect(items.at(-1)).toHaveClass('menu-item-destructive');
    expect(table.querySelector('.btn-danger')).toBeNull();
  });

  it('shows a long email whole in the title and at the top of the row menu', async () => {
    const long = 'a.very.long.name.for.a.procurement.analyst@subsidiary.manufacturing-group.example.com';
    const { user } = renderUsers([managedUser(long)]);
    expect(await screen.findByText(long)).toHaveAttribute('title', long);
    await user.click(screen.getByRole('button', { name: `Actions for ${long}` }));
    expect(screen.getByRole('menu').parentElement).toHaveTextContent(long);
  });
});

describe('large lists', () => {
  it('renders only the rows in view of 10,000 users, and filters them all', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => managedUser(`user${String(i).padStart(5, '0')}@example.com`));
    const { user } = renderUsers(many);
    await screen.findByText('user00000@example.com');
    const table = screen.getByRole('table', { name: 'All Users' });
    expect(table).toHaveAttribute('aria-rowcount', '10001');
    expect(within(table).getAllByRole('row').length).toBeLessThan(60);
    await user.type(screen.getByPlaceholderText('Search users...'), '09999');
    await waitFor(() => expect(table).toHaveAttribute('aria-rowcount', '2'));
    expect(within(table).getByText('user09999@example.com')).toBeInTheDocument();
  });
});
