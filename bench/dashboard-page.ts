import type { Page } from 'playwright-core';
import type { DemoAccount, StackInfo } from '#clients/local-stack.ts';
import { unusedTotpCode } from '#test/e2e/support/unused-totp-codes.ts';

/** What the dashboard benches wait for at most at each step. */
export const STEP_TIMEOUT_MS = 60_000;
const FRAME = 'iframe[title="QuickSight Analytics Dashboard"]';

/** The name of the dashboard the picker shows as chosen. */
export function chosenDashboard(page: Page): Promise<string> {
  return page
    .getByLabel('Select Dashboard')
    .evaluate(
      (select) => (select as unknown as { selectedOptions: { text: string }[] }).selectedOptions[0]?.text ?? '',
    );
}

/** Resolves once `name` is drawn in the frame, the spinner is gone and the footer shows. */
export async function contentLoaded(page: Page, name: string): Promise<void> {
  await page.frameLocator(FRAME).getByText(name, { exact: false }).first().waitFor({ timeout: STEP_TIMEOUT_MS });
  await page.getByText('Loading dashboard...').waitFor({ state: 'detached', timeout: STEP_TIMEOUT_MS });
  await page.getByText('Powered by AWS QuickSight').waitFor({ timeout: STEP_TIMEOUT_MS });
}

/**
 * The sign-in page with password and a code of a step not used before, up to the click on
 * Verify & Sign In, which is left to the caller (the dashboard bench times from it).
 */
export async function enterPasswordAndCode(page: Page, stack: StackInfo, account: DemoAccount): Promise<void> {
  await page.goto(`${stack.webUrl}/login`);
  await page.getByLabel('Username (email)', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Log In', exact: true }).click();
  const code = page.getByLabel('Authentication Code', { exact: true });
  await code.waitFor({ timeout: STEP_TIMEOUT_MS });
  await code.fill(await unusedTotpCode(account.totpSecret, account.email));
}
