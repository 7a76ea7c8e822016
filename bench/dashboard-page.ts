import type { Page } from 'playwright-core';

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
