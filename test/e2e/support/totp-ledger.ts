import { readFileSync, writeFileSync } from 'node:fs';
import type { StackInfo } from '#clients/local-stack.ts';

/**
 * The last 30-second authenticator step whose code was used, per secret and per account
 * (email), for a whole end-to-end run. The identity provider, as Cognito, takes an account's
 * code once per step, and each test file runs in a process of its own (one after the other),
 * so the steps are kept in a file the global setup creates and provides as `totpLedger`.
 */
export type TotpLedger = Record<string, number>;

export const TOTP_STEP_MS = 30_000;

export const totpStep = (at = Date.now()): number => Math.floor(at / TOTP_STEP_MS);

export function readTotpLedger(file: string): TotpLedger {
  return JSON.parse(readFileSync(file, 'utf8')) as TotpLedger;
}

export function writeTotpLedger(file: string, ledger: TotpLedger): void {
  writeFileSync(file, JSON.stringify(ledger));
}

/** The local stack's seed signs the demo accounts in with a code before it says it is ready. */
export function seedSignInSteps(stack: StackInfo, readyAt = Date.now()): TotpLedger {
  const ledger: TotpLedger = {};
  for (const account of Object.values(stack.demo)) {
    ledger[account.totpSecret] = totpStep(readyAt);
    ledger[account.email.toLowerCase()] = totpStep(readyAt);
  }
  return ledger;
}

/** A new ledger in which the demo accounts' codes of the step the stack became ready in count as used. */
export function writeInitialTotpLedger(file: string, stack: StackInfo, readyAt = Date.now()): void {
  writeTotpLedger(file, seedSignInSteps(stack, readyAt));
}
