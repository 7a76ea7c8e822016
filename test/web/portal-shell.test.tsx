import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { PortalShell } from '#web/features/portal/components/portal-shell.tsx';
import { avatarInitials } from '#web/features/portal/initials.ts';
import SettingsPage from '#web/features/settings/routes/settings-page.tsx';
import { RequireAuth } from '#web/components/sign-in/require-auth.tsx';
import { AuthContext } from '#web/lib/auth/auth-context.ts';
import { ConfigProvider } from '#web/lib/config-context.tsx';
import { testConfig } from './support/config.ts';
import { fakeAuth, jsonResponse, renderPage, userSession } from './support/render.tsx';

describe('avatar initials', () => {
  it.each([
    ['jane.doe@example.com', 'JD'],
    ['mary_ann-smith@example.com', 'MAS'],
    ['bob@example.com', 'B'],
    ['x.@example.com', 'X'],
  ])('%s gives %s', (login, initials) => {
    expect(avatarInitials(login)).toBe(initials);
  });
});

function Where() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

function renderShell(auth = fakeAuth({ session: userSession() }), path = '/home') {
  render(
    <ConfigProvider config={testConfig}>
      <AuthContext.Provider value={auth}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route
              element={
                <RequireAuth groups={['Users', 'Admins']} loginPath="/login">
                  <PortalShell />
                </RequireAuth>
              }
            >
              <Route path="/home" element={<p>dashboard content</p>} />
              <Route path="/settings" element={<p>settings content</p>} />
            </Route>
            <Route path="/login" element={<p>login page</p>} />
          </Routes>
          <Where />
        </MemoryRouter>
      </AuthContext.Provider>
    </ConfigProvider>,
  );
  return auth;
}

describe('portal shell', () => {
  it('shows the logo, the product name once, and the navigation', () => {
    renderShell();
    expect(screen.getByRole('img', { name: 'TVIQ' })).toHaveAttribute('width', '200');
    // The logo names the product: no bar repeats it.
    expect(screen.getByRole('navigation', { name: 'Main' })).not.toHaveTextContent('TVIQ');
    expect(screen.getByRole('banner')).not.toHaveTextContent('TVIQ');
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Support' })).toHaveAttribute('href', '/support');
    expect(screen.getByRole('button', { name: 'JD Account menu' })).toHaveTextContent('JD');
  });

  it('draws the initials on a plain disc, with no stock picture behind them', () => {
    renderShell();
    const button = screen.getByRole('button', { name: 'JD Account menu' });
    expect(button.querySelector('.avatar')).toHaveTextContent(/^JD$/);
    expect(button.querySelector('img')).toBeNull();
  });

  it('opens the avatar menu from the keyboard and moves through it', async () => {
    renderShell();
    const user = userEvent.setup();
    const button = screen.getByRole('button', { name: /Account menu/ });
    button.focus();
    await user.keyboard('{Enter}');
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('jane.doe@example.com')).toBeInTheDocument();
    const items = screen.getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['Profile', 'Change Password', 'Log out']);
    expect(items[0]).toHaveAttribute('aria-disabled', 'true');
    expect(items[0]).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(items[1]).toHaveFocus();
    await user.keyboard('{End}');
    expect(items[2]).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(items[0]).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });

  it('Change Password goes to /settings', async () => {
    renderShell();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Account menu/ }));
    await user.click(screen.getByRole('menuitem', { name: 'Change Password' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/settings');
  });

  it('Log out signs out and goes to /login', async () => {
    const auth = renderShell();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Account menu/ }));
    await user.click(screen.getByRole('menuitem', { name: 'Log out' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
    expect(auth.signOut).toHaveBeenCalled();
  });

  it('sends a visitor without a session to /login', () => {
    renderShell(fakeAuth(), '/home');
    expect(screen.getByText('login page')).toBeInTheDocument();
  });

  it('shows Loading... while the session is checked', () => {
    renderShell(fakeAuth({ status: 'loading', loading: true }), '/home');
    expect(screen.getByText('Loading...')).toBeInTheDocument();
  });
});

describe('settings page', () => {
  it('has the reset card prefilled with the signed-in address and locked', async () => {
    const auth = fakeAuth({ session: userSession(), forgotPassword: vi.fn(async () => undefined) });
    // The page's Subscriptions card lists them (test/web/subscriptions-card.test.tsx): none here.
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ data: { listMySubscriptions: [] } })),
    );
    renderPage(<SettingsPage />, { auth, path: '/settings' });
    expect(screen.getByRole('heading', { name: 'Settings' })).toBeInTheDocument();
    expect(screen.getByText('Manage your account settings and set preferences.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Multi-Factor Authentication' })).toHaveAttribute('href', '/mfa-settings');
    const email = screen.getByLabelText('Email Address');
    expect(email).toHaveValue('jane.doe@example.com');
    expect(email).toHaveAttribute('placeholder', 'jane.doe@example.com');
    expect(email).toHaveAttribute('readonly');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Send Verification Code' }));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/verify-reset-code?email=jane.doe%40example.com'),
    );
  });
});
