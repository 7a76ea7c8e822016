import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';
import { currentTotpCode, msUntilNextTotpStep } from '../../../local/totp-code.ts';
import './provided.ts';
import { readTotpLedger, TOTP_STEP_MS, totpStep, writeTotpLedger } from './totp-ledger.ts';

/** The authenticator code of a base32 secret right now, as an authenticator app shows it. */
export function totpCode(secret: string): string {
  return currentTotpCode(secret);
}

/**
 * A code from a 30-second step not yet used in this run for this secret (nor, when given, for
 * this account), as Cognito takes each code once: when the current step was used, this waits
 * for the next one. The step is recorded before the code is handed out, so it is handed out once.
 */
export async function unusedTotpCode(secret: string, accountEmail?: string): Promise<string> {
  const file = inject('totpLedger');
  const keys = accountEmail === undefined ? [secret] : [secret, accountEmail.toLowerCase()];
  for (;;) {
    const ledger = readTotpLedger(file);
    const lastUsed = Math.max(-1, ...keys.map((key) => ledger[key] ?? -1));
    const step = totpStep();
    if (step > lastUsed) {
      for (const key of keys) ledger[key] = step;
      writeTotpLedger(file, ledger);
      return currentTotpCode(secret, step * TOTP_STEP_MS);
    }
    await sleep(msUntilNextTotpStep() + 50);
  }
}
