import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import LoginPage from '#web/features/auth/routes/login-page.tsx';
import { AuthError, type MfaSetupDriver } from '#web/lib/auth/types.ts';
import { fakeAuth, renderPage, userSession } from './support/render.tsx';
import { skip, useSkippableTimeouts } from './support/timers.ts';

async function submitCredentials(email = 'jane.doe@example.com', password = 'Secret#2026') {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Username (email)'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Log In' }));
  return user;
}

/** Renders the sign-in page and submits the credentials; the sign-in then asks for MFA setup. */
async function startAtMfaSetup(driver: MfaSetupDriver, extra: Parameters<typeof fakeAuth>[0] = {}) {
  const auth = fakeAuth({
    signIn: vi.fn(async () => ({ step: 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP' as const })),
    signInMfaSetup: vi.fn(async () => driver),
    ...extra,
  });
  renderPage(<LoginPage />, { auth, path: '/login' });
  return submitCredentials();
}

/** Types a code into the setup wizard and submits it. */
async function submitSetupCode(user: Awaited<ReturnType<typeof submitCredentials>>, code: string) {
  await user.type(await screen.findByLabelText('Enter the 6-digit code from your app'), code);
  await user.click(screen.getByRole('button', { name: 'Verify & Complete Setup' }));
}

describe('user sign-in page', () => {
  it('shows the product, the marketing text and the links of the spec', () => {
    renderPage(<LoginPage />, { path: '/login' });
    expect(screen.getByRole('heading', { level: 1, name: 'TVIQ' })).toBeInTheDocument();
    expect(screen.getByText(/actionable data and insights on business performance/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/change-password');
    expect(screen.getByRole('link', { name: 'Back to the marketing site' })).toHaveAttribute(
      'href',
      'https://www.example.com/',
    );
  });

  it('shows the required-field messages and calls nobody', async () => {
    const auth = fakeAuth();
    renderPage(<LoginPage />, { auth, path: '/login' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText('Email address is required.')).toBeInTheDocument();
    expect(screen.getByText('Password is required.')).toBeInTheDocument();
    expect(auth.signIn).not.toHaveBeenCalled();
  });

  it('rejects a malformed email and a short password', async () => {
    const auth = fakeAuth();
    renderPage(<LoginPage />, { auth, path: '/login' });
    await submitCredentials('not-an-email', 'short');
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(auth.signIn).not.toHaveBeenCalled();
  });

  it('sends a member of Users to /home', async () => {
    const auth = fakeAuth({
      signIn: vi.fn(async () => ({ step: 'DONE' as const, session: userSession() })),
    });
    renderPage(<LoginPage />, { auth, path: '/login' });
    await submitCredentials(' jane.doe@example.com ');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/home'));
    expect(auth.signIn).toHaveBeenCalledWith('jane.doe@example.com', 'Secret#2026');
  });

  it('denies an account in no group and signs it out', async () => {
    const auth = fakeAuth({
      signIn: vi.fn(async () => ({ step: 'DONE' as const, session: userSession({ groups: [] }) })),
    });
    renderPage(<LoginPage />, { auth, path: '/login' });
    await submitCredentials();
    expect(await screen.findByText("Access denied. You don't have user privileges.")).toBeInTheDocument();
    expect(auth.signOut).toHaveBeenCalled();
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
  });

  it.each([
    [
      new AuthError('User is disabled.', 'NotAuthorizedException'),
      'Your account has been disabled. Please contact your administrator.',
    ],
    [
      new AuthError('User is not confirmed.', 'UserNotConfirmedException'),
      'Please confirm your email address before signing in.',
    ],
    [new AuthError('Incorrect username or password.', 'NotAuthorizedException'), 'Incorrect username or password.'],
    [new Error(''), 'An error occurred during sign-in.'],
  ])('maps the failure %s to the catalogue text', async (failure, text) => {
    const auth = fakeAuth({ signIn: vi.fn(async () => Promise.reject(failure)) });
    renderPage(<LoginPage />, { auth, path: '/login' });
    await submitCredentials();
    expect(await screen.findByText(text)).toBeInTheDocument();
  });

  it('offers Sign Out & Try Again when a user is already signed in', async () => {
    const signIn = vi
      .fn()
      .mockRejectedValueOnce(new AuthError('There is already a signed in user.', 'UserAlreadyAuthenticatedException'))
      .mockResolvedValueOnce({ step: 'DONE', session: userSession() });
    const auth = fakeAuth({ signIn });
    renderPage(<LoginPage />, { auth, path: '/login' });
    const user = await submitCredentials();
    const alert = await screen.findByText('You are already signed in. Please sign out first or refresh the page.');
    expect(alert).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh Page' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sign Out & Try Again' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/home'));
    expect(auth.signOut).toHaveBeenCalled();
    expect(signIn).toHaveBeenCalledTimes(2);
  });

  it('redirects a signed-in member straight to the remembered page', () => {
    renderPage(<LoginPage />, { auth: fakeAuth({ session: userSession({ groups: ['Admins'] }) }), path: '/login' });
    expect(screen.getByTestId('location')).toHaveTextContent('/home');
  });

  it('shows Loading... while the session is checked', () => {
    renderPage(<LoginPage />, { auth: fakeAuth({ status: 'loading', loading: true }), path: '/login' });
    expect(screen.getByText('Loading...')).toBeInTheDocument();
  });
});

describe('TOTP code step', () => {
  const toTotp = () => fakeAuth({ signIn: vi.fn(async () => ({ step: 'CONFIRM_SIGN_IN_WITH_TOTP_CODE' as const })) });

  it('accepts digits only, up to six, and enables Verify at exactly six', async () => {
    renderPage(<LoginPage />, { auth: toTotp(), path: '/login' });
    const user = await submitCredentials();
    expect(await screen.findByRole('heading', { name: 'Multi-Factor Authentication' })).toBeInTheDocument();
    expect(screen.getByText('Enter the 6-digit code from your authenticator app')).toBeInTheDocument();
    expect(screen.getByText('Having trouble? Make sure your device time is synchronized.')).toBeInTheDocument();
    const code = screen.getByLabelText('Authentication Code');
    const verify = screen.getByRole('button', { name: 'Verify & Sign In' });
    await user.type(code, '12a3');
    expect(code).toHaveValue('123');
    expect(verify).toBeDisabled();
    await user.tab();
    expect(screen.getByText('Please enter a valid 6-digit code')).toBeInTheDocument();
    await user.type(code, '4567890');
    expect(code).toHaveValue('123456');
    expect(verify).toBeEnabled();
  });

  it('keeps the six digits of a pasted code written with a space or a hyphen', async () => {
    renderPage(<LoginPage />, { auth: toTotp(), path: '/login' });
    const user = await submitCredentials();
    const code = await screen.findByLabelText('Authentication Code');
    await user.click(code);
    await user.paste('123 456');
    expect(code).toHaveValue('123456');
    await user.clear(code);
    await user.paste('654-321');
    expect(code).toHaveValue('654321');
    expect(screen.getByRole('button', { name: 'Verify & Sign In' })).toBeEnabled();
  });

  it('shows the MFA failure text for a wrong code and signs in with a right one', async () => {
    const auth = toTotp();
    auth.confirmTotpCode = vi
      .fn()
      .mockRejectedValueOnce(new AuthError('Invalid code received for user', 'CodeMismatchException'))
      .mockResolvedValueOnce({ step: 'DONE', session: userSession() });
    renderPage(<LoginPage />, { auth, path: '/login' });
    const user = await submitCredentials();
    await user.type(await screen.findByLabelText('Authentication Code'), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify & Sign In' }));
    expect(await screen.findByText('MFA verification failed. Please try again.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Authentication Code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify & Sign In' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/home'));
    expect(auth.confirmTotpCode).toHaveBeenLastCalledWith('123456');
  });

  it('returns to the password when the challenge session has ended', async () => {
    const auth = toTotp();
    auth.confirmTotpCode = vi.fn(async () =>
      Promise.reject(new AuthError('Invalid session for the user, session is expired.', 'NotAuthorizedException')),
    );
    renderPage(<LoginPage />, { auth, path: '/login' });
    const user = await submitCredentials();
    await user.type(await screen.findByLabelText('Authentication Code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify & Sign In' }));
    expect(await screen.findByText('MFA verification failed. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Log In' })).toBeInTheDocument();
  });

  it('checks the groups again after the code', async () => {
    const auth = toTotp();
    auth.confirmTotpCode = vi.fn(async () => ({ step: 'DONE' as const, session: userSession({ groups: [] }) }));
    renderPage(<LoginPage />, { auth, path: '/login' });
    const user = await submitCredentials();
    await user.type(await screen.findByLabelText('Authentication Code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify & Sign In' }));
    expect(await screen.findByText("Access denied. You don't have user privileges.")).toBeInTheDocument();
    expect(auth.signOut).toHaveBeenCalled();
  });

  it('Cancel returns to the credentials', async () => {
    const auth = toTotp();
    renderPage(<LoginPage />, { auth, path: '/login' });
    const user = await submitCredentials();
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'Log In' })).toBeInTheDocument();
    expect(auth.cancelSignIn).toHaveBeenCalled();
  });
});

describe('new password and MFA setup steps', () => {
  it('asks for a new password', async () => {
    const auth = fakeAuth({
      signIn: vi.fn(async () => ({ step: 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED' as const })),
      completeNewPassword: vi.fn(async () => ({ step: 'DONE' as const, session: userSession() })),
    });
    renderPage(<LoginPage />, { auth, path: '/login' });
    const user = await submitCredentials();
    expect(await screen.findByText('Please set a new password.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('New Password'), 'Fresh#Pass2026');
    await user.click(screen.getByRole('button', { name: 'Set Password' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/home'));
  });

  it('runs the setup wizard with the product as issuer, shows step 3, then checks the groups', async () => {
    const driver: MfaSetupDriver = {
      associate: vi.fn(async () => 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'),
      verify: vi.fn(async () => undefined),
    };
    useSkippableTimeouts();
    const user = await startAtMfaSetup(driver, { reloadSession: vi.fn(async () => userSession()) });
    expect(await screen.findByRole('img', { name: /QR code to add TVIQ/ })).toBeInTheDocument();
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();
    expect(screen.getByText('Google Authenticator')).toBeInTheDocument();
    await submitSetupCode(user, '654321');
    // Step 3 stays on screen while the sign-in finishes, then the dashboard follows.
    expect(await screen.findByText('MFA Setup Complete!')).toBeInTheDocument();
    expect(screen.getByText('Redirecting to dashboard...')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
    // Step 3 stays for 2 s.
    await skip(2_000);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/home'));
    expect(driver.verify).toHaveBeenCalledWith('654321');
  });

  it('says setup failed when the code is refused, and keeps the wizard', async () => {
    const driver: MfaSetupDriver = {
      associate: vi.fn(async () => 'JBSWY3DPEHPK3PXP'),
      verify: vi.fn(async () => Promise.reject(new AuthError('Code mismatch', 'EnableSoftwareTokenMFAException'))),
    };
    await submitSetupCode(await startAtMfaSetup(driver), '111111');
    expect(await screen.findByText('MFA setup failed. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Verify & Complete Setup' })).toBeInTheDocument();
  });

  it('returns to the password when the setup session has ended', async () => {
    const driver: MfaSetupDriver = {
      associate: vi.fn(async () => 'JBSWY3DPEHPK3PXP'),
      verify: vi.fn(async () =>
        Promise.reject(new AuthError('Invalid session for the user, session is expired.', 'NotAuthorizedException')),
      ),
    };
    await submitSetupCode(await startAtMfaSetup(driver), '111111');
    expect(await screen.findByText('MFA setup failed. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Log In' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Verify & Complete Setup' })).not.toBeInTheDocument();
  });

  it('reports a failed secret association', async () => {
    await startAtMfaSetup({ associate: vi.fn(async () => Promise.reject(new Error('boom'))), verify: vi.fn() });
    const alert = await screen.findByText('Failed to setup TOTP');
    expect(
      within(alert.closest('[role="alert"]') as HTMLElement).getByText('Failed to setup TOTP'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('reports a failed privilege check after setup', async () => {
    useSkippableTimeouts();
    const user = await startAtMfaSetup(
      { associate: vi.fn(async () => 'ABCDEFGH'), verify: vi.fn(async () => undefined) },
      { reloadSession: vi.fn(async () => null) },
    );
    await submitSetupCode(user, '123456');
    expect(await screen.findByText('MFA Setup Complete!')).toBeInTheDocument();
    await skip(2_000);
    expect(await screen.findByText('Error verifying user privileges after MFA setup.')).toBeInTheDocument();
  });
});
