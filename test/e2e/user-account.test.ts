import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from './support/a11y.ts';
import { logOutOfPortal, type Credentials } from './support/auth.ts';
import { launchBrowser } from './support/browser.ts';
import { readMail } from './support/mail.ts';
import { useStack } from './support/stack.ts';
import { totpCode, unusedTotpCode } from './support/unused-totp-codes.ts';

const stack = useStack();
const email = `journey.user.${Date.now()}@example.com`;
const firstPassword = 'Journey#2026a';
const resetPassword = 'Journey#2026b';

/** Hosts the SPA may talk to: the local stack's own addresses. */
const localHosts = new Set(
  [
    stack.webUrl,
    stack.cognito.endpoint,
    stack.graphqlUrl,
    ...Object.values(stack.functions),
    stack.quicksight.endpoint,
  ].map((url) => new URL(url).host),
);

/** Reads the key the wizard shows and answers with a code from it, as a person with an app would. */
async function completeWizard(page: Page): Promise<string> {
  const key = page.locator('code.secret-key');
  await key.waitFor();
  const secret = (await key.innerText()).replace(/\s+/g, '');
  await page.getByLabel('Enter the 6-digit code from your app').fill(await unusedTotpCode(secret, email));
  await page.getByRole('button', { name: 'Verify & Complete Setup', exact: true }).click();
  return secret;
}

/**
 * Log out from the account menu; resolves once the sign-out has finished (the tokens are gone),
 * since a sign-in started before then is refused as "already signed in".
 */
const logOut = (page: Page) => logOutOfPortal(page, stack);

/**
 * Password and a code not used before in this run, leaving Remember this device (on the code
 * screen) clear; resolves on /home.
 */
async function signInWithCode(page: Page, credentials: Credentials) {
  await page.goto(`${stack.webUrl}/login`);
  await page.getByLabel('Username (email)', { exact: true }).fill(credentials.email);
  await page.getByLabel('Password', { exact: true }).fill(credentials.password);
  await page.getByRole('button', { name: 'Log In', exact: true }).click();
  const codeField = page.getByLabel('Authentication Code', { exact: true });
  await codeField.waitFor();
  expect(await page.getByRole('checkbox', { name: 'Remember this device' }).isChecked()).toBe(false);
  await codeField.fill(await unusedTotpCode(credentials.totpSecret, credentials.email));
  await page.getByRole('button', { name: 'Verify & Sign In', exact: true }).click();
  await page.waitForURL(/\/home$/, { timeout: 30_000 });
}

