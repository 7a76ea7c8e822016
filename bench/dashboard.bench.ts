/**
 * The dashboard page as a reader lives it, in Chromium against a local stack of its own:
 * from the authentication code verified (the click on Verify & Sign In) to the default
 * dashboard's content loaded, and from choosing another dashboard in the picker to its content
 * loaded. Content loaded is what the portal shows once QuickSight's embedding SDK reports it:
 * the spinner gone, the dashboard drawn in the frame and the footer shown (the frame merely
 * appearing is not counted). The demo user and the demo owner sign in in turn, each with a code
 * of a 30-second step not used before. Count target: every sign-in and switch reached the
 * content.
 *
 * Beside it, the sign-in with a passkey (bench/passkey-sign-in.ts): from *Sign in with a
 * passkey* clicked after the email to the same content loaded, with Chromium's virtual
 * authenticator answering at once, as a fingerprint reader a person has touched.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { findFreePortBase } from '#local/ports.ts';
import type { DemoAccount, StackInfo } from '#clients/local-stack.ts';
import { spawnStack } from '#local/stack-process.ts';
import { ensureWebBuilt } from '#local/web-build.ts';
import { launchBrowser } from '#test/e2e/support/browser.ts';
import { noteSeedSignIns } from '#test/e2e/support/unused-totp-codes.ts';
import { median } from './median.ts';
import { chosenDashboard, contentLoaded, enterPasswordAndCode, STEP_TIMEOUT_MS } from './dashboard-page.ts';
import { measurePasskeySignIns } from './passkey-sign-in.ts';
import type { BenchOptions, BenchRow } from './types.ts';

const AREA = 'dashboard';
/** Sign-ins measured (each followed by one switch): the full run takes a median of them. */
const FULL_RUNS = 5;
const SMOKE_RUNS = 1;
const STACK_READY_TIMEOUT_MS = 300_000;

interface Sample {
  readonly signInMs: number;
  readonly switchMs: number;
}

/** One sign-in on a fresh browser context, then one switch to another dashboard. */
async function measureOnce(browser: Browser, stack: StackInfo, account: DemoAccount): Promise<Sample> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    await enterPasswordAndCode(page, stack, account);

    const verifiedAt = performance.now();
    await page.getByRole('button', { name: 'Verify & Sign In', exact: true }).click();
    await page.waitForURL(/\/home(\?|$)/, { timeout: STEP_TIMEOUT_MS });
    const picker = page.getByLabel('Select Dashboard');
    await picker.waitFor({ timeout: STEP_TIMEOUT_MS });
    await contentLoaded(page, await chosenDashboard(page));
    const signInMs = performance.now() - verifiedAt;

    const current = await chosenDashboard(page);
    const other = (await picker.locator('option').allTextContents()).find((name) => name !== current);
    if (other === undefined) throw new Error(`${account.email} has one dashboard: no switch to measure`);
    const chosenAt = performance.now();
    await picker.selectOption({ label: other });
    await contentLoaded(page, other);
    return { signInMs, switchMs: performance.now() - chosenAt };
  } finally {
    await context.close();
  }
}

export async function run(options: BenchOptions = { smoke: false }): Promise<BenchRow[]> {
  const runs = options.smoke ? SMOKE_RUNS : FULL_RUNS;
  await ensureWebBuilt({ log: (line) => process.stderr.write(`${line}\n`) });
  const dataDir = await mkdtemp(join(tmpdir(), 'dashboard-bench-'));
  const stack = await spawnStack({
    dataDir,
    portBase: await findFreePortBase(),
    readyTimeoutMs: STACK_READY_TIMEOUT_MS,
  });
  await noteSeedSignIns(stack.info, Date.now());
  const browser = await launchBrowser();
  try {
    const accounts = [stack.info.demo.user, stack.info.demo.owner];
    const samples: Sample[] = [];
    for (let index = 0; index < runs; index += 1)
      samples.push(await measureOnce(browser, stack.info, accounts[index % accounts.length]!));
    // The account not signed in last, whose next code is usually free at once.
    const passkeyMs = await measurePasskeySignIns(browser, stack.info, accounts[runs % accounts.length]!, runs);
    const of = runs > 1 ? ` (local, median of ${runs})` : ' (local)';
    const ms = (values: number[]) => `${Math.round(median(values))} ms`;
    return [
      {
        area: AREA,
        metric: 'sign-ins and switches that reached the content',
        value: String(samples.length),
        target: `= ${runs}`,
        ok: samples.length === runs,
        kind: 'count',
      },
      {
        area: AREA,
        metric: 'passkey sign-ins that reached the content without a code',
        value: String(passkeyMs.length),
        target: `= ${runs}`,
        ok: passkeyMs.length === runs,
        kind: 'count',
      },
      {
        area: AREA,
        metric: `authentication code verified -> dashboard content loaded${of}`,
        value: ms(samples.map((s) => s.signInMs)),
      },
      { area: AREA, metric: `passkey sign-in: email entered -> dashboard content loaded${of}`, value: ms(passkeyMs) },
      { area: AREA, metric: `dashboard switch -> content loaded${of}`, value: ms(samples.map((s) => s.switchMs)) },
    ];
  } finally {
    await browser.close();
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
