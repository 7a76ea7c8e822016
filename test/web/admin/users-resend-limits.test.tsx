import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import UsersPage from '#web/features/admin/routes/users-page.tsx';
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

/** The resend limits as the admin portal shows them: the resend cap's 429 and the refusal of a disabled account. */
const people = [
  managedUser(ADMIN_EMAIL, { cognitoGroup: 'Admins' }),
  managedUser('pending@example.com', { status: 'FORCE_CHANGE_PASSWORD' }),
  managedUser('paused.pending@example.com', { status: 'FORCE_CHANGE_PASSWORD', enabled: false }),
];

function renderUsers(overrides: AdminApiOverrides['users'] = {}) {
  const api = fakeAdminApi({
    quicksight: { listCompanies: listCompaniesOf([company('Acme')]) },
    users: { listUsers: vi.fn(async () => people), ...overrides },
  });
  renderAdmin(<UsersPage />, { api });
  return userEvent.setup();
}

beforeEach(() => stubViewport());

describe('resending an invitation', () => {
  it('shows the server’s 429 text, which says when the next resend is possible', async () => {
    const text =
      'The invitation to this account was already resent 3 times in the last hour. Try again in about 40 minutes.';
    const resendInvitation = vi.fn(async () => Promise.reject(apiError(429, text)));
    const user = renderUsers({ resendInvitation });
    await screen.findByText('pending@example.com');
    await chooseRowAction(user, 'pending@example.com', 'Resend Invitation');
    await waitFor(() => expect(resendInvitation).toHaveBeenCalledWith('pending@example.com'));
    expect(await screen.findByText('Failed to resend the invitation')).toBeInTheDocument();
    expect(screen.getByText(text)).toBeInTheDocument();
  });

  it('does not offer a resend to a disabled account, and says why', async () => {
    const resendInvitation = vi.fn();
    const user = renderUsers({ resendInvitation });
    await screen.findByText('paused.pending@example.com');
    const item = await rowActionItem(user, 'paused.pending@example.com', 'Resend Invitation');
    expect(item).toHaveAttribute('aria-disabled', 'true');
    expect(item).toHaveAccessibleDescription('Cannot resend an invitation to a disabled account');
    await user.click(item);
    expect(resendInvitation).not.toHaveBeenCalled();
  });
});
