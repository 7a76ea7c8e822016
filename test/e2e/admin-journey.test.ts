import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardLink, SAMPLE_DASHBOARDS } from '#emulators/quicksight/index.ts';
import { expectNoSeriousA11yViolations } from './support/a11y.ts';
import { RESET_MFA_MESSAGE } from '#contracts/user-admin.ts';
import { signInAsAdmin, signInAsUser, storedAccessToken } from './support/auth.ts';
import { launchBrowser } from './support/browser.ts';
import { chooseRowAction } from './support/row-actions.ts';
import { useStack } from './support/stack.ts';
import { unusedTotpCode } from './support/unused-totp-codes.ts';

const stack = useStack();
const FRAME = 'iframe[title="QuickSight Analytics Dashboard"]';
/** Stays assigned to the user throughout (the demo user has it too, so it is never changed). */
const STAYING = SAMPLE_DASHBOARDS[0]!;
/** Becomes the default, is renamed, deleted and added back (no seeded account has it). */
const MOVING = SAMPLE_DASHBOARDS[2]!;
/** A company local mode seeds: the new user belongs to it from the start. */
const COMPANY = 'Northwind Manufacturing';
const RENAMED = `${MOVING.name} Q3`;
const VIEWPORT = { width: 1440, height: 900 };

const person = { email: `journey-${Date.now()}@example.com`, password: 'Journey#2026a' };
/** The key of the user's current authenticator, read from the setup wizard. */
let personSecret = '';

async function callFunction(url: string, token: string, body: object): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** Credentials on the user portal's /login. */
async function submitUserCredentials(page: Page): Promise<void> {
  await page.goto(`${stack.webUrl}/login`);
  await page.getByLabel('Username (email)', { exact: true }).fill(person.email);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByRole('button', { name: 'Log In', exact: true }).click();
}

/** The setup wizard as a person with an authenticator app goes through it; returns the key. */
async function completeMfaSetup(page: Page): Promise<string> {
  const key = page.getByLabel('Manual entry key');
  await key.waitFor();
  const secret = (await key.textContent())!.replace(/\s+/g, '');
  await page.getByLabel('Enter the 6-digit code from your app').fill(await unusedTotpCode(secret));
  await page.getByRole('button', { name: 'Verify & Complete Setup' }).click();
  await page.waitForURL(/\/home$/);
  return secret;
}

async function selectedViewName(page: Page): Promise<string> {
  return page.getByLabel('Select Dashboard').evaluate((select) => {
    const element = select as unknown as { selectedOptions: { text: string }[] };
    return element.selectedOptions[0]?.text ?? '';
  });
}

async function viewNames(page: Page): Promise<string[]> {
  await page.reload();
  await page.getByLabel('Select Dashboard').waitFor();
  return page.getByLabel('Select Dashboard').locator('option').allTextContents();
}

async function frameShows(page: Page, name: string): Promise<void> {
  await page.frameLocator(FRAME).getByText(name, { exact: false }).first().waitFor({ timeout: 30_000 });
}

/** Narrows an admin table to the one account, so its row is rendered. */
async function findRow(page: Page, email: string) {
  await page.getByPlaceholder('Search users...').fill(email);
  const row = page.locator('tbody tr', { hasText: email });
  await row.waitFor();
  return row;
}

async function toast(page: Page, text: string): Promise<void> {
  await page.getByText(text, { exact: true }).first().waitFor();
}

