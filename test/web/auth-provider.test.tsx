import { act, render, screen, waitFor } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAuth, type AuthContextValue } from '#web/lib/auth/auth-context.ts';
import { AuthProvider } from '#web/lib/auth/auth-provider.tsx';
import type { CognitoAuthService } from '#web/lib/auth/cognito-service.ts';
import { readSessionEnd } from '#web/lib/auth/session-end.ts';
import { AuthError, DEVICE_REFUSED_CODE, type AuthSession } from '#web/lib/auth/types.ts';
import { userSession } from './support/render.tsx';

const CLIENT_ID = 'client123';
const PREFIX = `CognitoIdentityServiceProvider.${CLIENT_ID}`;

function storeTokens(user = 'sub-1') {
  window.localStorage.setItem(`${PREFIX}.LastAuthUser`, user);
  window.localStorage.setItem(`${PREFIX}.${user}.refreshToken`, 'refresh');
}

function fakeService(overrides: Partial<Record<keyof CognitoAuthService, unknown>> = {}) {
  return {
    currentSession: vi.fn(async () => userSession()),
    refresh: vi.fn(async () => userSession({ accessToken: 'refreshed-token' })),
    signOut: vi.fn(async () => undefined),
    ...overrides,
  } as unknown as CognitoAuthService;
}

let latest: AuthContextValue | null = null;
function Probe() {
  const auth = useAuth();
  useEffect(() => {
    latest = auth;
  });
  return <output data-testid="status">{`${auth.status}:${auth.session?.email ?? '-'}`}</output>;
}

const ACCOUNT_URL = 'https://mfa.example.test/';

function renderProvider(service: CognitoAuthService) {
  const loadService = vi.fn(async () => service);
  render(
    <AuthProvider
      userPoolId="us-east-2_AbCdEf123"
      clientId={CLIENT_ID}
      loadService={loadService}
      accountUrl={ACCOUNT_URL}
    >
      <Probe />
    </AuthProvider>,
  );
  return loadService;
}

const status = () => screen.getByTestId('status').textContent;

// The notes for the sign-in page live in this tab's sessionStorage.
afterEach(() => window.sessionStorage.clear());

