import { setTimeout as sleep } from 'node:timers/promises';
import type { DemoAccount, StackInfo } from '#clients/local-stack.ts';
import { currentTotpCode, msUntilNextTotpStep } from '#clients/authenticator-code.ts';
import './provided.ts';
import {
  readTotpLedger,
  seedSignInSteps,
  TOTP_STEP_MS,
  totpStep,
  writeTotpLedger,
  type TotpLedger,
} from './totp-ledger.ts';

/** The authenticator code of a base32 secret right now, as an authenticator app shows it. */
export function totpCode(secret: string): string {
  return currentTotpCode(secret);
}

/**
 * Where the steps used are kept: the end-to-end run's file (provided by its global setup as
 * `totpLedger`), or, in any other test project or outside Vitest (benches), this process.
 */
let runLedgerFile: string | null | undefined;
const processLedger: TotpLedger = {};

async function ledgerFile(): Promise<string | null> {
  if (runLedgerFile === undefined) {
    runLedgerFile = null;
    if (process.env.VITEST) {
      const { inject } = await import('vitest');
      runLedgerFile = inject('totpLedger') ?? null;
    }
  }
  return runLedgerFile;
}

/**
 * An administrator to sign in with: of the demo admin and, in the end-to-end run, the
 * administrators its global setup added (support/admin-pool.ts), the one whose authenticator
 * code was used longest ago in this run, so that its sign-in need not wait for the next
 * 30-second step. The demo admin on a tie.
 */
export async function leastRecentlyUsedAdmin(stack: StackInfo): Promise<DemoAccount> {
  const file = await ledgerFile();
  const pool = process.env.VITEST && file !== null ? ((await import('vitest')).inject('adminPool') ?? []) : [];
  const ledger = file === null ? processLedger : readTotpLedger(file);
  const lastUsed = (account: DemoAccount) =>
    Math.max(-1, ledger[account.totpSecret] ?? -1, ledger[account.email.toLowerCase()] ?? -1);
  return [stack.demo.admin, ...pool].reduce((best, account) => (lastUsed(account) < lastUsed(best) ? account : best));
}

/**
 * Records the codes the local stack's seed used when it started (it signs the demo accounts
 * in with a code before it says it is ready): call it once the stack is ready.
 */
export async function noteSeedSignIns(stack: StackInfo, at = Date.now()): Promise<void> {
  const file = await ledgerFile();
  const ledger = file === null ? processLedger : readTotpLedger(file);
  for (const [key, step] of Object.entries(seedSignInSteps(stack, at))) ledger[key] = Math.max(ledger[key] ?? -1, step);
  if (file !== null) writeTotpLedger(file, ledger);
}

/**
 * Records a code used outside these helpers (an enrolment's first code, taken just before
 * `at`), so that the next code for the account comes from a later step.
 */
export async function noteTotpUsed(secret: string, accountEmail: string, at = Date.now()): Promise<void> {
  const file = await ledgerFile();
  const ledger = file === null ? processLedger : readTotpLedger(file);
  for (const key of [secret, accountEmail.toLowerCase()]) ledger[key] = Math.max(ledger[key] ?? -1, totpStep(at));
  if (file !== null) writeTotpLedger(file, ledger);
}

/**
 * A code from a 30-second step not yet used for this secret (nor, when given, for this
 * account), as Cognito takes each account's code once: when the current step was used, this
 * waits for the next one. The step is recorded before the code is handed out, so it is handed
 * out once. Without the run's ledger, a secret this process has not used yet may have been
 * used elsewhere in the current step (by a seed nobody recorded), so it waits for the next step.
 */
export async function unusedTotpCode(secret: string, accountEmail?: string): Promise<string> {
  const file = await ledgerFile();
  const keys = accountEmail === undefined ? [secret] : [secret, accountEmail.toLowerCase()];
  if (file === null && keys.every((key) => processLedger[key] === undefined)) {
    for (const key of keys) processLedger[key] = totpStep();
  }
  for (;;) {
    const ledger = file === null ? processLedger : readTotpLedger(file);
    const lastUsed = Math.max(-1, ...keys.map((key) => ledger[key] ?? -1));
    const step = totpStep();
    if (step > lastUsed) {
      for (const key of keys) ledger[key] = step;
      if (file !== null) writeTotpLedger(file, ledger);
      return currentTotpCode(secret, step * TOTP_STEP_MS);
    }
    await sleep(msUntilNextTotpStep() + 50);
  }
}
