import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { REMEMBER_DEVICE_FAILED } from '../../web/src/features/auth/components/sign-in-flow.tsx';
import LoginPage from '../../web/src/features/auth/routes/login-page.tsx';
import { AuthError } from '../../web/src/lib/auth/types.ts';
import { testConfig } from './support/config.ts';
import { fakeAuth, renderPage, userSession } from './support/render.tsx';

/** Signs in with a code on a device the identity provider has just confirmed. */
async function signInWithCode(overrides: Parameters<typeof fakeAuth>[0] = {}, rememberDevices = true) {
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
  await user.click(screen.getByRole('button', { name: 'Verify & Sign In' }));
  return { auth, user };
}

describe('remembering the device after a sign-in with a code', () => {
  it('offers the choice, remembers the device when ticked, then goes to the dashboard', async () => {
    const { auth, user } = await signInWithCode();
    const choice = await screen.findByRole('checkbox', { name: 'Remember this device' });
    expect(choice).not.toBeChecked();
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
    await user.click(choice);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/home'));
    expect(auth.rememberDevice).toHaveBeenCalledTimes(1);
  });

  it('goes on without remembering when the box stays clear', async () => {
    const { auth, user } = await signInWithCode();
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/home'));
    expect(auth.rememberDevice).not.toHaveBeenCalled();
  });

  it('says so and stays when the device cannot be remembered', async () => {
    const { user } = await signInWithCode({ rememberDevice: vi.fn(async () => Promise.reject(new AuthError('Device does not exist.', 'ResourceNotFoundException'))) });
    await user.click(await screen.findByRole('checkbox', { name: 'Remember this device' }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(REMEMBER_DEVICE_FAILED)).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
  });

  it('does not offer it where the deployment does not remember devices', async () => {
    const { auth } = await signInWithCode({}, false);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/home'));
    expect(screen.queryByRole('checkbox', { name: 'Remember this device' })).not.toBeInTheDocument();
    expect(auth.rememberDevice).not.toHaveBeenCalled();
  });

  it('does not offer it for a device that was already known (a remembered one skipped the code)', async () => {
    await signInWithCode({ confirmTotpCode: vi.fn(async () => ({ step: 'DONE' as const, session: userSession(), deviceConfirmed: false })) });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/home'));
  });
});