describe('AuthProvider', () => {
  it('is signed out at once, without loading the identity library, when nothing is stored', () => {
    const loadService = renderProvider(fakeService());
    expect(status()).toBe('signedOut:-');
    expect(loadService).not.toHaveBeenCalled();
  });

  it('restores a stored session', async () => {
    storeTokens();
    const loadService = renderProvider(fakeService());
    expect(status()).toBe('loading:-');
    await waitFor(() => expect(status()).toBe('signedIn:jane.doe@example.com'));
    expect(loadService).toHaveBeenCalledWith(expect.objectContaining({ clientId: CLIENT_ID }));
  });

  it('follows a sign-out in another tab', async () => {
    storeTokens();
    renderProvider(fakeService());
    await waitFor(() => expect(status()).toBe('signedIn:jane.doe@example.com'));
    window.localStorage.clear();
    act(() => {
      window.dispatchEvent(
        new StorageEvent('storage', { key: `${PREFIX}.LastAuthUser`, oldValue: 'sub-1', newValue: null }),
      );
    });
    await waitFor(() => expect(status()).toBe('signedOut:-'));
  });

  it('ignores storage events of other keys', async () => {
    storeTokens();
    const service = fakeService();
    renderProvider(service);
    await waitFor(() => expect(status()).toBe('signedIn:jane.doe@example.com'));
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: 'selectedDashboardId', newValue: 'v1' }));
    });
    expect(service.currentSession).toHaveBeenCalledTimes(1);
  });

  it('refreshes a token that expires within 5 seconds before handing it out', async () => {
    storeTokens();
    const service = fakeService({
      currentSession: vi.fn(async (): Promise<AuthSession> => userSession({ expiresAt: Date.now() + 3_000 })),
    });
    renderProvider(service);
    await waitFor(() => expect(status()).toBe('signedIn:jane.doe@example.com'));
    await expect(latest?.getAccessToken()).resolves.toBe('refreshed-token');
    expect(service.refresh).toHaveBeenCalled();
  });

  it('hands out a fresh token without refreshing', async () => {
    storeTokens();
    const service = fakeService();
    renderProvider(service);
    await waitFor(() => expect(status()).toBe('signedIn:jane.doe@example.com'));
    await expect(latest?.getAccessToken()).resolves.toBe('access-token');
    expect(service.refresh).not.toHaveBeenCalled();
  });

  it('refreshes in the background before the tokens expire', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    try {
      storeTokens();
      const service = fakeService({
        currentSession: vi.fn(async () => userSession({ expiresAt: Date.now() + 90_000 })),
      });
      renderProvider(service);
      await waitFor(() => expect(status()).toBe('signedIn:jane.doe@example.com'));
      await act(async () => {
        await vi.advanceTimersByTimeAsync(31_000);
      });
      expect(service.refresh).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('ends the session when a refresh is refused, but not on a network error', async () => {
    storeTokens();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const refresh = vi
      .fn()
      .mockRejectedValueOnce(new AuthError('A network error has occurred.', 'NetworkError'))
      .mockRejectedValueOnce(new AuthError('Refresh Token has been revoked', 'NotAuthorizedException'));
    renderProvider(fakeService({ currentSession: vi.fn(async () => userSession({ expiresAt: Date.now() })), refresh }));
    await waitFor(() => expect(status()).toBe('signedIn:jane.doe@example.com'));
    await expect(latest?.getAccessToken()).rejects.toThrow('A network error has occurred.');
    expect(status()).toBe('signedIn:jane.doe@example.com');
    await expect(latest?.getAccessToken()).rejects.toThrow('Refresh Token has been revoked');
    await waitFor(() => expect(status()).toBe('signedOut:-'));
  });

  it('signs out with a note for the sign-in page when a refresh is refused because the device was forgotten elsewhere', async () => {
    storeTokens();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const refresh = vi.fn().mockRejectedValue(new AuthError('Invalid Refresh Token', DEVICE_REFUSED_CODE));
    renderProvider(fakeService({ currentSession: vi.fn(async () => userSession({ expiresAt: Date.now() })), refresh }));
    await waitFor(() => expect(status()).toBe('signedIn:jane.doe@example.com'));
    expect(readSessionEnd()).toBeNull();
    await expect(latest?.getAccessToken()).rejects.toThrow('Invalid Refresh Token');
    await waitFor(() => expect(status()).toBe('signedOut:-'));
    expect(readSessionEnd()).toEqual({ reason: 'deviceRefused', minutes: 0 });
  });

  it('does the same when the stored session cannot be refreshed at start-up for that reason', async () => {
    storeTokens();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderProvider(
      fakeService({
        currentSession: vi.fn().mockRejectedValue(new AuthError('Invalid Refresh Token', DEVICE_REFUSED_CODE)),
      }),
    );
    await waitFor(() => expect(status()).toBe('signedOut:-'));
    expect(readSessionEnd()).toEqual({ reason: 'deviceRefused', minutes: 0 });
  });

  describe('forgetting a device', () => {
    function withDevice(deviceKey: string) {
      const forgotten: string[] = [];
      vi.stubGlobal(
        'fetch',
        vi.fn(async (url: string, init: RequestInit) => {
          expect(url).toBe(ACCOUNT_URL);
          const body = JSON.parse(String(init.body)) as { action: string; deviceKey?: string };
          if (body.action === 'FORGET_DEVICE') forgotten.push(body.deviceKey ?? '');
          return new Response(JSON.stringify({ message: 'ok' }), {
            status: 200,
            headers: { 'content-type': 'application/json' },
          });
        }),
      );
      // The library's user as device-service.ts reads it: the key it keeps, and how it drops it.
      const user = { deviceKey, clearCachedDeviceKeyAndPassword: vi.fn() };
      const service = fakeService({ signedInUserWithDevice: vi.fn(async () => user) });
      return { forgotten, user, service };
    }

    it('of another browser keeps this one signed in', async () => {
      storeTokens();
      const { forgotten, user, service } = withDevice('us-east-2_this');
      renderProvider(service);
      await waitFor(() => expect(status()).toBe('signedIn:jane.doe@example.com'));
      await act(() => latest!.forgetDevice('us-east-2_phone'));
      expect(forgotten).toEqual(['us-east-2_phone']);
      expect(status()).toBe('signedIn:jane.doe@example.com');
      expect(user.clearCachedDeviceKeyAndPassword).not.toHaveBeenCalled();
      expect(service.signOut).not.toHaveBeenCalled();
      expect(readSessionEnd()).toBeNull();
    });

    it('of this browser signs this browser only out (its refresh token revoked), with a note for the sign-in page', async () => {
      storeTokens();
      const { forgotten, user, service } = withDevice('us-east-2_this');
      renderProvider(service);
      await waitFor(() => expect(status()).toBe('signedIn:jane.doe@example.com'));
      await act(() => latest!.forgetDevice('us-east-2_this'));
      expect(forgotten).toEqual(['us-east-2_this']);
      expect(user.clearCachedDeviceKeyAndPassword).toHaveBeenCalled();
      expect(status()).toBe('signedOut:-');
      // Without the "everywhere" function: RevokeToken of this browser's refresh token.
      expect(service.signOut).toHaveBeenCalledWith();
      expect(readSessionEnd()).toEqual({ reason: 'deviceForgotten', minutes: 0 });
    });
  });

  it('logs a failed sign-out and clears the user anyway', async () => {
    storeTokens();
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderProvider(fakeService({ signOut: vi.fn(async () => Promise.reject(new Error('offline'))) }));
    await waitFor(() => expect(status()).toBe('signedIn:jane.doe@example.com'));
    await act(async () => {
      await latest?.signOut();
    });
    expect(status()).toBe('signedOut:-');
    expect(log).toHaveBeenCalledWith('Error signing out:', 'offline');
  });

  it('starts a sign-in made during the end of the last sign-out only once that end is done', async () => {
    storeTokens();
    let finishSignOut = () => {};
    const events: string[] = [];
    const service = fakeService({
      signOut: vi.fn(
        () =>
          new Promise<void>((resolve) => {
            finishSignOut = () => {
              events.push('sessions ended');
              resolve();
            };
          }),
      ),
      signIn: vi.fn(async () => {
        events.push('sign-in sent');
        return { step: 'CONFIRM_SIGN_IN_WITH_TOTP_CODE' };
      }),
    });
    renderProvider(service);
    await waitFor(() => expect(status()).toBe('signedIn:jane.doe@example.com'));
    let signingOut: Promise<void> | undefined;
    act(() => {
      signingOut = latest?.signOut();
    });
    expect(status()).toBe('signedOut:-');
    const signingIn = latest!.signIn('jane.doe@example.com', 'Secret#Pass1');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events).toEqual([]);
    finishSignOut();
    await act(async () => {
      await signingOut;
      await signingIn;
    });
    expect(events).toEqual(['sessions ended', 'sign-in sent']);
  });
});