describe('a new user: sign-up, MFA, password reset', () => {
  let browser: Browser;
  let page: Page;
  let account: Credentials;

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('signs up and is asked to check the inbox', async () => {
    await page.goto(`${stack.webUrl}/login`);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL(/\/signup$/);
    await expectNoSeriousA11yViolations(page);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(firstPassword);
    await page.getByLabel('Confirm Password').fill(firstPassword);
    await page.getByRole('button', { name: 'Create Account', exact: true }).click();
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
    await expectNoSeriousA11yViolations(page);
  });

  it('confirms the account with the link in the email', async () => {
    const mail = await readMail(stack, { to: email });
    const link = /https?:\/\/\S+confirmUser\S*/.exec(mail.text)?.[0];
    expect(link).toBeDefined();
    const response = await page.goto(link!.replace(/[).,]+$/, ''));
    expect(response?.ok()).toBe(true);
  });

  it('sets up the authenticator at first sign-in without any request leaving the local stack', async () => {
    const foreign: string[] = [];
    const watch = (request: { url: () => string }) => {
      const url = new URL(request.url());
      if ((url.protocol === 'http:' || url.protocol === 'https:') && !localHosts.has(url.host)) foreign.push(url.href);
    };
    page.on('request', watch);
    await page.goto(`${stack.webUrl}/login`);
    await page.getByLabel('Username (email)', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(firstPassword);
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await page.getByRole('img', { name: /QR code to add/ }).waitFor();
    await expectNoSeriousA11yViolations(page);
    const secret = await completeWizard(page);
    await page.waitForURL(/\/home$/);
    page.off('request', watch);
    expect(foreign).toEqual([]);
    account = { email, password: firstPassword, totpSecret: secret };
    await page.getByText(/An administrator assigns dashboards/).waitFor();
    await expectNoSeriousA11yViolations(page);
  });

  it('shows the authenticator set up at first sign-in as enabled, with no Disable MFA in a pool that requires MFA', async () => {
    await page.goto(`${stack.webUrl}/mfa-settings`);
    await page.getByText('Enabled', { exact: true }).waitFor();
    await page.getByText('Software Token', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Set up a new authenticator', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Disable MFA' }).count()).toBe(0);
  });

  it('sets up a new authenticator in its own flow: afterwards the old app is refused and the new one signs in', async () => {
    await page.getByRole('button', { name: 'Set up a new authenticator', exact: true }).click();
    const flow = page.getByRole('region', { name: 'Set up a new authenticator' });
    await flow.getByRole('heading', { name: 'Step 1 of 2: Add the new key to your app' }).waitFor();
    await flow.getByText(/Your current authenticator keeps working until you verify a code from the new one/).waitFor();
    await flow.getByRole('img', { name: /QR code to add/ }).waitFor();
    const key = flow.locator('code.secret-key');
    await key.waitFor();
    const secret = (await key.innerText()).replace(/\s+/g, '');
    await expectNoSeriousA11yViolations(page);
    await flow.getByRole('button', { name: 'Next', exact: true }).click();
    await flow.getByRole('heading', { name: 'Step 2 of 2: Enter a code from the new app' }).waitFor();
    await flow.getByLabel('Code from your new authenticator app').fill(await unusedTotpCode(secret, email));
    await flow.getByRole('button', { name: 'Verify New Authenticator', exact: true }).click();
    // Back on the MFA page, which says so: not the first-sign-in wizard and its redirect.
    await page
      .getByText('New authenticator set up successfully! Codes from your previous app no longer work.')
      .waitFor();
    expect(await page.getByText('MFA Setup Complete!').count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/mfa-settings');
    await page.getByText('Enabled', { exact: true }).waitFor();
    expect(secret).not.toBe(account.totpSecret);

    // Logging out from /home: a sign-in after logging out of another page returns there.
    await page.goto(`${stack.webUrl}/home`);
    await logOut(page);
    await page.getByLabel('Username (email)', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(firstPassword);
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await page.getByLabel('Authentication Code', { exact: true }).fill(totpCode(account.totpSecret));
    await page.getByRole('button', { name: 'Verify & Sign In', exact: true }).click();
    await page.getByText('MFA verification failed. Please try again.').waitFor();
    expect(page.url()).not.toMatch(/\/home$/);

    account = { ...account, totpSecret: secret };
    await signInWithCode(page, account);
    expect(page.url()).toMatch(/\/home$/);
  });

  it('resets a forgotten password with the emailed code and signs in with the new one', async () => {
    await logOut(page);

    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(/\/change-password$/);
    await expectNoSeriousA11yViolations(page);
    const since = new Date();
    await page.getByLabel('Email Address').fill(email);
    await page.getByRole('button', { name: 'Send Verification Code', exact: true }).click();
    await page.waitForURL(/\/verify-reset-code\?email=/);
    await page
      .getByText(`An email with a verification code has been sent to ${email}. Enter the code below:`)
      .waitFor();

    const mail = await readMail(stack, { to: email, since });
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
    expect(code).toBeDefined();
    await page.getByLabel('Code', { exact: true }).fill(code!);
    await page.getByLabel('Password', { exact: true }).fill(resetPassword);
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    await page.waitForURL(/\/login$/);

    await signInWithCode(page, { ...account, password: resetPassword });
    expect(page.url()).toMatch(/\/home$/);
  });
});
