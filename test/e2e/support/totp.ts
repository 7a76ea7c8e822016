import { setTimeout as sleep } from 'node:timers/promises';
import { currentTotpCode, msUntilNextTotpStep } from '../../../local/totp-code.ts';

/** The authenticator code of a base32 secret right now, as an authenticator app shows it. */
export function totpCode(secret: string): string {
  return currentTotpCode(secret);
}

const STEP_MS = 30_000;
const lastStepUsed = new Map<string, number>();

/**
 * A code from a 30-second step this test process has not used yet for this secret: the
 * identity provider, as Cognito, accepts each code once, so a second sign-in within the
 * same step must wait for the next one.
 */
export async function unusedTotpCode(secret: string): Promise<string> {
  const step = () => Math.floor(Date.now() / STEP_MS);
  const last = lastStepUsed.get(secret);
  if (last !== undefined && step() <= last) await sleep(msUntilNextTotpStep() + 50);
  lastStepUsed.set(secret, step());
  return currentTotpCode(secret);
}

/** Waits for the next 30-second step (after a code was refused as already used elsewhere). */
export async function nextTotpStep(): Promise<void> {
  await sleep(msUntilNextTotpStep() + 50);
}