describe('an administrator manages an account and its dashboards, and the user sees each change', () => {
  let browser: Browser;
  let adminContext: BrowserContext;
  let admin: Page;
  let userContext: BrowserContext;
  let user: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    adminContext = await browser.newContext({ viewport: VIEWPORT });
    admin = await adminContext.newPage();
    userContext = await browser.newContext({ viewport: VIEWPORT });
    user = await userContext.newPage();
  });

  afterAll(async () => {
    // Whatever happened above, leave the seeded catalogue as it was and remove the account.
    const token = admin ? await storedAccessToken(admin, stack).catch(() => '') : '';
    if (token) {
      const listed = (await (
        await callFunction(stack.functions.quicksightAdmin, token, { action: 'LIST_DASHBOARD_METADATA' })
      ).json()) as {
        dashboards: { dashboardId: string }[];
      };
      if (!listed.dashboards.some((d) => d.dashboardId === MOVING.dashboardId)) {
        await callFunction(stack.functions.quicksightAdmin, token, {
          action: 'CREATE_DASHBOARD_METADATA',
          dashboardId: MOVING.dashboardId,
          dashboardName: MOVING.name,
          dashboardLink: dashboardLink(stack.quicksight.endpoint, MOVING.dashboardId),
          description: MOVING.description,
        });
      }
      await callFunction(stack.functions.userAdmin, token, { action: 'DELETE_USER', userEmail: person.email });
    }
    await browser?.close();
  });

  it('the admin signs in with the authenticator code and creates the user', async () => {
    await signInAsAdmin(admin, stack);
    await admin.waitForURL(/\/admin\/users$/);
    await admin.getByRole('heading', { level: 1, name: 'User Management' }).waitFor();
    await admin.getByRole('button', { name: 'Add New User' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Create New User' });
    await dialog.getByLabel('Email', { exact: true }).fill(person.email);
    await dialog.getByLabel(/Set a password now/).check();
    await dialog.getByLabel('Password', { exact: true }).fill(person.password);
    await dialog.getByLabel('Company', { exact: true }).selectOption({ label: COMPANY });
    await dialog.getByRole('button', { name: 'Create User' }).click();
    await toast(admin, 'User created successfully');
    // The list reloads after the toast; the row is read once it holds the new company.
    const row = (await findRow(admin, person.email)).filter({ hasText: COMPANY });
    await row.waitFor();
    expect(await row.textContent()).toContain('Enabled');
    expect(await row.textContent()).toContain('Users');
    expect(await row.textContent()).toContain(COMPANY);
  });

  it('registers the user in QuickSight and invites two dashboards, one as default', async () => {
    await admin.getByRole('link', { name: 'Manage Dashboards' }).click();
    await admin.waitForURL(/\/admin\/dashboard$/);
    await admin.getByRole('heading', { level: 1, name: 'Cognito Users' }).waitFor();
    // The catalogue above the users (with each dashboard's scope) has loaded: the rows no longer move.
    await admin
      .locator('li.catalogue-card')
      .first()
      .getByText(/Company-scoped|Not scoped|Scope unknown/)
      .waitFor();
    const row = await findRow(admin, person.email);
    expect(await row.textContent()).toContain('Not Registered');
    await chooseRowAction(admin, person.email, 'Register User');
    await row.getByText('Registered', { exact: true }).waitFor();
    expect(await row.textContent()).toContain('READER');

    await chooseRowAction(admin, person.email, 'Invite');
    const dialog = admin.getByRole('dialog', { name: 'Invite to Dashboard' });
    // The assignment's company comes from the company model: shown, not typed.
    expect(await dialog.getByRole('definition').first().textContent()).toBe(COMPANY);
    await dialog.getByRole('button', { name: /^Dashboards/ }).click();
    await dialog.getByText(`4 of 4`).waitFor();
    await dialog.getByLabel(new RegExp(STAYING.name)).check();
    await dialog.getByLabel(new RegExp(MOVING.name)).check();
    await dialog.getByRole('button', { name: 'Done (2 selected)' }).click();
    await dialog.getByRole('radio', { name: new RegExp(`Set as Default \\(${STAYING.name}\\)`) }).check();
    await expectNoSeriousA11yViolations(admin);
    await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
    await toast(admin, 'Successfully assigned 2 dashboard(s)');
    expect(await dialog.isVisible()).toBe(false);
  });

  it('the user signs in, sets up MFA and sees the default dashboard', async () => {
    await submitUserCredentials(user);
    await user.getByRole('heading', { name: 'Set Up Multi-Factor Authentication' }).waitFor();
    personSecret = await completeMfaSetup(user);
    await user.getByLabel('Select Dashboard').waitFor();
    expect(await selectedViewName(user)).toBe(STAYING.name);
    await frameShows(user, STAYING.name);
  });

  it("the admin makes the other dashboard the default and the user's refresh shows it", async () => {
    await findRow(admin, person.email);
    await chooseRowAction(admin, person.email, 'Dashboards');
    const panel = admin.getByRole('dialog', { name: `Dashboards for ${person.email}` });
    await panel.getByText(`Company: ${COMPANY}`).first().waitFor();
    await expectNoSeriousA11yViolations(admin);
    await panel.getByRole('button', { name: `Set Default (${MOVING.name})` }).click();
    await admin
      .getByRole('alertdialog', { name: 'Set Default Dashboard' })
      .getByRole('button', { name: 'Set Default' })
      .click();
    await panel.getByRole('button', { name: `Set Default (${STAYING.name})` }).waitFor();
    await panel.getByRole('button', { name: 'Close' }).click();

    await user.getByRole('button', { name: 'Refresh', exact: true }).click();
    await expect.poll(() => selectedViewName(user), { timeout: 15_000 }).toBe(MOVING.name);
    await frameShows(user, MOVING.name);
  });

  it("the admin renames the catalogue entry and the user's dropdown shows the new name", async () => {
    await chooseRowAction(admin, `dashboard ${MOVING.name}`, 'Edit');
    const dialog = admin.getByRole('dialog', { name: 'Edit Dashboard' });
    await dialog.getByLabel('Dashboard Name').fill(RENAMED);
    await dialog.getByRole('button', { name: 'Update' }).click();
    await toast(admin, 'Dashboard updated successfully! Updated for 1 user(s).');
    expect(await viewNames(user)).toContain(RENAMED);
  });

  it('deleting the dashboard removes it from the user', async () => {
    await chooseRowAction(admin, `dashboard ${RENAMED}`, 'Delete');
    const confirm = admin.getByRole('alertdialog', { name: 'Delete Dashboard' });
    await confirm.getByText('It is also removed from every user who has it.', { exact: false }).waitFor();
    await confirm.getByRole('listitem').filter({ hasText: person.email }).waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast(admin, 'Dashboard deleted successfully');
    expect(await viewNames(user)).toEqual([STAYING.name]);
    await frameShows(user, STAYING.name);
  });

  it('the admin adds the dashboard back to the catalogue', async () => {
    await admin.getByRole('button', { name: 'Add Dashboard' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Add Dashboard' });
    await dialog.getByLabel('Dashboard ID').fill(STAYING.dashboardId.toUpperCase());
    await dialog.getByText('This dashboard ID already exists. Please use a different ID.').waitFor();
    expect(await dialog.getByRole('button', { name: 'Create' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Dashboard ID').fill(MOVING.dashboardId);
    await dialog.getByLabel('Dashboard Name').fill(MOVING.name);
    await dialog.getByLabel('Dashboard Link').fill(dashboardLink(stack.quicksight.endpoint, MOVING.dashboardId));
    await dialog.getByLabel('Description (optional)').fill(MOVING.description);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await toast(admin, 'Dashboard created successfully');
    await admin.getByRole('button', { name: `Actions for dashboard ${MOVING.name}` }).waitFor();
  });

  it("disabling the user refuses their next call, and their sign-in fails with the spec's message", async () => {
    await admin.getByRole('link', { name: 'Manage Users' }).click();
    await admin.waitForURL(/\/admin\/users$/);
    await admin.getByRole('heading', { level: 1, name: 'User Management' }).waitFor();
    const row = await findRow(admin, person.email);
    await chooseRowAction(admin, person.email, 'Disable');
    await row.getByText('Disabled', { exact: true }).waitFor();

    const refused = user.waitForResponse(
      (response) => response.url().startsWith(stack.functions.embed) && response.request().method() === 'GET',
    );
    await user.getByRole('button', { name: 'Refresh', exact: true }).click();
    expect((await refused).status()).toBe(401);
    await user.getByText('Error Loading Dashboard').waitFor();

    const fresh = await browser.newPage();
    await submitUserCredentials(fresh);
    await fresh.getByText('Your account has been disabled. Please contact your administrator.').waitFor();
    await fresh.close();
  });

  it('enable, then reset MFA: the user is signed out everywhere and the next sign-in sets up a new authenticator', async () => {
    const row = await findRow(admin, person.email);
    await chooseRowAction(admin, person.email, 'Enable');
    await row.getByText('Enabled', { exact: true }).waitFor();

    const before = await browser.newPage();
    await signInAsUser(before, stack, { ...person, totpSecret: personSecret });
    const token = await storedAccessToken(before, stack);
    expect((await callFunction(stack.functions.mfa, token, { action: 'GET_MFA_STATUS' })).status).toBe(200);

    await chooseRowAction(admin, person.email, 'Reset MFA');
    const dialog = admin.getByRole('alertdialog', { name: 'Reset MFA' });
    await dialog.getByText(/signed out everywhere/).waitFor();
    await dialog.getByRole('button', { name: 'Reset MFA' }).click();
    await toast(admin, RESET_MFA_MESSAGE);

    const signedOut = await callFunction(stack.functions.mfa, token, { action: 'GET_MFA_STATUS' });
    expect(signedOut.status).toBe(401);
    await before.close();

    const fresh = await browser.newPage();
    await submitUserCredentials(fresh);
    await fresh.getByRole('heading', { name: 'Set Up Multi-Factor Authentication' }).waitFor();
    expect(await completeMfaSetup(fresh)).not.toBe(personSecret);
    expect(await selectedViewName(fresh)).toBe(STAYING.name);
    await fresh.goto(`${stack.webUrl}/mfa-settings`);
    await fresh.getByText('Enabled', { exact: true }).waitFor();
    await fresh.close();
  });

  it('the admin deletes the user', async () => {
    await findRow(admin, person.email);
    await chooseRowAction(admin, person.email, 'Delete');
    await admin.getByRole('alertdialog', { name: 'Delete User' }).getByRole('button', { name: 'Delete' }).click();
    await toast(admin, `User ${person.email} deleted successfully`);
    await admin.getByText('No users found matching your search').waitFor();

    const fresh = await browser.newPage();
    await submitUserCredentials(fresh);
    await fresh.getByText('Incorrect username or password.').waitFor();
    await fresh.close();
  });
});
