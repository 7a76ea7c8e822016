import { act, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionLimits } from '#web/app/router.tsx';
import { Toaster } from '#web/components/toaster.tsx';
// Loaded up front, so the guard's lazy chunk resolves at once under fake timers.
import '#web/app/session-guard.tsx';
import { RequireAuth } from '#web/components/sign-in/require-auth.tsx';
import { AuthProvider } from '#web/lib/auth/auth-provider.tsx';
import { readSessionEnd } from '#web/lib/auth/session-end.ts';
import type { CognitoAuthService } from '#web/lib/auth/cognito-service.ts';
import { ConfigProvider } from '#web/lib/config-context.tsx';
import { testConfig } from './support/config.ts';
import { userSession } from './support/render.tsx';

const MINUTE = 60_000;
const CLIENT_ID = testConfig.userPoolClientId;
const PREFIX = `CognitoIdentityServiceProvider.${CLIENT_ID}`;
const FRAME_TITLE = 'QuickSight Analytics Dashboard';

function storeTokens(user = 'sub-1') {
  window.localStorage.setItem(`${PREFIX}.LastAuthUser`, user);
  window.localStorage.setItem(`${PREFIX}.${user}.refreshToken`, 'refresh');
}

/** The identity service with a sign-out the test answers when it chooses. */
function pendingSignOutService() {
  let finishSignOut = () => undefined as void;
  const signOut = vi.fn(
    () =>
      new Promise<void>((resolve) => {
        finishSignOut = resolve;
      }),
  );
  const service = {
    currentSession: vi.fn(async () => userSession({ expiresAt: Date.now() + 60 * MINUTE })),
    refresh: vi.fn(async () => userSession({ expiresAt: Date.now() + 60 * MINUTE })),
    signOut,
  } as unknown as CognitoAuthService;
  return { service, signOut, finish: () => finishSignOut() };
}

function renderPortal(service: CognitoAuthService) {
  render(
    <ConfigProvider config={{ ...testConfig, session: { idleTimeoutMinutes: 10, absoluteSessionMinutes: 60 } }}>
      <AuthProvider userPoolId={testConfig.userPoolId} clientId={CLIENT_ID} loadService={async () => service}>
        <MemoryRouter initialEntries={['/home']}>
          <Routes>
            <Route
              path="/home"
              element={
                <RequireAuth groups={['Users']} loginPath="/login">
                  <iframe title={FRAME_TITLE} src="about:blank" />
                </RequireAuth>
              }
            />
            <Route path="/login" element={<p>login page</p>} />
          </Routes>
          <SessionLimits />
        </MemoryRouter>
        <Toaster />
      </AuthProvider>
    </ConfigProvider>,
  );
}

const advance = (ms: number) => act(async () => vi.advanceTimersByTimeAsync(ms));

/** Lets the session check and the guard's chunk settle without moving the clock. */
async function settle() {
  for (let step = 0; step < 20; step += 1) await advance(0);
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(new Date('2025-03-04T09:00:00Z'));
});

afterEach(() => {
  vi.useRealTimers();
});

describe('sign-out at the idle timeout', () => {
  it('revokes the session with the identity provider and removes the dashboard frame before it answers', async () => {
    storeTokens();
    const { service, signOut, finish } = pendingSignOutService();
    renderPortal(service);
    await settle();
    expect(screen.getByTitle(FRAME_TITLE)).toBeInTheDocument();

    await advance(9 * MINUTE);
    expect(screen.getByRole('alertdialog', { name: 'Your session is about to end' })).toBeInTheDocument();
    expect(screen.getByTitle(FRAME_TITLE)).toBeInTheDocument();

    await advance(MINUTE);
    expect(signOut).toHaveBeenCalledTimes(1);
    // The identity provider has not answered yet: the frame is gone all the same.
    expect(screen.queryByTitle(FRAME_TITLE)).not.toBeInTheDocument();
    expect(screen.getByText('login page')).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();

    await act(async () => finish());
    expect(screen.queryByTitle(FRAME_TITLE)).not.toBeInTheDocument();
    // The sign-in page reads why.
    expect(readSessionEnd()).toEqual({ reason: 'idle', minutes: 10 });
    vi.useRealTimers();
    expect(await screen.findByText('You were signed out after 10 minutes without activity.')).toBeInTheDocument();
  });

  it('keeps the frame and the session while the user answers Stay signed in', async () => {
    storeTokens();
    const { service, signOut } = pendingSignOutService();
    renderPortal(service);
    await settle();
    await advance(9 * MINUTE + 30_000);
    act(() => screen.getByRole('button', { name: 'Stay signed in' }).click());
    await advance(9 * MINUTE);
    expect(signOut).not.toHaveBeenCalled();
    expect(screen.getByTitle(FRAME_TITLE)).toBeInTheDocument();
  });
});
