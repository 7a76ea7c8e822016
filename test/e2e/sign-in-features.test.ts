import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminForgetDeviceCommand, AdminListDevicesCommand } from '@aws-sdk/client-cognito-identity-provider';
import { logOutOfPortal, storedAccessToken, type Credentials } from './support/auth.ts';
import { launchBrowser } from './support/browser.ts';
import { signInWithSrp } from './support/cognito-session.ts';
import { readMail } from './support/mail.ts';
import { stackPool, useStack } from './support/stack.ts';
import { leastRecentlyUsedAdmin, unusedTotpCode } from './support/unused-totp-codes.ts';

/**
 * The sign-in features of the user-portal spec that local mode turns on: the automatic sign-in
 * after sign-up, and remembered devices (tracked "only on user prompt": the Remember this
 * device box of the code screen). A session lives as long as its device: forgetting it, here or
 * elsewhere, signs that browser out with a message (docs/features.md, "Remembered devices").
 */

const stack = useStack();
/** What the sign-in page says after this browser's device was forgotten, here or elsewhere. */
const FORGOT_THIS_DEVICE =
  'You forgot this device, so this browser was signed out. Sign in again: a code from your authenticator app will be asked.';
const DEVICE_FORGOTTEN_ELSEWHERE =
  'You were signed out because this browser was forgotten from your account, from another device or by an administrator. Please sign in again.';
const email = `remembered.${Date.now()}@example.com`;
const password = 'Remember#2026';

async function completeWizard(page: Page): Promise<string> {
  const key = page.locator('code.secret-key');
  await key.waitFor({ timeout: 20_000 });
  const secret = (await key.innerText()).replace(/\s+/g, '');
  await page.getByLabel('Enter the 6-digit code from your app').fill(await unusedTotpCode(secret, email));
  await page.getByRole('button', { name: 'Verify & Complete Setup', exact: true }).click();
  return secret;
}

const logOut = (page: Page) => logOutOfPortal(page, stack);

/** A sign-in with a code that ticks Remember this device on the code screen; resolves on /home. */
async function signInRemembering(page: Page, account: Credentials) {
  await submitPassword(page);
  const codeField = page.getByLabel('Authentication Code', { exact: true });
  await codeField.waitFor({ timeout: 20_000 });
  const remember = page.getByRole('checkbox', { name: 'Remember this device' });
  expect(await remember.isChecked()).toBe(false);
  await remember.check();
  await codeField.fill(await unusedTotpCode(account.totpSecret, account.email));
  await page.getByRole('button', { name: 'Verify & Sign In', exact: true }).click();
  await page.waitForURL(/\/home$/, { timeout: 15_000 });
}

