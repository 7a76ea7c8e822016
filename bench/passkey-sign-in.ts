/**
 * The sign-in with a passkey, timed as a reader lives it: the email typed, *Sign in with a
 * passkey* clicked, the default dashboard's content loaded, no code. Chromium's virtual
 * authenticator (DevTools WebAuthn domain) holds the passkey and verifies the user at once.
 */
import type { Browser } from 'playwright-core';
import type { DemoAccount, StackInfo } from '#clients/local-stack.ts';
import { logOutOfPortal, storedAccessToken } from '#test/e2e/support/auth.ts';
import { addPasskeyWithToken, addVirtualAuthenticator } from '#test/e2e/support/passkeys.ts';
import { chosenDashboard, contentLoaded, enterPasswordAndCode, STEP_TIMEOUT_MS } from './dashboard-page.ts';

/**
 * Signs `account` in with password and code once, adds a passkey, then times `runs` passkey
 * sign-ins (logging out before each). Resolves with each sign-in's milliseconds.
 */
export async function measurePasskeySignIns(
  browser: Browser,
  stack: StackInfo,
  account: DemoAccount,
  runs: number,
): Promise<number[]> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    await addVirtualAuthenticator(page);
    await enterPasswordAndCode(page, stack, account);
    await page.getByRole('button', { name: 'Verify & Sign In', exact: true }).click();
    await page.waitForURL(/\/home(\?|$)/, { timeout: STEP_TIMEOUT_MS });
    await addPasskeyWithToken(page, stack.functions.mfa, await storedAccessToken(page, stack));

    const samples: number[] = [];
    for (let index = 0; index < runs; index += 1) {
      await logOutOfPortal(page, stack);
      await page.goto(`${stack.webUrl}/login`);
      await page.getByLabel('Username (email)', { exact: true }).fill(account.email);
      const clickedAt = performance.now();
      await page.getByRole('button', { name: 'Sign in with a passkey', exact: true }).click();
      await page.waitForURL(/\/home(\?|$)/, { timeout: STEP_TIMEOUT_MS });
      await page.getByLabel('Select Dashboard').waitFor({ timeout: STEP_TIMEOUT_MS });
      await contentLoaded(page, await chosenDashboard(page));
      samples.push(performance.now() - clickedAt);
    }
    return samples;
  } finally {
    await context.close();
  }
}
