import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { INVITATION_MESSAGES } from '#contracts/user-admin.ts';
import UsersPage from '#web/features/admin/routes/users-page.tsx';
import {
  ADMIN_EMAIL,
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

const DAY_MS = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();
const localDate = (iso: string) => new Date(iso).toLocaleDateString();

const pendingExpiry = inDays(5);
const expiredAt = inDays(-1);
const people = [
  managedUser(ADMIN_EMAIL, { cognitoGroup: 'Admins' }),
  managedUser('signed.in@example.com'),
  managedUser('pending@example.com', { status: 'FORCE_CHANGE_PASSWORD', invitationExpires: pendingExpiry }),
  managedUser('lapsed@example.com', { status: 'FORCE_CHANGE_PASSWORD', invitationExpires: expiredAt }),
];

function renderUsers(overrides: AdminApiOverrides['users'] = {}) {
  const api = fakeAdminApi({
    quicksight: { listCompanies: listCompaniesOf([company('Acme')]) },
    users: { listUsers: vi.fn(async () => people), ...overrides },
  });
  renderAdmin(<UsersPage />, { api });
  return userEvent.setup();
}

const rowOf = async (email: string) => (await screen.findByText(email)).closest('tr') as HTMLElement;

beforeEach(() => stubViewport());

describe('Manage Users: invitations', () => {
  it('shows Invitation pending with its expiry on an invited account that has not signed in yet', async () => {
    renderUsers();
    const pending = await rowOf('pending@example.com');
    expect(within(pending).getByText('Invitation pending')).toBeInTheDocument();
    expect(within(pending).getByText(`Expires ${localDate(pendingExpiry)}`)).toBeInTheDocument();
    // The spec's Enabled column keeps its text beside it.
    expect(within(pending).getByText('Enabled')).toBeInTheDocument();

    const lapsed = await rowOf('lapsed@example.com');
    expect(within(lapsed).getByText('Invitation expired')).toBeInTheDocument();
    expect(within(lapsed).getByText(`Expired ${localDate(expiredAt)}`)).toBeInTheDocument();

    for (const email of [ADMIN_EMAIL, 'signed.in@example.com']) {
      const row = await rowOf(email);
      expect(within(row).queryByText(/Invitation/)).not.toBeInTheDocument();
    }
  });

  it('offers Resend Invitation on the pending row only, and shows the new expiry after a resend', async () => {
    const resendInvitation = vi.fn(async () => ({ message: INVITATION_MESSAGES.resent }));
    const user = renderUsers({ resendInvitation });
    await rowOf('pending@example.com');
    expect(await rowActionItem(user, 'lapsed@example.com', 'Resend Invitation')).not.toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await user.keyboard('{Escape}');
    await expect(rowActionItem(user, 'signed.in@example.com', 'Resend Invitation')).rejects.toThrow();
    await user.keyboard('{Escape}');

    await chooseRowAction(user, 'lapsed@example.com', 'Resend Invitation');
    await waitFor(() => expect(resendInvitation).toHaveBeenCalledWith('lapsed@example.com'));
    const lapsed = await rowOf('lapsed@example.com');
    expect(await within(lapsed).findByText('Invitation pending')).toBeInTheDocument();
    expect(within(lapsed).getByText(`Expires ${localDate(inDays(7))}`)).toBeInTheDocument();
  });
});