async function submitPassword(page: Page) {
  await page.goto(`${stack.webUrl}/login`);
  await page.getByLabel('Username (email)', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In', exact: true }).click();
}

describe('auto sign-in after sign-up, then remembered devices', () => {
  let browser: Browser;
  let page: Page;
  let account: Credentials;

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('continues from the check-your-email page into MFA setup once the link is clicked elsewhere', async () => {
    await page.goto(`${stack.webUrl}/signup`);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm Password').fill(password);
    await page.getByRole('button', { name: 'Create Account', exact: true }).click();
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();

    // The link is opened in another browser context, as from a mail app.
    const mail = await readMail(stack, { to: email });
    const link = /https?:\/\/\S+confirmUser\S*/.exec(mail.text)?.[0]?.replace(/[).,]+$/, '');
    expect(link).toBeDefined();
    const elsewhere = await browser.newContext();
    expect((await (await elsewhere.newPage()).goto(link!))?.ok()).toBe(true);
    await elsewhere.close();

    // The first tab signs in by itself and shows the wizard, then step 3, then the dashboard.
    const secret = await completeWizard(page);
    await page.getByText('MFA Setup Complete!').waitFor();
    await page.waitForURL(/\/home$/, { timeout: 15_000 });
    account = { email, password, totpSecret: secret };
  });

  it('remembers the device ticked on the code screen; the next sign-in asks for the password only', async () => {
    await logOut(page);
    await signInRemembering(page, account);
    await logOut(page);
    await submitPassword(page);
    await page.waitForURL(/\/home$/, { timeout: 15_000 });
  });

  it('lists the device on the MFA page by browser and system; once it is forgotten, the code is asked again', async () => {
    await page.goto(`${stack.webUrl}/mfa-settings`);
    const list = page.getByRole('list', { name: 'Remembered devices' });
    await list.getByText('(this device)').waitFor();
    expect(await list.getByRole('listitem').count()).toBe(1);
    // Named by browser and system, with the reported user agent in full on hover.
    const name = list.getByText(/^Chrome.* on Linux$/);
    expect(await name.getAttribute('title')).toBe(await page.evaluate<string>('navigator.userAgent'));
    await list.getByText(/Last used .*\d{4}/).waitFor();
    // Forgetting this browser's own device warns, then signs this browser out: its session was
    // bound to the device and can no longer be refreshed.
    await page.getByRole('button', { name: 'Forget this device', exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Forget this device?' });
    await dialog.getByText('This browser will be signed out at once.', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Forget and sign out', exact: true }).click();
    await page.waitForURL(/\/login$/, { timeout: 15_000 });
    await page.getByText(FORGOT_THIS_DEVICE).waitFor();
    await expect.poll(() => storedAccessToken(page, stack), { timeout: 10_000 }).toBe('');
    // A new visit (the sign-in page would otherwise return to the MFA page it came from).
    await page.goto(`${stack.webUrl}/home`);
    await page.waitForURL(/\/login$/);
    await submitPassword(page);
    await page.getByLabel('Authentication Code', { exact: true }).waitFor();
  });

  it("forgets the user's devices when an administrator resets their MFA", async () => {
    await signInRemembering(page, account);
    await logOut(page);
    const admin = await signInWithSrp(stack, await leastRecentlyUsedAdmin(stack));
    const response = await fetch(stack.functions.userAdmin, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'RESET_USER_MFA', userEmail: email }),
    });
    expect(response.status).toBe(200);
    // A new authenticator is set up, and no device of before is remembered any more.
    await submitPassword(page);
    await completeWizard(page);
    await page.waitForURL(/\/home$/, { timeout: 15_000 });
    await page.goto(`${stack.webUrl}/mfa-settings`);
    await page.getByText(/No device is remembered/).waitFor();
  });

  it('signs this browser out with a message once its device is forgotten elsewhere: the next refresh is refused', async () => {
    // This browser's sign-in confirmed a device (not remembered); an administrator forgets it.
    const cognito = stackPool(stack).client;
    try {
      const poolAndUser = { UserPoolId: stack.cognito.userPoolId, Username: email };
      const { Devices = [] } = await cognito.send(new AdminListDevicesCommand(poolAndUser));
      expect(Devices).toHaveLength(1);
      await cognito.send(new AdminForgetDeviceCommand({ ...poolAndUser, DeviceKey: Devices[0]!.DeviceKey! }));
    } finally {
      cognito.destroy();
    }
    // The tokens are made to look expired (the library's clock drift), so the reload refreshes.
    await page.evaluate((clientId) => {
      const storage = (
        globalThis as unknown as {
          localStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
        }
      ).localStorage;
      const prefix = `CognitoIdentityServiceProvider.${clientId}`;
      storage.setItem(`${prefix}.${storage.getItem(`${prefix}.LastAuthUser`)}.clockDrift`, '-3600');
    }, stack.cognito.clientId);
    await page.reload();
    await page.waitForURL(/\/login$/, { timeout: 20_000 });
    await page.getByText(DEVICE_FORGOTTEN_ELSEWHERE).waitFor();
    expect(await storedAccessToken(page, stack)).toBe('');
  });
});
