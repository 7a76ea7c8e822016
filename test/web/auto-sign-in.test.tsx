import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import SignUpPage from '#web/features/auth/routes/signup-page.tsx';
import {
  AUTO_SIGN_IN_INTERVAL_MS,
  AUTO_SIGN_IN_TIMEOUT_MESSAGE,
  AUTO_SIGN_IN_WAIT_MS,
} from '#web/features/auth/use-auto-sign-in.ts';
import { AuthError, type MfaSetupDriver } from '#web/lib/auth/types.ts';
import { fakeAuth, renderPage } from './support/render.tsx';

const PASSWORD = 'Secret#2026';
const notConfirmed = () => Promise.reject(new AuthError('User is not confirmed.', 'UserNotConfirmedException'));

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(() => {
  vi.useRealTimers();
});

async function signUp(overrides: Parameters<typeof fakeAuth>[0]) {
  const auth = fakeAuth({ signUp: vi.fn(async () => ({ isSignUpComplete: false, userId: 'sub-1' })), ...overrides });
  renderPage(<SignUpPage />, { auth, path: '/signup' });
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  await user.type(screen.getByLabelText('Email'), 'new.user@example.com');
  await user.type(screen.getByLabelText('Password'), PASSWORD);
  await user.type(screen.getByLabelText('Confirm Password'), PASSWORD);
  await user.click(screen.getByRole('button', { name: 'Create Account' }));
  await screen.findByRole('heading', { name: 'Check Your Email' });
  return auth;
}

const wait = (ms: number) => act(async () => vi.advanceTimersByTimeAsync(ms));

describe('auto sign-in after sign-up', () => {
  it('tries every 5 s while the account is unconfirmed, then continues into MFA setup without the password again', async () => {
    const driver: MfaSetupDriver = { associate: vi.fn(async () => 'JBSWY3DPEHPK3PXP'), verify: vi.fn() };
    const signIn = vi
      .fn()
      .mockImplementationOnce(notConfirmed)
      .mockImplementationOnce(notConfirmed)
      .mockResolvedValueOnce({ step: 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP' });
    const auth = await signUp({ signIn, signInMfaSetup: vi.fn(async () => driver) });
    expect(screen.getByText(/goes on to the MFA setup once the account is confirmed/)).toBeInTheDocument();
    expect(signIn).not.toHaveBeenCalled();
    await wait(AUTO_SIGN_IN_INTERVAL_MS);
    expect(signIn).toHaveBeenCalledTimes(1);
    await wait(AUTO_SIGN_IN_INTERVAL_MS);
    expect(signIn).toHaveBeenCalledTimes(2);
    await wait(AUTO_SIGN_IN_INTERVAL_MS);
    expect(signIn).toHaveBeenCalledTimes(3);
    expect(signIn).toHaveBeenLastCalledWith('new.user@example.com', PASSWORD);
    expect(await screen.findByRole('heading', { name: 'Set Up Multi-Factor Authentication' })).toBeInTheDocument();
    expect(await screen.findByText('JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();
    expect(auth.signInMfaSetup).toHaveBeenCalled();
    // No further attempts once signed in.
    await wait(AUTO_SIGN_IN_INTERVAL_MS * 3);
    expect(signIn).toHaveBeenCalledTimes(3);
  });

  it("gives up after 3 minutes with 'The account was not confirmed on time.' and a way to sign in", async () => {
    const signIn = vi.fn(notConfirmed);
    await signUp({ signIn });
    await wait(AUTO_SIGN_IN_WAIT_MS + AUTO_SIGN_IN_INTERVAL_MS);
    expect(await screen.findByText(AUTO_SIGN_IN_TIMEOUT_MESSAGE)).toBeInTheDocument();
    const attempts = signIn.mock.calls.length;
    expect(attempts).toBeGreaterThanOrEqual(AUTO_SIGN_IN_WAIT_MS / AUTO_SIGN_IN_INTERVAL_MS - 1);
    expect(attempts).toBeLessThanOrEqual(AUTO_SIGN_IN_WAIT_MS / AUTO_SIGN_IN_INTERVAL_MS);
    await wait(AUTO_SIGN_IN_INTERVAL_MS * 3);
    expect(signIn).toHaveBeenCalledTimes(attempts);
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('stops at a refusal other than "not confirmed yet" and says why', async () => {
    await signUp({
      signIn: vi.fn(async () => Promise.reject(new AuthError('User is disabled.', 'NotAuthorizedException'))),
    });
    await wait(AUTO_SIGN_IN_INTERVAL_MS);
    expect(await screen.findByText('User is disabled.')).toBeInTheDocument();
  });

  it('keeps the password out of browser storage', async () => {
    await signUp({ signIn: vi.fn(notConfirmed) });
    await wait(AUTO_SIGN_IN_INTERVAL_MS);
    const stored = [localStorage, sessionStorage].flatMap((storage) =>
      Array.from({ length: storage.length }, (_, index) => storage.getItem(storage.key(index) ?? '') ?? ''),
    );
    expect(stored.some((value) => value.includes(PASSWORD))).toBe(false);
  });
});
