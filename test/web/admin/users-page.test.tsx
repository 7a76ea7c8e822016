import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import UsersPage from '../../../web/src/features/admin/routes/users-page.tsx';
import { PROMOTE_MESSAGES, RESET_MFA_MESSAGE } from '../../../contracts/user-admin.ts';
import { ADMIN_EMAIL, apiError, fakeAdminApi, managedUser, renderAdmin, stubViewport, type AdminApiOverrides } from './support.tsx';

const people = [
  managedUser(ADMIN_EMAIL, { cognitoGroup: 'Admins' }),
  managedUser('other.admin@example.com', { cognitoGroup: 'Admins' }),
  managedUser('jane.doe@example.com'),
  managedUser('paused@example.com', { enabled: false, created: null }),
  managedUser('orphan@example.com', { cognitoGroup: null }),
];

function renderUsers(users = people, overrides: AdminApiOverrides = {}) {
  const api = fakeAdminApi({ ...overrides, users: { listUsers: vi.fn(async () => users), ...overrides.users } });
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
      screen.getByText('You cannot edit, disable, delete or reset MFA of admin accounts (including your own). Change your own password with Change Password.'),
    ).toBeInTheDocument();
  });

  it('lists the users with Current User, group, state and local created date', async () => {
    renderUsers();
    const self = await rowOf(ADMIN_EMAIL);
    expect(within(self).getByText('Current User')).toBeInTheDocument();
    expect(within(self).getByText('Admins')).toBeInTheDocument();
    expect(within(await rowOf('jane.doe@example.com')).getByText(new Date('2026-03-14T10:00:00.000Z').toLocaleDateString())).toBeInTheDocument();
    const paused = await rowOf('paused@example.com');
    expect(within(paused).getByText('Disabled')).toBeInTheDocument();
    expect(within(paused).getByText('N/A')).toBeInTheDocument();
    expect(within(paused).getByRole('button', { name: 'Enable paused@example.com' })).toBeInTheDocument();
    expect(within(await rowOf('orphan@example.com')).getByText('Unknown')).toBeInTheDocument();
    expect(within(await rowOf('jane.doe@example.com')).queryByText('Current User')).not.toBeInTheDocument();
  });

  it.each([
    [ADMIN_EMAIL, 'Edit', 'Cannot change the password or email of your own account'],
    ['other.admin@example.com', 'Edit', 'Cannot update other admin accounts'],
    [ADMIN_EMAIL, 'Disable', 'Cannot disable your own account'],
    [ADMIN_EMAIL, 'Delete', 'Cannot delete your own account'],
    [ADMIN_EMAIL, 'Reset MFA for', 'Cannot reset MFA for your own account'],
    ['other.admin@example.com', 'Disable', 'Cannot disable other admin accounts'],
    ['other.admin@example.com', 'Delete', 'Cannot delete other admin accounts'],
    ['other.admin@example.com', 'Reset MFA for', 'Cannot reset MFA for other admin accounts'],
  ])('%s: %s is disabled with the tooltip "%s"', async (email, action, tooltip) => {
    const { api, user } = renderUsers();
    await rowOf(email);
    const button = screen.getByRole('button', { name: `${action} ${email}` });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveAccessibleDescription(tooltip);
    await user.hover(button);
    expect(screen.getByRole('tooltip', { name: tooltip })).toBeVisible();
    await user.click(button);
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
    renderUsers(people, { users: { listUsers: vi.fn(async () => Promise.reject(apiError(500, 'Internal server error'))) } });
    expect(await screen.findByText('Failed to load users. Please try again.')).toBeInTheDocument();
  });

  it('disables and enables a user', async () => {
    const disableUser = vi.fn(async () => ({ message: 'User disabled successfully' }));
    const { user } = renderUsers(people, { users: { disableUser } });
    await rowOf('jane.doe@example.com');
    await user.click(screen.getByRole('button', { name: 'Disable jane.doe@example.com' }));
    expect(disableUser).toHaveBeenCalledWith('jane.doe@example.com');
    const row = await rowOf('jane.doe@example.com');
    await waitFor(() => expect(within(row).getByText('Disabled')).toBeInTheDocument());
    expect(within(row).getByRole('button', { name: 'Enable jane.doe@example.com' })).toBeInTheDocument();
  });

  it('deletes after a confirmation and removes the row', async () => {
    const deleteUser = vi.fn(async () => ({ message: 'User deleted successfully' }));
    const { user } = renderUsers(people, { users: { deleteUser } });
    await rowOf('jane.doe@example.com');
    await user.click(screen.getByRole('button', { name: 'Delete jane.doe@example.com' }));
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
    await user.click(screen.getByRole('button', { name: 'Delete jane.doe@example.com' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete user jane.doe@example.com: User not found.')).toBeInTheDocument();
    expect(screen.getByText('jane.doe@example.com')).toBeInTheDocument();
  });

  it('resets MFA after a confirmation that says what follows', async () => {
    const resetMfa = vi.fn(async () => ({ message: RESET_MFA_MESSAGE }));
    const { user } = renderUsers(people, { users: { resetMfa } });
    await rowOf('jane.doe@example.com');
    await user.click(screen.getByRole('button', { name: 'Reset MFA for jane.doe@example.com' }));
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
    await user.click(screen.getByRole('button', { name: 'Reset MFA for jane.doe@example.com' }));
    await user.click(within(screen.getByRole('alertdialog', { name: 'Reset MFA' })).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(resetMfa).not.toHaveBeenCalled();
  });

  it('makes a user an admin after a confirmation, and offers it to non-admins only', async () => {
    const promoteToAdmin = vi.fn(async () => ({ message: PROMOTE_MESSAGES.promoted }));
    const { user } = renderUsers(people, { users: { promoteToAdmin } });
    const row = await rowOf('jane.doe@example.com');
    for (const admin of [ADMIN_EMAIL, 'other.admin@example.com']) {
      expect(screen.queryByRole('button', { name: `Make Admin ${admin}` })).not.toBeInTheDocument();
    }
    await user.click(screen.getByRole('button', { name: 'Make Admin jane.doe@example.com' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Make Admin' });
    expect(dialog).toHaveTextContent('Make jane.doe@example.com an admin?');
    expect(dialog).toHaveTextContent('removing someone from the Admins group is done in Cognito');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Make Admin' }));
    await waitFor(() => expect(promoteToAdmin).toHaveBeenCalledWith('jane.doe@example.com'));
    expect(await screen.findByText(PROMOTE_MESSAGES.promoted)).toBeInTheDocument();
    await waitFor(() => expect(within(row).getByText('Admins')).toBeInTheDocument());
    expect(within(row).getByRole('button', { name: 'Delete jane.doe@example.com' })).toHaveAccessibleDescription('Cannot delete other admin accounts');
  });

  it('does not offer promotion of a disabled account, and reports a refused one', async () => {
    const promoteToAdmin = vi.fn(async () => Promise.reject(apiError(409, PROMOTE_MESSAGES.alreadyAdmin)));
    const { user } = renderUsers(people, { users: { promoteToAdmin } });
    await rowOf('paused@example.com');
    const paused = screen.getByRole('button', { name: 'Make Admin paused@example.com' });
    expect(paused).toHaveAttribute('aria-disabled', 'true');
    expect(paused).toHaveAccessibleDescription(PROMOTE_MESSAGES.disabled);
    await user.click(screen.getByRole('button', { name: 'Make Admin jane.doe@example.com' }));
    await user.click(within(screen.getByRole('alertdialog', { name: 'Make Admin' })).getByRole('button', { name: 'Make Admin' }));
    expect(await screen.findByText('Failed to make the user an admin')).toBeInTheDocument();
    expect(within(await rowOf('jane.doe@example.com')).queryByText('Admins')).not.toBeInTheDocument();
  });

  it('resends the invitation of an account that has not signed in yet, and offers it for no other', async () => {
    const pending = managedUser('pending@example.com', { status: 'FORCE_CHANGE_PASSWORD' });
    const resendInvitation = vi.fn(async () => ({ message: 'Invitation sent again with a new temporary password.' }));
    const { user } = renderUsers([...people, pending], { users: { resendInvitation } });
    await rowOf('pending@example.com');
    expect(within(await rowOf('jane.doe@example.com')).queryByRole('button', { name: /Resend invitation/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Resend invitation to pending@example.com' }));
    await waitFor(() => expect(resendInvitation).toHaveBeenCalledWith('pending@example.com'));
    expect(await screen.findByText('Invitation sent again with a new temporary password.')).toBeInTheDocument();
  });

  it('shows why a resend was refused', async () => {
    const pending = managedUser('pending@example.com', { status: 'FORCE_CHANGE_PASSWORD' });
    const resendInvitation = vi.fn(async () => Promise.reject(apiError(409, 'Only an account that has not signed in yet can get a new invitation')));
    const { user } = renderUsers([...people, pending], { users: { resendInvitation } });
    await user.click(within(await rowOf('pending@example.com')).getByRole('button', { name: 'Resend invitation to pending@example.com' }));
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
    await user.click(screen.getByRole('button', { name: 'Edit jane.doe@example.com' }));
    await user.type(screen.getByLabelText('New Password'), 'Another#2026');
    await user.click(screen.getByRole('button', { name: 'Update User' }));
    await waitFor(() => expect(updatePassword).toHaveBeenCalledWith('jane.doe@example.com', 'Another#2026'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit User' })).not.toBeInTheDocument());
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
