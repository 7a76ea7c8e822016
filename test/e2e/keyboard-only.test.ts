import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.ts';
import { useStack } from './support/stack.ts';
import { leastRecentlyUsedAdmin, unusedTotpCode } from './support/unused-totp-codes.ts';

const stack = useStack();

/** Most presses of Tab (or Shift+Tab) one control may take to reach. */
const MAX_PRESSES = 60;

const isFocused = (target: Locator) =>
  target.evaluate(
    (element) =>
      (element as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement === element,
  );

/**
 * Moves the focus to `target` with Tab (or Shift+Tab) alone, as someone without a mouse does;
 * fails when it cannot be reached that way.
 */
async function tabTo(page: Page, target: Locator, what: string, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
  await target.waitFor();
  for (let presses = 0; presses <= MAX_PRESSES; presses += 1) {
    if (await isFocused(target)) return;
    await page.keyboard.press(key);
  }
  throw new Error(`${what}: not reached with ${MAX_PRESSES} presses of ${key}`);
}

/**
 * Keyboard only: Tab, Shift+Tab, Enter, Space, Escape and typed text, no click. The operating
 * system's file picker cannot be driven from the page, so the Import dialog's file is chosen
 * with setInputFiles; everything around it is done with keys.
 */
describe('keyboard only: sign-in with Remember this device, Manage Users and Import Users', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('signs in with the code and Remember this device ticked', async () => {
    const admin = await leastRecentlyUsedAdmin(stack);
    await page.goto(`${stack.webUrl}/admin/login`);
    await tabTo(page, page.getByLabel('Email', { exact: true }), 'the email field');
    await page.keyboard.type(admin.email);
    await tabTo(page, page.getByLabel('Password', { exact: true }), 'the password field');
    await page.keyboard.type(admin.password);
    await page.keyboard.press('Enter');

    // The code step takes the focus at its heading.
    const heading = page.getByRole('heading', { name: 'Multi-Factor Authentication' });
    await heading.waitFor({ timeout: 30_000 });
    await expect.poll(() => isFocused(heading)).toBe(true);
    await tabTo(page, page.getByLabel('Authentication Code', { exact: true }), 'the code field');
    await page.keyboard.type(await unusedTotpCode(admin.totpSecret, admin.email));
    const remember = page.getByRole('checkbox', { name: 'Remember this device' });
    await tabTo(page, remember, 'Remember this device');
    expect(await remember.isChecked()).toBe(false);
    await page.keyboard.press('Space');
    expect(await remember.isChecked()).toBe(true);
    await tabTo(page, page.getByRole('button', { name: 'Verify & Sign In', exact: true }), 'Verify & Sign In');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/admin\/users$/, { timeout: 30_000 });
  });

  it("opens a user's row menu and an action dialog, and closes it, on Manage Users", async () => {
    const email = stack.demo.user.email;
    const menuButton = page.getByRole('button', { name: `Actions for ${email}` });
    await tabTo(page, menuButton, `the row menu of ${email}`);
    await page.keyboard.press('Enter');
    // The menu opens on its first item, Edit, which opens the Edit User dialog.
    const edit = page.getByRole('menuitem', { name: 'Edit', exact: true });
    await expect.poll(() => isFocused(edit)).toBe(true);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Edit User' });
    await dialog.waitFor();
    // Focus is inside the dialog and stays there.
    await page.keyboard.press('Tab');
    expect(
      await dialog.evaluate((element) => {
        const inside = element as unknown as {
          contains(other: unknown): boolean;
          ownerDocument: { activeElement: unknown };
        };
        return inside.contains(inside.ownerDocument.activeElement);
      }),
    ).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(menuButton)).toBe(true);
  });

  it('imports a user through the Import Users dialog', async () => {
    const address = `keyboard.${Date.now()}@example.com`;
    await tabTo(page, page.getByRole('button', { name: 'Import Users' }), 'Import Users', 'Shift+Tab');
    await page.keyboard.press('Enter');
    const importing = page.getByRole('dialog', { name: 'Import Users' });
    await importing.waitFor();
    const file = importing.getByLabel('CSV file');
    // A file chosen before the catalogue is there waits for it; the preview follows.
    await tabTo(page, file, 'the CSV file field');
    await file.setInputFiles({
      name: 'keyboard.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`email,dashboards\n${address},sales-performance\n`),
    });
    await importing.getByText('keyboard.csv: 1 row').waitFor();

    await tabTo(page, importing.getByRole('button', { name: 'Import 1 user' }), 'Import 1 user');
    await page.keyboard.press('Enter');
    await importing.getByText('1 created, 0 already existed, 0 failed, 0 skipped.').waitFor({ timeout: 60_000 });
    await tabTo(page, importing.getByRole('button', { name: 'Done' }), 'Done');
    await page.keyboard.press('Enter');
    await importing.waitFor({ state: 'detached' });
    await page.locator('tbody tr', { hasText: address }).waitFor({ timeout: 30_000 });
  });
});
