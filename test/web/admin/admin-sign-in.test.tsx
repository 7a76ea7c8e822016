import { screen, waitFor } from '@testing-library/react';
import { useMemo, useState, type ReactNode } from 'react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import AdminApp from '#web/features/admin/admin-app.tsx';
import AdminChangePasswordPage from '#web/features/admin/routes/admin-change-password-page.tsx';
import AdminForgotPasswordPage from '#web/features/admin/routes/admin-forgot-password-page.tsx';
import AdminLoginPage from '#web/features/admin/routes/admin-login-page.tsx';
import { AuthContext } from '#web/lib/auth/auth-context.ts';
import { readSessionEnd, recordSessionEnd } from '#web/lib/auth/session-end.ts';
import { AuthError, type AuthSession, type SignInResult } from '#web/lib/auth/types.ts';
import { fakeAuth, userSession } from '../support/render.tsx';
import { adminSession, fakeAdminApi, renderAdmin, signedInAdmin, type AdminRenderOptions } from './support.tsx';

async function submit(email = 'demo.admin@example.com', password = 'DemoAdmin#2026') {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Admin Login' }));
  return user;
}

const renderLogin = (auth = fakeAuth()) => renderAdmin(<AdminLoginPage />, { auth, path: '/admin/login' });

describe('admin login', () => {
  it('shows the portal title, the subtitle and the forgot-password link', () => {
    renderLogin();
    expect(screen.getByRole('heading', { level: 1, name: 'TVIQ Admin Portal' })).toBeInTheDocument();
    expect(screen.getByText('Administrative access to TVIQ platform')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot Password?' })).toHaveAttribute('href', '/admin/forgot-password');
  });

  it('validates the fields as the spec says', async () => {
    const auth = fakeAuth();
    renderLogin(auth);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Admin Login' }));
    expect(await screen.findByText('Email address is required.')).toBeInTheDocument();
    expect(screen.getByText('Password is required.')).toBeInTheDocument();
    expect(auth.signIn).not.toHaveBeenCalled();
  });

  it("reads 'Signing In...' while busy, then goes to /admin/users", async () => {
    let finish: (value: SignInResult) => void = () => undefined;
    const auth = fakeAuth({ signIn: vi.fn(() => new Promise<SignInResult>((resolve) => (finish = resolve))) });
    renderLogin(auth);
    await submit();
    expect(screen.getByRole('button', { name: 'Signing In...' })).toBeDisabled();
    finish({ step: 'DONE', session: adminSession() });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/admin/users'));
  });

  it('denies a member of Users and signs them out', async () => {
    const auth = fakeAuth({ signIn: vi.fn(async () => ({ step: 'DONE' as const, session: userSession() })) });
    renderLogin(auth);
    await submit('jane.doe@example.com');
    expect(await screen.findByText("Access denied. You don't have admin privileges.")).toBeInTheDocument();
    expect(auth.signOut).toHaveBeenCalled();
  });

  it('sends an admin who is already signed in to /admin/users', async () => {
    renderLogin(signedInAdmin());
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/admin/users'));
  });

  it('signs out a portal user who arrives here, saying why', async () => {
    const auth = fakeAuth({ session: userSession() });
    renderLogin(auth);
    expect(await screen.findByText("Access denied. You don't have admin privileges.")).toBeInTheDocument();
    expect(auth.signOut).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('location')).toHaveTextContent('/admin/login');
  });

  it('shows the TOTP code step', async () => {
    const auth = fakeAuth({ signIn: vi.fn(async () => ({ step: 'CONFIRM_SIGN_IN_WITH_TOTP_CODE' as const })) });
    renderLogin(auth);
    await submit();
    expect(await screen.findByRole('heading', { name: 'Multi-Factor Authentication' })).toBeInTheDocument();
    expect(screen.getByLabelText('Authentication Code')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Verify & Sign In' })).toBeDisabled();
  });

  it("asks for a new password with 'Please set a new password.'", async () => {
    const auth = fakeAuth({
      signIn: vi.fn(async () => ({ step: 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED' as const })),
    });
    renderLogin(auth);
    await submit();
    expect(await screen.findByText('Please set a new password.')).toBeInTheDocument();
  });

  it.each(['InvalidMfaMethod', 'UnsupportedChallenge'])(
    "says 'Sign-in failed. Please check your credentials.' for the unsupported step %s",
    async (code) => {
      const auth = fakeAuth({
        signIn: vi.fn(async () => Promise.reject(new AuthError('No valid MFA method provided', code))),
      });
      renderLogin(auth);
      await submit();
      expect(await screen.findByText('Sign-in failed. Please check your credentials.')).toBeInTheDocument();
    },
  );

  it('maps a disabled account to the catalogue text', async () => {
    const auth = fakeAuth({
      signIn: vi.fn(async () => Promise.reject(new AuthError('User is disabled.', 'NotAuthorizedException'))),
    });
    renderLogin(auth);
    await submit();
    expect(
      await screen.findByText('Your account has been disabled. Please contact your administrator.'),
    ).toBeInTheDocument();
  });
});

describe('admin login after the portal signed someone out', () => {
  afterEach(() => window.sessionStorage.clear());

  it('says the idle timeout ended the session, once', async () => {
    recordSessionEnd({ reason: 'idle', minutes: 30 });
    const { unmount } = renderLogin();
    expect(
      screen.getByText('You were signed out after 30 minutes without activity.').closest('[role="status"]'),
    ).toBeInTheDocument();
    await waitFor(() => expect(readSessionEnd()).toBeNull());
    unmount();
    renderLogin();
    expect(screen.queryByText('You were signed out after 30 minutes without activity.')).not.toBeInTheDocument();
  });

  it('says the session limit ended the session', () => {
    recordSessionEnd({ reason: 'absolute', minutes: 720 });
    renderLogin();
    expect(
      screen.getByText('Your session ended 12 hours after you signed in. Please sign in again.'),
    ).toBeInTheDocument();
  });

  it('says nothing without a note', () => {
    renderLogin();
    expect(screen.queryByText(/signed out after|session ended/)).not.toBeInTheDocument();
  });
});

const renderForgot = (auth = fakeAuth()) =>
  renderAdmin(<AdminForgotPasswordPage />, { auth, path: '/admin/forgot-password' });

async function requestCode(email = 'demo.admin@example.com') {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), email);
  await user.click(screen.getByRole('button', { name: 'Send Reset Email' }));
  return user;
}

describe('admin forgot password', () => {
  it('shows the title, the text and the way back', () => {
    renderForgot();
    expect(screen.getByRole('heading', { name: 'Admin Portal' })).toBeInTheDocument();
    expect(screen.getByText('Recover your admin account by providing your email address.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Admin Login' })).toHaveAttribute('href', '/admin/login');
  });

  it('needs a valid email', async () => {
    const auth = fakeAuth();
    renderForgot(auth);
    await requestCode('nope');
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
    expect(auth.forgotPassword).not.toHaveBeenCalled();
  });

  it.each([
    ['UserNotFoundException', 'No account found with this email address.'],
    ['InvalidParameterException', 'Invalid email address format.'],
    ['LimitExceededException', 'Too many requests. Please try again later.'],
    ['InternalErrorException', 'Failed to send reset email. Please try again.'],
  ])('maps %s to the spec text', async (code, text) => {
    renderForgot(fakeAuth({ forgotPassword: vi.fn(async () => Promise.reject(new AuthError('x', code))) }));
    await requestCode();
    expect(await screen.findByText(text)).toBeInTheDocument();
  });

  it('resets with the code and goes to /admin/login', async () => {
    const confirmForgotPassword = vi.fn(async () => undefined);
    renderForgot(fakeAuth({ forgotPassword: vi.fn(async () => undefined), confirmForgotPassword }));
    const user = await requestCode();
    await user.click(await screen.findByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Verification code is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Verification Code'), '123456');
    await user.type(screen.getByLabelText('New Password'), 'short');
    expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument();
    await user.type(screen.getByLabelText('New Password'), 'Enough#2026');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/admin/login'));
    expect(confirmForgotPassword).toHaveBeenCalledWith('demo.admin@example.com', '123456', 'shortEnough#2026');
  });

  it('moves the focus to the new step heading once the code is sent', async () => {
    renderForgot(fakeAuth({ forgotPassword: vi.fn(async () => undefined) }));
    await requestCode();
    const heading = await screen.findByRole('heading', { name: 'Set a new password' });
    await waitFor(() => expect(heading).toHaveFocus());
  });

  it('shows the reset failure', async () => {
    renderForgot(
      fakeAuth({
        forgotPassword: vi.fn(async () => undefined),
        confirmForgotPassword: vi.fn(async () =>
          Promise.reject(
            new AuthError('Invalid verification code provided, please try again.', 'CodeMismatchException'),
          ),
        ),
      }),
    );
    const user = await requestCode();
    await user.type(await screen.findByLabelText('Verification Code'), '000000');
    await user.type(screen.getByLabelText('New Password'), 'Enough#2026');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Invalid verification code provided, please try again.')).toBeInTheDocument();
  });
});

describe('admin change password', () => {
  it("uses the signed-in admin's address and signs out afterwards", async () => {
    const forgotPassword = vi.fn(async () => undefined);
    const auth = signedInAdmin({ forgotPassword, confirmForgotPassword: vi.fn(async () => undefined) });
    renderAdmin(<AdminChangePasswordPage />, { auth, path: '/admin/change-password' });
    expect(screen.getByLabelText('Email')).toHaveValue('demo.admin@example.com');
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Send Reset Email' }));
    expect(forgotPassword).toHaveBeenCalledWith('demo.admin@example.com');
    await user.type(await screen.findByLabelText('Verification Code'), '123456');
    await user.type(screen.getByLabelText('New Password'), 'Enough#2026');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/admin/login'));
    expect(auth.signOut).toHaveBeenCalled();
  });
});

function renderApp(path: string, auth = signedInAdmin(), AuthHost?: AdminRenderOptions['AuthHost']) {
  const api = fakeAdminApi({
    users: { listUsers: vi.fn(async () => []) },
    quicksight: { listUsers: vi.fn(async () => []), listCatalogue: vi.fn(async () => []) },
  });
  renderAdmin(<AdminApp />, { auth, api, path, route: '/admin/*', ...(AuthHost ? { AuthHost } : {}) });
  return { auth, api };
}

const signOutOfHost = vi.fn();

/** An auth context signed in as an admin whose sign-out signs out at once, as the provider does. */
function SigningOutAuth({ children }: { readonly children: ReactNode }) {
  const [session, setSession] = useState<AuthSession | null>(() => adminSession());
  const value = useMemo(
    () =>
      fakeAuth({
        session,
        signOut: async () => {
          signOutOfHost();
          setSession(null);
        },
      }),
    [session],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/** An auth context whose sign-in really signs the admin in, as the provider does. */
function SigningInAuth({ children }: { readonly children: ReactNode }) {
  const [session, setSession] = useState<AuthSession | null>(null);
  const value = useMemo(
    () =>
      fakeAuth({
        session,
        signIn: vi.fn(async () => {
          const signedIn = adminSession();
          setSession(signedIn);
          return { step: 'DONE' as const, session: signedIn };
        }),
      }),
    [session],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

describe('admin routes and shell', () => {
  it('sends /admin to /admin/login', async () => {
    renderApp('/admin', fakeAuth());
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/admin/login'));
  });

  it("shows 'Loading...' while the session is checked", async () => {
    renderApp('/admin/users', fakeAuth({ status: 'loading', loading: true }));
    expect(await screen.findByText('Loading...')).toBeInTheDocument();
  });

  it('sends a visitor to /admin/login and back to where they were going after sign-in', async () => {
    renderApp('/admin/dashboard', fakeAuth(), SigningInAuth);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/admin/login'));
    await screen.findByRole('button', { name: 'Admin Login' }, { timeout: 5_000 });
    await submit();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Cognito Users' }, { timeout: 5_000 }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/admin/dashboard');
  });

  it('shows the title, the admin email, Change Password, Logout and the tabs', async () => {
    renderApp('/admin/quicksight', undefined, SigningOutAuth);
    expect(await screen.findByText('TVIQ Admin Portal')).toBeInTheDocument();
    expect(document.title).toBe('Manage Dashboards · TVIQ Admin');
    expect(screen.getByRole('banner')).toHaveTextContent('Signed in as demo.admin@example.com');
    expect(screen.getByRole('link', { name: 'Change Password' })).toHaveAttribute('href', '/admin/change-password');
    const nav = screen.getByRole('navigation', { name: 'Admin sections' });
    expect(nav).toHaveTextContent('Manage Users');
    expect(screen.getByRole('link', { name: 'Manage Dashboards' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Manage Users' })).not.toHaveAttribute('aria-current');
    expect(screen.getByRole('link', { name: 'Activity' })).toHaveAttribute('href', '/admin/activity');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/admin/login'));
    expect(signOutOfHost).toHaveBeenCalledTimes(1);
    expect(await screen.findByRole('heading', { name: 'Admin Sign In' })).toBeInTheDocument();
    expect(document.title).toBe('Admin Sign In · TVIQ Admin');
  });

  it('opens the Companies tab at /admin/companies', async () => {
    renderApp('/admin/users');
    await screen.findByText('TVIQ Admin Portal');
    const tab = screen.getByRole('link', { name: 'Companies' });
    expect(tab).toHaveAttribute('href', '/admin/companies');
    await userEvent.setup().click(tab);
    expect(await screen.findByRole('heading', { level: 1, name: 'Companies' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Companies' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Manage Users' })).not.toHaveAttribute('aria-current');
    expect(screen.getByRole('button', { name: 'Add company' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Company access' })).toBeInTheDocument();
  });

  it("offers the same account controls in the header's menu, for a phone, with the product named once", async () => {
    const { auth } = renderApp('/admin/users');
    await screen.findByText('TVIQ Admin Portal');
    expect(screen.getByRole('banner').textContent?.match(/TVIQ/g)).toHaveLength(1);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Account' }));
    expect(screen.getByRole('menu', { name: 'Account' }).parentElement).toHaveTextContent('demo.admin@example.com');
    await user.click(screen.getByRole('menuitem', { name: 'Change Password' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/admin/change-password'));
    expect(auth.signOut).not.toHaveBeenCalled();
  });
});
