import { authenticator } from 'otplib';

/** RFC 6238 as Cognito applies it: SHA-1, 6 digits, 30-second steps, one step either side. */
const STEP_SECONDS = 30;

export function newTotpSecret(): string {
  return authenticator.generateSecret(20);
}

export type TotpCheck = { ok: true; step: number } | { ok: false; reason: 'mismatch' | 'reused' };

/** `lastUsedStep` is the step of the last accepted code: a code is accepted once. */
export function checkTotp(secret: string, code: string, now: number, lastUsedStep: number | undefined): TotpCheck {
  if (!/^\d{6}$/.test(code)) return { ok: false, reason: 'mismatch' };
  const checker = authenticator.clone({ step: STEP_SECONDS, window: 1, epoch: now });
  const delta = checker.checkDelta(code, secret);
  if (delta === null) return { ok: false, reason: 'mismatch' };
  const step = Math.floor(now / 1000 / STEP_SECONDS) + delta;
  if (lastUsedStep !== undefined && step <= lastUsedStep) return { ok: false, reason: 'reused' };
  return { ok: true, step };
}
