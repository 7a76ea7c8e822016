import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { RESET_MFA_MESSAGE, type UserFactors } from '#contracts/user-admin.ts';
import UsersPage from '#web/features/admin/routes/users-page.tsx';
import {
  ADMIN_EMAIL,
  apiError,
  chooseRowAction,
  fakeAdminApi,
  listCompaniesOf,
  managedUser,
  renderAdmin,
  stubViewport,
} from './support.tsx';

const TARGET = 'jane.doe@example.com';
const people = [managedUser(ADMIN_EMAIL, { cognitoGroup: 'Admins' }), managedUser(TARGET)];

const ADDED_LAPTOP = Date.UTC(2026, 0, 12, 9, 0);
const USED_LAPTOP = Date.UTC(2026, 2, 3, 16, 30);
const ADDED_KEY = Date.UTC(2025, 10, 24, 8, 0);
const date = (epochMs: number) => new Date(epochMs).toLocaleDateString();

const withPasskeys: UserFactors = {
  authenticator: true,
  passkeyMfa: true,
  passkeys: [
    { credentialId: 'cred-laptop', name: 'Work laptop', createdAt: ADDED_LAPTOP, lastUsedAt: USED_LAPTOP },
    { credentialId: 'cred-key', name: 'YubiKey 5C', createdAt: ADDED_KEY },
  ],
};

function renderUsers(userFactors: UserFactors | Error) {
  const resetMfa = vi.fn(async () => ({ message: RESET_MFA_MESSAGE }));
  const factors = vi.fn(async () => (userFactors instanceof Error ? Promise.reject(userFactors) : userFactors));
  const api = fakeAdminApi({
    quicksight: { listCompanies: listCompaniesOf([]) },
    users: { listUsers: vi.fn(async () => people), resetMfa, userFactors: factors },
  });
  renderAdmin(<UsersPage />, { api });
  return { user: userEvent.setup(), resetMfa, factors };
}

async function openReset(user: ReturnType<typeof userEvent.setup>) {
  await screen.findByText(TARGET);
  await chooseRowAction(user, TARGET, 'Reset MFA');
  return screen.getByRole('alertdialog', { name: 'Reset MFA' });
}

beforeEach(() => {
  stubViewport();
});

describe('the Reset MFA confirmation', () => {
  it("shows the account's authenticator and passkeys, and says both are removed", async () => {
    const { user, factors } = renderUsers(withPasskeys);
    const dialog = await openReset(user);
    expect(dialog).toHaveTextContent(
      'Their authenticator app and passkeys are removed and they are signed out everywhere. At their next sign-in they set up a new authenticator before they can continue.',
    );
    const methods = await within(dialog).findByRole('list', { name: 'Sign-in methods' });
    expect(factors).toHaveBeenCalledWith(TARGET);
    expect(methods).toHaveTextContent('Authenticator app: set up');
    expect(methods).not.toHaveTextContent('not set up');
    const passkeys = within(methods)
      .getAllByRole('listitem')
      .filter((item) => !item.querySelector('ul'));
    expect(passkeys.map((item) => item.textContent)).toEqual([
      'Authenticator app: set up',
      `Work laptop — added ${date(ADDED_LAPTOP)}, last used ${date(USED_LAPTOP)}`,
      `YubiKey 5C — added ${date(ADDED_KEY)}, not used yet`,
    ]);
  });

  it('says when the account has no authenticator and no passkey', async () => {
    const { user } = renderUsers({ authenticator: false, passkeyMfa: false, passkeys: [] });
    const dialog = await openReset(user);
    const methods = await within(dialog).findByRole('list', { name: 'Sign-in methods' });
    expect(
      within(methods)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Authenticator app: not set up', 'Passkeys: none']);
  });

  it('shows that the methods are loading, with Reset MFA available meanwhile', async () => {
    const { user, factors } = renderUsers(withPasskeys);
    factors.mockImplementation(() => new Promise<UserFactors>(() => undefined));
    const dialog = await openReset(user);
    expect(within(dialog).getByRole('status')).toHaveTextContent('Loading sign-in methods...');
    expect(within(dialog).getByRole('button', { name: 'Reset MFA' })).toBeEnabled();
    expect(within(dialog).queryByText(/Authenticator app:/)).not.toBeInTheDocument();
  });

  it('says the methods could not be loaded and still resets MFA', async () => {
    const { user, resetMfa } = renderUsers(apiError(500, 'Internal server error'));
    const dialog = await openReset(user);
    const failure = await within(dialog).findByRole('alert');
    expect(failure).toHaveTextContent('Failed to load the sign-in methods');
    expect(failure).toHaveTextContent('Server error. Please try again later');
    expect(failure).toHaveTextContent('You can still reset MFA.');
    expect(within(dialog).queryByRole('list', { name: 'Sign-in methods' })).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Reset MFA' }));
    await waitFor(() => expect(resetMfa).toHaveBeenCalledWith(TARGET));
    expect(await screen.findByText(RESET_MFA_MESSAGE)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });
});
