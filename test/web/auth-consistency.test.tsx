import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import ChangePasswordPage from '#web/features/auth/routes/change-password-page.tsx';
import LoginPage from '#web/features/auth/routes/login-page.tsx';
import SignUpPage from '#web/features/auth/routes/signup-page.tsx';
import VerifyResetCodePage from '#web/features/auth/routes/verify-reset-code-page.tsx';
import { PortalShell } from '#web/features/portal/components/portal-shell.tsx';
import { AuthContext } from '#web/lib/auth/auth-context.ts';
import type { MfaSetupDriver } from '#web/lib/auth/types.ts';
import { ConfigProvider } from '#web/lib/config-context.tsx';
import { documentTitle } from '#web/lib/use-document-title.ts';
import { testConfig } from './support/config.ts';
import { fakeAuth, renderPage, userSession } from './support/render.tsx';

async function submitCredentials() {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Username (email)'), 'jane.doe@example.com');
  await user.type(screen.getByLabelText('Password'), 'Secret#2026');
  await user.click(screen.getByRole('button', { name: 'Log In' }));
  return user;
}

describe('document titles', () => {
  it.each([
    ['/login', <LoginPage />, 'Sign in · TVIQ'],
    ['/signup', <SignUpPage />, 'Create your account · TVIQ'],
    ['/change-password', <ChangePasswordPage />, 'Reset Your Password · TVIQ'],
    ['/verify-reset-code?email=jane.doe%40example.com', <VerifyResetCodePage />, 'Reset Your Password · TVIQ'],
  ])('%s is titled by its page and the product', async (path, page, title) => {
    document.title = '';
    renderPage(page, { path });
    await waitFor(() => expect(document.title).toBe(title));
  });

  it.each([
    ['/home', 'Home · TVIQ'],
    ['/dashboards/sales', 'Home · TVIQ'],
    ['/support', 'Support · TVIQ'],
    ['/settings', 'Settings · TVIQ'],
    ['/mfa-settings', 'Multi-Factor Authentication · TVIQ'],
  ])('the portal page %s is titled %s', async (path, title) => {
    document.title = '';
    render(
      <ConfigProvider config={testConfig}>
        <AuthContext.Provider value={fakeAuth({ session: userSession() })}>
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              <Route element={<PortalShell />}>
                <Route path="*" element={<p>page</p>} />
              </Route>
            </Routes>
          </MemoryRouter>
        </AuthContext.Provider>
      </ConfigProvider>,
    );
    await waitFor(() => expect(document.title).toBe(title));
  });

  it('names admin pages after the admin portal', () => {
    expect(documentTitle('User Management', 'TVIQ', 'admin')).toBe('User Management · TVIQ Admin');
  });
});

describe('focus at each step change', () => {
  it('moves to the code screen heading after the password', async () => {
    const auth = fakeAuth({ signIn: vi.fn(async () => ({ step: 'CONFIRM_SIGN_IN_WITH_TOTP_CODE' as const })) });
    renderPage(<LoginPage />, { auth, path: '/login' });
    await submitCredentials();
    expect(await screen.findByRole('heading', { name: 'Multi-Factor Authentication' })).toHaveFocus();
  });

  it('moves to the new-password heading when the account needs one', async () => {
    const auth = fakeAuth({
      signIn: vi.fn(async () => ({ step: 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED' as const })),
    });
    renderPage(<LoginPage />, { auth, path: '/login' });
    await submitCredentials();
    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toHaveFocus();
  });

  it('moves to the setup heading at each step of the first-sign-in wizard', async () => {
    let finishAssociation: (secret: string) => void = () => undefined;
    const driver: MfaSetupDriver = {
      associate: vi.fn(() => new Promise<string>((resolve) => (finishAssociation = resolve))),
      verify: vi.fn(async () => undefined),
    };
    const auth = fakeAuth({
      signIn: vi.fn(async () => ({ step: 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP' as const })),
      signInMfaSetup: vi.fn(async () => driver),
      reloadSession: vi.fn(() => new Promise<never>(() => undefined)),
    });
    renderPage(<LoginPage />, { auth, path: '/login' });
    const user = await submitCredentials();
    const heading = await screen.findByRole('heading', { name: 'Set Up Multi-Factor Authentication' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(heading).toHaveAccessibleDescription(/Step 1 of 3/);

    finishAssociation('JBSWY3DPEHPK3PXP');
    const field = await screen.findByLabelText('Enter the 6-digit code from your app');
    await waitFor(() => expect(heading).toHaveFocus());
    expect(heading).toHaveAccessibleDescription(/Step 2 of 3/);

    await user.type(field, '654321');
    await user.click(screen.getByRole('button', { name: 'Verify & Complete Setup' }));
    expect(await screen.findByText('MFA Setup Complete!')).toBeInTheDocument();
    await waitFor(() => expect(heading).toHaveFocus());
    expect(heading).toHaveAccessibleDescription(/Step 3 of 3/);
  });

  it('moves to the heading of the reset confirmation step', async () => {
    const auth = fakeAuth({ forgotPassword: vi.fn(async () => undefined) });
    render(
      <ConfigProvider config={testConfig}>
        <AuthContext.Provider value={auth}>
          <MemoryRouter initialEntries={['/change-password']}>
            <Routes>
              <Route path="/change-password" element={<ChangePasswordPage />} />
              <Route path="/verify-reset-code" element={<VerifyResetCodePage />} />
            </Routes>
          </MemoryRouter>
        </AuthContext.Provider>
      </ConfigProvider>,
    );
    const user = userEvent.setup();
    // The first step of a page keeps the browser's focus.
    expect(screen.getByRole('heading', { name: 'Reset Your Password' })).not.toHaveFocus();
    await user.type(screen.getByLabelText('Email Address'), 'jane.doe@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Verification Code' }));
    expect(await screen.findByLabelText('Code')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Reset Your Password' })).toHaveFocus());
  });

  it('moves to Check Your Email after a sign-up', async () => {
    const auth = fakeAuth({ signUp: vi.fn(async () => ({ isSignUpComplete: false, userId: 'sub-1' })) });
    renderPage(<SignUpPage />, { auth, path: '/signup' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'new.user@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secret#2026x');
    await user.type(screen.getByLabelText('Confirm Password'), 'Secret#2026x');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByRole('heading', { name: 'Check Your Email' })).toHaveFocus();
  });
});

describe('heading sizes across the auth cards', () => {
  it('gives the reset card the same level-2 heading as the sign-in card', () => {
    const { unmount } = renderPage(<LoginPage />, { path: '/login' });
    const signIn = screen.getByRole('heading', { level: 2, name: 'Sign in' });
    const signInClass = signIn.className;
    unmount();
    renderPage(<ChangePasswordPage />, { path: '/change-password' });
    expect(screen.getByRole('heading', { level: 2, name: 'Reset Your Password' }).className).toBe(signInClass);
  });
});
