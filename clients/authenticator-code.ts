import { authenticator } from 'otplib';

/** The current RFC 6238 code (30 s step, 6 digits, SHA-1) of a base32 secret, as authenticator apps compute it. */
export function currentTotpCode(secret: string, at: number = Date.now()): string {
  return authenticator.clone({ epoch: at }).generate(secret);
}

/** Milliseconds until the current 30-second step ends. */
export function msUntilNextTotpStep(at: number = Date.now()): number {
  return 30_000 - (at % 30_000);
}
