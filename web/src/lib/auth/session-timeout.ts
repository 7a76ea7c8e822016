import { useEffect, useRef, useState } from 'react';
import type { SessionSettings } from '#contracts/config.ts';
import type { AuthSession } from './types.ts';

/** The idle warning shows this long before the idle sign-out. */
const IDLE_WARNING_MS = 60_000;
/** Continuous activity is written to storage at most this often; the first after a pause at once. */
const ACTIVITY_WRITE_INTERVAL_MS = 1_000;

export type SessionEndReason = 'idle' | 'absolute';

/**
 * The last activity in any tab of the portal, in localStorage so that every tab reads it and
 * receives a `storage` event when another tab writes it; it also outlives a closed tab, so
 * reopening the portal after the idle timeout does not resume the session.
 */
export const lastActivityKey = (clientId: string) => `portal.${clientId}.lastActivity`;

function claims(jwt: string): Record<string, unknown> | null {
  const payload = jwt.split('.')[1];
  if (!payload) return null;
  try {
    const value: unknown = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/')));
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * When the user signed in, in local time: `auth_time` of the access token, which Cognito keeps
 * through refreshes, shifted by the clock drift the session's expiry already accounts for.
 * Null when the token carries none.
 */
export function signInTime(session: Pick<AuthSession, 'accessToken' | 'idToken' | 'expiresAt'>): number | null {
  const access = claims(session.accessToken);
  const id = claims(session.idToken);
  const authTime = access?.auth_time;
  if (typeof authTime !== 'number') return null;
  const expiries = [access?.exp, id?.exp].filter((exp): exp is number => typeof exp === 'number');
  const driftMs = expiries.length > 0 ? session.expiresAt - Math.min(...expiries) * 1000 : 0;
  return authTime * 1000 + driftMs;
}

interface SessionWatchOptions {
  readonly settings: SessionSettings;
  /** Epoch ms of the sign-in the absolute lifetime counts from. */
  readonly signedInAt: number;
  readonly clientId: string;
  readonly storage: Storage;
  /** The idle deadline while the warning is due, null once activity pushed it back. */
  readonly onWarning: (deadline: number | null) => void;
  readonly onExpire: (reason: SessionEndReason) => void;
}

export interface SessionWatch {
  /** Explicit activity ("Stay signed in"): recorded and shared at once. */
  activity(): void;
  stop(): void;
}

const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart'] as const;

/**
 * Watches one signed-in session: activity in this page (pointer, keys, window focus, focus
 * moving into the dashboard frame) and in other tabs keeps it alive; the idle warning is
 * raised a minute before the idle timeout; the session ends at the idle timeout or at the
 * absolute lifetime, whichever comes first.
 */
function watchSession({
  settings,
  signedInAt,
  clientId,
  storage,
  onWarning,
  onExpire,
}: SessionWatchOptions): SessionWatch {
  const key = lastActivityKey(clientId);
  const idleMs = settings.idleTimeoutMinutes * 60_000;
  const endsAt = signedInAt + settings.absoluteSessionMinutes * 60_000;
  const stored = () => Number(storage.getItem(key)) || 0;
  // Activity recorded before this sign-in belongs to an earlier session.
  let last = Math.max(stored(), signedInAt);
  let lastWrite = 0;
  let warning: number | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let done = false;

  const check = () => {
    if (done) return;
    clearTimeout(timer);
    const now = Date.now();
    last = Math.max(last, stored());
    const idleAt = last + idleMs;
    if (now >= endsAt || now >= idleAt) {
      stop();
      onExpire(now >= endsAt ? 'absolute' : 'idle');
      return;
    }
    const warnAt = idleAt - IDLE_WARNING_MS;
    const nextWarning = now >= warnAt ? idleAt : null;
    if (nextWarning !== warning) {
      warning = nextWarning;
      onWarning(warning);
    }
    timer = setTimeout(check, Math.min(warning ?? warnAt, endsAt) - now);
  };

  const record = (shareNow: boolean) => {
    if (done) return;
    const now = Date.now();
    last = now;
    if (shareNow || now - lastWrite >= ACTIVITY_WRITE_INTERVAL_MS) {
      lastWrite = now;
      storage.setItem(key, String(now));
    }
    if (warning !== null) check();
  };
  const onActivity = () => record(false);
  // Focus entering the cross-origin dashboard frame shows only as the window losing focus to
  // it; what happens inside the frame afterwards is invisible to the portal.
  let blurCheck: ReturnType<typeof setTimeout> | undefined;
  const onBlur = () => {
    clearTimeout(blurCheck);
    blurCheck = setTimeout(() => {
      if (document.activeElement instanceof HTMLIFrameElement) record(false);
    }, 0);
  };
  const onStorage = (event: StorageEvent) => {
    if (event.key === key || event.key === null) check();
  };
  const onVisibility = () => {
    if (document.visibilityState === 'visible') check();
  };

  for (const type of ACTIVITY_EVENTS) window.addEventListener(type, onActivity, { capture: true, passive: true });
  window.addEventListener('focus', onActivity);
  window.addEventListener('blur', onBlur);
  window.addEventListener('storage', onStorage);
  document.addEventListener('visibilitychange', onVisibility);

  function stop() {
    done = true;
    clearTimeout(timer);
    clearTimeout(blurCheck);
    for (const type of ACTIVITY_EVENTS) window.removeEventListener(type, onActivity, { capture: true });
    window.removeEventListener('focus', onActivity);
    window.removeEventListener('blur', onBlur);
    window.removeEventListener('storage', onStorage);
    document.removeEventListener('visibilitychange', onVisibility);
  }

  check();
  return { activity: () => record(true), stop };
}

export interface SessionTimeoutOptions {
  readonly session: AuthSession;
  readonly settings: SessionSettings;
  readonly clientId: string;
  readonly onExpire: (reason: SessionEndReason) => void;
  readonly storage?: Storage;
}

/** `watchSession` for the signed-in session of a component: the warning deadline and "Stay signed in". */
export function useSessionTimeout({ session, settings, clientId, onExpire, storage }: SessionTimeoutOptions) {
  const [warningDeadline, setWarningDeadline] = useState<number | null>(null);
  const onExpireRef = useRef(onExpire);
  const watchRef = useRef<SessionWatch | null>(null);
  const authTime = signInTime(session);
  const { idleTimeoutMinutes, absoluteSessionMinutes } = settings;

  useEffect(() => {
    onExpireRef.current = onExpire;
  }, [onExpire]);

  useEffect(() => {
    const watch = watchSession({
      settings: { idleTimeoutMinutes, absoluteSessionMinutes },
      // A token without auth_time (not issued by Cognito) counts from when this page saw it.
      signedInAt: authTime ?? Date.now(),
      clientId,
      storage: storage ?? window.localStorage,
      onWarning: setWarningDeadline,
      onExpire: (reason) => {
        setWarningDeadline(null);
        onExpireRef.current(reason);
      },
    });
    watchRef.current = watch;
    return () => watch.stop();
  }, [absoluteSessionMinutes, authTime, clientId, idleTimeoutMinutes, storage]);

  return { warningDeadline, staySignedIn: () => watchRef.current?.activity() };
}
