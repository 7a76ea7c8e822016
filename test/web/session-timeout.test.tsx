import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionSettings } from '#contracts/config.ts';
import SignedInSessionGuard from '#web/app/session-guard.tsx';
import { sessionEndMessage } from '#web/lib/auth/session-end.ts';
import { AuthContext, type AuthContextValue } from '#web/lib/auth/auth-context.ts';
import { lastActivityKey, signInTime } from '#web/lib/auth/session-timeout.ts';
import { ConfigProvider } from '#web/lib/config-context.tsx';
import { testConfig } from './support/config.ts';
import { fakeAuth, userSession } from './support/render.tsx';

const MINUTE = 60_000;

const base64url = (value: unknown) =>
  btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const jwt = (claims: Record<string, unknown>) =>
  `${base64url({ alg: 'RS256', kid: 'k' })}.${base64url(claims)}.signature`;

/** Tokens as Cognito issues them at a sign-in: auth_time, one hour of validity. */
function tokensSignedInAt(signedInAt: number) {
  const authTime = Math.floor(signedInAt / 1000);
  const exp = Math.floor(Date.now() / 1000) + 3600;
  return {
    accessToken: jwt({ sub: '6f1c-sub', token_use: 'access', auth_time: authTime, iat: exp - 3600, exp }),
    idToken: jwt({ sub: '6f1c-sub', token_use: 'id', email: 'jane.doe@example.com', auth_time: authTime, exp }),
    expiresAt: exp * 1000,
  };
}
const SETTINGS: SessionSettings = { idleTimeoutMinutes: 5, absoluteSessionMinutes: 60 };
const START = new Date('2025-03-04T09:00:00Z').getTime();
const ACTIVITY_KEY = lastActivityKey(testConfig.userPoolClientId);

function renderGuard({
  signedInAt = START,
  settings = SETTINGS,
}: { signedInAt?: number; settings?: SessionSettings } = {}) {
  const auth: AuthContextValue = fakeAuth({ session: userSession(tokensSignedInAt(signedInAt)) });
  render(
    <ConfigProvider config={{ ...testConfig, session: settings }}>
      <AuthContext.Provider value={auth}>
        <SignedInSessionGuard />
      </AuthContext.Provider>
    </ConfigProvider>,
  );
  return auth;
}

