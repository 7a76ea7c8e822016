import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { NO_PASSKEY_MESSAGE, PASSKEY_ERRORS } from '#contracts/passkeys.ts';
import AdminLoginPage from '#web/features/admin/routes/admin-login-page.tsx';
import LoginPage from '#web/features/auth/routes/login-page.tsx';
import { PasskeyError } from '#web/lib/auth/passkey-ceremony.ts';
import { AuthError } from '#web/lib/auth/types.ts';
import { testConfig } from './support/config.ts';
import { fakeAuth, renderPage, userSession } from './support/render.tsx';

const withPasskeys = { ...testConfig, passkeys: true };
const PASSKEY_BUTTON = { name: 'Sign in with a passkey' };

async function passkeyFor(email: string) {
  const user = userEvent.setup();
  if (email) await user.type(screen.getByLabelText('Username (email)'), email);
  await user.click(screen.getByRole('button', PASSKEY_BUTTON));
  return user;
}

describe('sign-in with a passkey', () => {
  it('is offered only where passkeys are on', () => {
    const { unmount } = renderPage(<LoginPage />, { path: '/login' });
    expect(screen.queryByRole('button', PASSKEY_BUTTON)).toBeNull();
    unmount();
    renderPage(<LoginPage />, { path: '/login', config: withPasskeys });
    expect(screen.getByRole('button', PASSKEY_BUTTON)).toBeInTheDocument();
  });

  it('needs the email only, checked as the password sign-in checks it, and calls nobody without it', async () => {
    const auth = fakeAuth();
    renderPage(<LoginPage />, { auth, path: '/login', config: withPasskeys });
    await passkeyFor('');
    expect(await screen.findByText('Email address is required.')).toBeInTheDocument();
    expect(screen.queryByText('Password is required.')).toBeNull();
    await passkeyFor('not-an-email');
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
    expect(auth.signInWithPasskey).not.toHaveBeenCalled();
  });

  it('signs a member of Users in with one gesture and goes to /home, no code asked', async () => {
    const auth = fakeAuth({
      signInWithPasskey: vi.fn(async () => ({ step: 'DONE' as const, session: userSession() })),
    });
    renderPage(<LoginPage />, { auth, path: '/login', config: withPasskeys });
    await passkeyFor(' jane.doe@example.com ');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/home'));
    expect(auth.signInWithPasskey).toHaveBeenCalledWith('jane.doe@example.com');
    expect(auth.signIn).not.toHaveBeenCalled();
  });

  it('goes on to the authenticator code where the passkey did not count as MFA', async () => {
    const auth = fakeAuth({
      signInWithPasskey: vi.fn(async () => ({ step: 'CONFIRM_SIGN_IN_WITH_TOTP_CODE' as const })),
      confirmTotpCode: vi.fn(async () => ({ step: 'DONE' as const, session: userSession() })),
    });
    renderPage(<LoginPage />, { auth, path: '/login', config: withPasskeys });
    const user = await passkeyFor('jane.doe@example.com');
    await user.type(await screen.findByLabelText('Authentication Code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify & Sign In' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/home'));
    expect(auth.confirmTotpCode).toHaveBeenCalledWith('123456');
  });

  it.each([
    ['a canceled prompt', new PasskeyError('canceled'), PASSKEY_ERRORS.canceled],
    ['a browser without passkeys', new PasskeyError('notSupported'), PASSKEY_ERRORS.notSupported],
    ['an account without a passkey', new AuthError(NO_PASSKEY_MESSAGE, 'NoPasskey'), NO_PASSKEY_MESSAGE],
  ])('says what happened after %s and stays on the sign-in page', async (_case, failure, text) => {
    const auth = fakeAuth({ signInWithPasskey: vi.fn(async () => Promise.reject(failure)) });
    renderPage(<LoginPage />, { auth, path: '/login', config: withPasskeys });
    await passkeyFor('jane.doe@example.com');
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
    expect(screen.getByRole('button', PASSKEY_BUTTON)).toBeEnabled();
  });

  it('keeps the access check of the admin portal: a member of Users is refused there', async () => {
    const auth = fakeAuth({
      signInWithPasskey: vi.fn(async () => ({ step: 'DONE' as const, session: userSession() })),
    });
    renderPage(<AdminLoginPage />, { auth, path: '/admin/login', config: withPasskeys });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'jane.doe@example.com');
    await user.click(screen.getByRole('button', PASSKEY_BUTTON));
    expect(await screen.findByRole('alert')).toHaveTextContent(/admin privileges/);
    expect(auth.signOut).toHaveBeenCalled();
  });
});
