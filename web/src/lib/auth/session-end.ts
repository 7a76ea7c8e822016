import type { SessionEndReason } from './session-timeout.ts';

/**
 * Why the portal signed someone out (idle timeout, absolute session limit, or this browser's
 * device forgotten), kept in this tab's sessionStorage for the sign-in page it lands on to say.
 * The note is short-lived: a sign-in page opened much later, or a second time, says nothing.
 */
export const SESSION_END_KEY = 'portal.sessionEnd';

/** A note older than this is not shown. */
export const SESSION_END_NOTE_MS = 5 * 60_000;

/**
 * `deviceForgotten`: the person forgot the device this browser is, on the MFA page.
 * `deviceRefused`: the identity provider refused this browser's refresh because its device was
 * forgotten elsewhere (another browser, an administrator's reset). Where devices are tracked,
 * a session lives only as long as its device (docs/features.md, "Remembered devices").
 */
export type SignOutReason = SessionEndReason | 'deviceForgotten' | 'deviceRefused';

const REASONS: readonly SignOutReason[] = ['idle', 'absolute', 'deviceForgotten', 'deviceRefused'];

export interface SessionEnd {
  readonly reason: SignOutReason;
  /** The limit that was reached, in minutes (0 for the device reasons). */
  readonly minutes: number;
}

const DEVICE_SIGN_OUT_MESSAGES = {
  deviceForgotten:
    'You forgot this device, so this browser was signed out. Sign in again: a code from your authenticator app will be asked.',
  deviceRefused:
    'You were signed out because this browser was forgotten from your account, from another device or by an administrator. Please sign in again.',
} as const;

const duration = (minutes: number) =>
  minutes % 60 === 0 ? `${minutes / 60} hour${minutes === 60 ? '' : 's'}` : `${minutes} minutes`;

export const sessionEndMessage = (reason: SignOutReason, minutes: number) =>
  reason === 'deviceForgotten' || reason === 'deviceRefused'
    ? DEVICE_SIGN_OUT_MESSAGES[reason]
    : reason === 'idle'
      ? `You were signed out after ${minutes} minutes without activity.`
      : `Your session ended ${duration(minutes)} after you signed in. Please sign in again.`;

export function recordSessionEnd(end: SessionEnd, storage: Storage = window.sessionStorage): void {
  try {
    storage.setItem(SESSION_END_KEY, JSON.stringify({ ...end, at: Date.now() }));
  } catch {
    // Storage refused (private mode, quota): the sign-in page simply says nothing.
  }
}

/** The note left by the last sign-out, if it is recent; does not remove it (see `clearSessionEnd`). */
export function readSessionEnd(storage: Storage = window.sessionStorage): SessionEnd | null {
  let value: unknown;
  try {
    value = JSON.parse(storage.getItem(SESSION_END_KEY) ?? 'null');
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const { reason, minutes, at } = value as Record<string, unknown>;
  if (!REASONS.includes(reason as SignOutReason)) return null;
  if (typeof minutes !== 'number' || typeof at !== 'number' || Date.now() - at > SESSION_END_NOTE_MS) return null;
  return { reason: reason as SignOutReason, minutes };
}

export function clearSessionEnd(storage: Storage = window.sessionStorage): void {
  try {
    storage.removeItem(SESSION_END_KEY);
  } catch {
    // Nothing to clear where storage is unavailable.
  }
}
