import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from './support/a11y.ts';
import { signInAsAdmin, signInAsUser } from './support/auth.ts';
import { launchBrowser } from './support/browser.ts';
import { useStack } from './support/stack.ts';

const stack = useStack();
const demo = stack.demo.user;

/** The demo user's row on the Insights page: last seen and views in the last 30 days. */
async function userRow(page: Page): Promise<{ lastSeen: string; recentViews: number }> {
  const row = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: demo.email });
  await row.waitFor();
  const cells = row.getByRole('cell');
  return {
    lastSeen: (await cells.nth(2).innerText()).trim(),
    recentViews: Number((await cells.nth(3).innerText()).replace(/\D/g, '')),
  };
}

/** Views in the range of the dashboard named `name` on the Insights page. */
async function dashboardViews(page: Page, name: string): Promise<number> {
  const row = page.getByRole('table', { name: 'Views per dashboard' }).getByRole('row').filter({ hasText: name });
  return Number((await row.getByRole('cell').first().innerText()).replace(/\D/g, ''));
}

describe('usage insight', () => {
  let browser: Browser;
  let admin: Page;
  let user: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    admin = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    user = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("shows a user's dashboard view to an admin on the Insights page", async () => {
    await signInAsAdmin(admin, stack);
    await admin.getByRole('link', { name: 'Insights' }).click();
    await admin.waitForURL(/\/admin\/insights$/);
    await admin.getByRole('heading', { level: 1, name: 'Insights' }).waitFor();
    const before = await userRow(admin);

    await signInAsUser(user, stack);
    await user.locator('iframe[title="QuickSight Analytics Dashboard"]').waitFor();
    const opened = await user
      .getByLabel('Select Dashboard')
      .evaluate(
        (select) => (select as unknown as { selectedOptions: { text: string }[] }).selectedOptions[0]?.text ?? '',
      );
    const dashboardBefore = await dashboardViews(admin, opened);

    await admin.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(async () => (await userRow(admin)).recentViews, { timeout: 20_000 }).toBe(before.recentViews + 1);
    const after = await userRow(admin);
    expect(after.lastSeen).not.toBe('Never viewed');
    expect(after.lastSeen).not.toBe(before.lastSeen);
    expect(await dashboardViews(admin, opened)).toBe(dashboardBefore + 1);
    // The chart chunk arrives with its spoken summary.
    await admin.getByRole('img', { name: /^Views per dashboard: / }).waitFor();
    await expectNoSeriousA11yViolations(admin);
  });
});
