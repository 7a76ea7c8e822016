import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { REMEMBER_DEVICE_TEXT } from '#web/components/sign-in/mfa-code-form.tsx';
import { REMEMBER_DEVICE_FAILED } from '#web/components/sign-in/sign-in-flow.tsx';
import LoginPage from '#web/features/auth/routes/login-page.tsx';
import { AuthError } from '#web/lib/auth/types.ts';
import { testConfig } from './support/config.ts';
import { fakeAuth, renderPage, userSession } from './support/render.tsx';

/** Signs in up to the code screen; `remember` ticks the box there before verifying. */
async function signInWithCode({
  overrides = {},
  rememberDevices = true,
  remember = false,
}: { overrides?: Parameters<typeof fakeAuth>[0]; rememberDevices?: boolean; remember?: boolean } = {}) {
  const auth = fakeAuth({
    signIn: vi.fn(async () => ({ step: 'CONFIRM_SIGN_IN_WITH_TOTP_CODE' as const })),
    confirmTotpCode: vi.fn(async () => ({ step: 'DONE' as const, session: userSession(), deviceConfirmed: true })),
    ...overrides,
  });
  renderPage(<LoginPage />, { auth, path: '/login', config: { ...testConfig, rememberDevices } });
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Username (email)'), 'jane.doe@example.com');
  await user.type(screen.getByLabelText('Password'), 'Secret#2026');
  await user.click(screen.getByRole('button', { name: 'Log In' }));
  await user.type(await screen.findByLabelText('Authentication Code'), '123456');
  if (remember) await user.click(screen.getByRole('checkbox', { name: 'Remember this device' }));
  await user.click(screen.getByRole('button', { name: 'Verify & Sign In' }));
  return { auth, user };
}

describe('Remember this device on the code screen', () => {
  it('is a checkbox beside the code, off by default, with its caution', async () => {
    const auth = fakeAuth({ signIn: vi.fn(async () => ({ step: 'CONFIRM_SIGN_IN_WITH_TOTP_CODE' as const })) });
    renderPage(<LoginPage />, { auth, path: '/login', config: { ...testConfig, rememberDevices: true } });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Username (email)'), 'jane.doe@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secret#2026');
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    const choice = await screen.findByRole('checkbox', { name: 'Remember this device' });
    expect(choice).not.toBeChecked();
    expect(choice).toHaveAccessibleDescription(REMEMBER_DEVICE_TEXT.caution);
    expect(screen.getByLabelText('Authentication Code')).toBeInTheDocument();
  });

  it('puts its caution on a line of its own under the label', async () => {
    const auth = fakeAuth({ signIn: vi.fn(async () => ({ step: 'CONFIRM_SIGN_IN_WITH_TOTP_CODE' as const })) });
    renderPage(<LoginPage />, { auth, path: '/login', config: { ...testConfig, rememberDevices: true } });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Username (email)'), 'jane.doe@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secret#2026');
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    await screen.findByRole('checkbox', { name: 'Remember this device' });
    // Block elements each start a line whatever the page's stylesheet; the sign-in page and
    // the admin portal share this markup.
    const caution = screen.getByText(REMEMBER_DEVICE_TEXT.caution);
    const label = screen.getByText(REMEMBER_DEVICE_TEXT.label);
    expect(getComputedStyle(caution).display).toBe('block');
    expect(caution.parentElement).toBe(label.parentElement);
    expect(getComputedStyle(caution.parentElement!).display).toBe('block');
  });

  it('remembers the device right after the sign-in when ticked, then goes to the dashboard without another page', async () => {
    const order: string[] = [];
    const { auth } = await signInWithCode({
      remember: true,
      overrides: {
        confirmTotpCode: vi.fn(async () => {
          order.push('signed in');
          return { step: 'DONE' as const, session: userSession(), deviceConfirmed: true };
        }),
        rememberDevice: vi.fn(async () => {
          order.push('remembered');
        }),
      },
    });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/home'));
    expect(auth.rememberDevice).toHaveBeenCalledTimes(1);
    expect(order).toEqual(['signed in', 'remembered']);
    expect(screen.queryByRole('button', { name: 'Continue' })).not.toBeInTheDocument();
  });

  it('goes straight to the dashboard without remembering when the box stays clear', async () => {
    const { auth } = await signInWithCode();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/home'));
    expect(auth.rememberDevice).not.toHaveBeenCalled();
  });

  it('still signs in, and says so, when the device cannot be remembered', async () => {
    await signInWithCode({
      remember: true,
      overrides: {
        rememberDevice: vi.fn(async () =>
          Promise.reject(new AuthError('Device does not exist.', 'ResourceNotFoundException')),
        ),
      },
    });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/home'));
    expect(await screen.findByText(REMEMBER_DEVICE_FAILED)).toBeInTheDocument();
  });

  it('does not remember an account the portal turns away', async () => {
    const { auth } = await signInWithCode({
      remember: true,
      overrides: {
        confirmTotpCode: vi.fn(async () => ({
          step: 'DONE' as const,
          session: userSession({ groups: [] }),
          deviceConfirmed: true,
        })),
      },
    });
    expect(await screen.findByText("Access denied. You don't have user privileges.")).toBeInTheDocument();
    expect(auth.rememberDevice).not.toHaveBeenCalled();
  });

  it('is not offered where the deployment does not remember devices', async () => {
    const { auth } = await signInWithCode({ rememberDevices: false });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/home'));
    expect(screen.queryByRole('checkbox', { name: 'Remember this device' })).not.toBeInTheDocument();
    expect(auth.rememberDevice).not.toHaveBeenCalled();
  });
});