const advance = (ms: number) => act(async () => vi.advanceTimersByTime(ms));
const warning = () => screen.queryByRole('alertdialog', { name: 'Your session is about to end' });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(START);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('idle timeout', () => {
  it('warns 60 seconds before the idle sign-out, with the focus on Stay signed in', async () => {
    const auth = renderGuard();
    await advance(4 * MINUTE - 1);
    expect(warning()).not.toBeInTheDocument();
    await advance(1);
    const dialog = warning();
    expect(dialog).toBeInTheDocument();
    expect(dialog).toHaveAccessibleDescription(
      'There has been no activity for a while. You will be signed out in 60 seconds.',
    );
    expect(screen.getByRole('button', { name: 'Stay signed in' })).toHaveFocus();
    await advance(15_000);
    expect(dialog).toHaveTextContent('You will be signed out in 45 seconds.');
    expect(auth.signOut).not.toHaveBeenCalled();
  });

  it('keeps the session when Stay signed in is chosen: the next warning comes a full idle period later', async () => {
    const auth = renderGuard();
    await advance(4 * MINUTE + 30_000);
    fireEvent.click(screen.getByRole('button', { name: 'Stay signed in' }));
    expect(warning()).not.toBeInTheDocument();
    await advance(4 * MINUTE - 1);
    expect(warning()).not.toBeInTheDocument();
    expect(auth.signOut).not.toHaveBeenCalled();
    await advance(1);
    expect(warning()).toBeInTheDocument();
    expect(window.localStorage.getItem(ACTIVITY_KEY)).toBe(String(START + 4 * MINUTE + 30_000));
  });

  it('keeps the session when the warning is dismissed with Escape', async () => {
    const auth = renderGuard();
    await advance(4 * MINUTE);
    fireEvent.keyDown(screen.getByRole('button', { name: 'Stay signed in' }), { key: 'Escape' });
    expect(warning()).not.toBeInTheDocument();
    await advance(2 * MINUTE);
    expect(auth.signOut).not.toHaveBeenCalled();
  });

  it('signs out at the idle timeout', async () => {
    const auth = renderGuard();
    await advance(5 * MINUTE - 1);
    expect(auth.signOut).not.toHaveBeenCalled();
    await advance(1);
    expect(auth.signOut).toHaveBeenCalledTimes(1);
    expect(warning()).not.toBeInTheDocument();
  });

  it('Sign out now signs out at once', async () => {
    const auth = renderGuard();
    await advance(4 * MINUTE);
    fireEvent.click(screen.getByRole('button', { name: 'Sign out now' }));
    expect(auth.signOut).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['a key press', () => fireEvent.keyDown(document.body, { key: 'a' })],
    ['a pointer press', () => fireEvent.pointerDown(document.body)],
    ['a pointer move', () => fireEvent.pointerMove(document.body)],
    ['the window regaining focus', () => fireEvent.focus(window)],
  ])('counts %s as activity', async (_name, act) => {
    const auth = renderGuard();
    await advance(3 * MINUTE);
    act();
    await advance(4 * MINUTE - 1);
    expect(warning()).not.toBeInTheDocument();
    await advance(MINUTE);
    expect(warning()).toBeInTheDocument();
    expect(auth.signOut).not.toHaveBeenCalled();
    await advance(1);
    expect(auth.signOut).toHaveBeenCalledTimes(1);
  });

  it('closes the warning on activity in this page', async () => {
    renderGuard();
    await advance(4 * MINUTE + 10_000);
    expect(warning()).toBeInTheDocument();
    fireEvent.pointerMove(document.body);
    expect(warning()).not.toBeInTheDocument();
  });

  it('counts focus moving into the dashboard frame as activity', async () => {
    const frame = document.createElement('iframe');
    frame.title = 'QuickSight Analytics Dashboard';
    document.body.append(frame);
    try {
      const auth = renderGuard();
      await advance(3 * MINUTE);
      frame.focus();
      fireEvent.blur(window);
      await advance(0);
      await advance(4 * MINUTE - 1);
      expect(warning()).not.toBeInTheDocument();
      await advance(MINUTE);
      expect(auth.signOut).not.toHaveBeenCalled();
    } finally {
      frame.remove();
    }
  });

  it('does not count the window losing focus to another application', async () => {
    const auth = renderGuard();
    await advance(3 * MINUTE);
    fireEvent.blur(window);
    await advance(2 * MINUTE);
    expect(auth.signOut).toHaveBeenCalledTimes(1);
  });

  it("shares activity across tabs: another tab's activity closes the warning and postpones the sign-out", async () => {
    const auth = renderGuard();
    await advance(4 * MINUTE + 20_000);
    expect(warning()).toBeInTheDocument();
    // What the browser delivers when another tab of the portal records activity.
    const otherTabActivity = String(Date.now());
    window.localStorage.setItem(ACTIVITY_KEY, otherTabActivity);
    fireEvent(window, new StorageEvent('storage', { key: ACTIVITY_KEY, newValue: otherTabActivity }));
    expect(warning()).not.toBeInTheDocument();
    await advance(4 * MINUTE);
    expect(auth.signOut).not.toHaveBeenCalled();
    expect(warning()).toBeInTheDocument();
  });

  it("picks up another tab's activity when its own timer fires, even without an event", async () => {
    const auth = renderGuard();
    await advance(2 * MINUTE);
    window.localStorage.setItem(ACTIVITY_KEY, String(Date.now()));
    await advance(3 * MINUTE);
    expect(auth.signOut).not.toHaveBeenCalled();
    expect(warning()).not.toBeInTheDocument();
  });

  it('signs out at once when the portal is reopened after the idle timeout', async () => {
    window.localStorage.setItem(ACTIVITY_KEY, String(START - 20 * MINUTE));
    const auth = renderGuard({ signedInAt: START - 30 * MINUTE });
    await advance(0);
    expect(auth.signOut).toHaveBeenCalledTimes(1);
  });

  it('ignores activity recorded before this sign-in', async () => {
    window.localStorage.setItem(ACTIVITY_KEY, String(START - 2 * 24 * 60 * MINUTE));
    const auth = renderGuard({ signedInAt: START });
    await advance(0);
    expect(auth.signOut).not.toHaveBeenCalled();
    expect(warning()).not.toBeInTheDocument();
  });
});

describe('absolute session lifetime', () => {
  it('signs out at the lifetime counted from the sign-in, whatever the activity', async () => {
    window.localStorage.setItem(ACTIVITY_KEY, String(START));
    const auth = renderGuard({ signedInAt: START - 50 * MINUTE });
    for (let minute = 0; minute < 9; minute += 1) {
      await advance(MINUTE);
      fireEvent.keyDown(document.body, { key: 'a' });
    }
    await advance(MINUTE - 1);
    expect(auth.signOut).not.toHaveBeenCalled();
    fireEvent.keyDown(document.body, { key: 'a' });
    await advance(1);
    expect(auth.signOut).toHaveBeenCalledTimes(1);
  });

  it('signs out a session restored after its lifetime', async () => {
    window.localStorage.setItem(ACTIVITY_KEY, String(START - 1_000));
    const auth = renderGuard({ signedInAt: START - 61 * MINUTE });
    await advance(0);
    expect(auth.signOut).toHaveBeenCalledTimes(1);
  });

  it('reads the sign-in time from auth_time of the access token, corrected by the clock drift', () => {
    const tokens = tokensSignedInAt(START);
    expect(signInTime({ ...tokens, expiresAt: tokens.expiresAt })).toBe(START);
    expect(signInTime({ ...tokens, expiresAt: tokens.expiresAt + 7_000 })).toBe(START + 7_000);
    expect(signInTime({ accessToken: 'not-a-jwt', idToken: 'x', expiresAt: START })).toBeNull();
  });

  it('says why the user was signed out', () => {
    expect(sessionEndMessage('idle', 30)).toBe('You were signed out after 30 minutes without activity.');
    expect(sessionEndMessage('absolute', 720)).toBe(
      'Your session ended 12 hours after you signed in. Please sign in again.',
    );
    expect(sessionEndMessage('absolute', 90)).toBe(
      'Your session ended 90 minutes after you signed in. Please sign in again.',
    );
  });
});
