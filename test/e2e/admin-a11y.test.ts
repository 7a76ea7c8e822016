import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from './support/a11y.ts';
import { signInAsAdmin } from './support/auth.ts';
import { launchBrowser } from './support/browser.ts';
import { chooseRowAction } from './support/row-actions.ts';
import { useStack } from './support/stack.ts';

const stack = useStack();

describe('axe-core finds no serious or critical violation on the admin pages', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the public pages: login, forgot password, change password', async () => {
    await page.goto(`${stack.webUrl}/admin/login`);
    await page.getByRole('button', { name: 'Admin Login' }).waitFor();
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    await page.getByRole('button', { name: 'Send Reset Email' }).waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Send Reset Email' }).click();
    await page.getByText('Email address is required.').waitFor();
    await expectNoSeriousA11yViolations(page);

    await page.goto(`${stack.webUrl}/admin/change-password`);
    await page.getByRole('heading', { name: 'Change Password' }).waitFor();
    await expectNoSeriousA11yViolations(page);
  });

  it('user management, with its dialogs', async () => {
    await signInAsAdmin(page, stack);
    await page.waitForURL(/\/admin\/users$/);
    await page.locator('tbody tr', { hasText: stack.demo.user.email }).waitFor();
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('button', { name: 'Add New User' }).click();
    const create = page.getByRole('dialog', { name: 'Create New User' });
    await create.getByRole('button', { name: 'Create User' }).click();
    await create.getByText('Email is required').waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: `Actions for ${stack.demo.user.email}` }).click();
    await page.getByRole('menu').waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('menuitem', { name: 'Edit', exact: true }).click();
    await page.getByRole('dialog', { name: 'Edit User' }).waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.keyboard.press('Escape');

    await chooseRowAction(page, stack.demo.user.email, 'Reset MFA');
    await page.getByRole('alertdialog', { name: 'Reset MFA' }).waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.keyboard.press('Escape');

    // The import dialog with a preview holding a valid and a refused row.
    await page.getByRole('button', { name: 'Import Users' }).click();
    const importing = page.getByRole('dialog', { name: 'Import Users' });
    const file = importing.getByLabel('CSV file');
    // The file field opens once the dialog has the catalogue (a request of its own).
    await expect.poll(() => file.isEnabled(), { timeout: 15_000 }).toBe(true);
    await file.setInputFiles({
      name: 'a11y.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        'email,dashboards\na11y.preview@example.com,sales-performance\nnot-an-address,sales-performance\n',
      ),
    });
    await importing.getByText('a11y.csv: 2 rows').waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.keyboard.press('Escape');
  });

  it('the dashboards screen, with its dialogs', async () => {
    await page.getByRole('link', { name: 'Manage Dashboards' }).click();
    await page.waitForURL(/\/admin\/dashboard$/);
    await page.getByRole('heading', { level: 1, name: 'Cognito Users' }).waitFor();
    await page.locator('tbody tr', { hasText: stack.demo.user.email }).waitFor();
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('button', { name: 'Add Dashboard' }).click();
    await page.getByRole('dialog', { name: 'Add Dashboard' }).getByRole('button', { name: 'Create' }).click();
    await page.getByText('Dashboard ID is required').waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.keyboard.press('Escape');

    await chooseRowAction(page, stack.demo.user.email, 'Dashboards');
    await page
      .getByRole('dialog', { name: `Dashboards for ${stack.demo.user.email}` })
      .getByText('Default', { exact: true })
      .waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.keyboard.press('Escape');

    await chooseRowAction(page, stack.demo.user.email, 'Invite');
    const invite = page.getByRole('dialog', { name: 'Invite to Dashboard' });
    await invite.getByRole('button', { name: /^Dashboards/ }).click();
    await invite.getByPlaceholder('Search dashboards...').waitFor();
    await expectNoSeriousA11yViolations(page);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
  });

  it('the activity trail and the signed-in change password page', async () => {
    await page.getByRole('link', { name: 'Activity' }).click();
    await page.waitForURL(/\/admin\/activity$/);
    await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
    await page.getByRole('region', { name: 'Audit trail' }).waitFor();
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('link', { name: 'Change Password' }).click();
    await page.waitForURL(/\/admin\/change-password$/);
    await page.getByRole('button', { name: 'Send Reset Email' }).waitFor();
    await expectNoSeriousA11yViolations(page);
  });
});
