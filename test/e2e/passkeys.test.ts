import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoAccount } from '#clients/local-stack.ts';
import {
  NO_PASSKEY_MESSAGE,
  PASSKEY_ADDED_MESSAGE,
  PASSKEY_ERRORS,
  PASSKEY_REMOVED_MESSAGE,
} from '#contracts/passkeys.ts';
import { logOutOfPortal, signInAsUser } from './support/auth.ts';
import { launchBrowser } from './support/browser.ts';
import { createEnrolledAccount } from './support/enrolled-account.ts';
import { signInWithSrp } from './support/cognito-session.ts';
import { addPasskeyWithToken, addVirtualAuthenticator } from './support/passkeys.ts';
import { stackPool, useStack } from './support/stack.ts';
import { leastRecentlyUsedAdmin, noteTotpUsed, unusedTotpCode } from './support/unused-totp-codes.ts';

/**
 * Passkeys that satisfy the required MFA, in Chromium with its virtual authenticator (the
 * DevTools WebAuthn domain): one added after a fresh authenticator code signs in with the email
 * and one gesture, no code; one whose key does not verify the user does not get in; a removed one
 * is refused; an administrator's Reset MFA takes passkeys out of the account's MFA.
 */

const stack = useStack();
const FRAME = 'iframe[title="QuickSight Analytics Dashboard"]';
const STEP_MS = 30_000;

/** The step-up the MFA page asks for before a passkey is added or removed: password and a fresh code. */
async function confirmIdentity(page: Page, account: DemoAccount): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await dialog.waitFor({ timeout: STEP_MS });
  await dialog.getByLabel('Password', { exact: true }).fill(account.password);
  await dialog
    .getByLabel('Authentication Code', { exact: true })
    .fill(await unusedTotpCode(account.totpSecret, account.email));
  await dialog.getByRole('button', { name: 'Confirm', exact: true }).click();
}

async function addPasskey(page: Page, account: DemoAccount): Promise<void> {
  await page.goto(`${stack.webUrl}/mfa-settings`);
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await confirmIdentity(page, account);
  await page.getByText(PASSKEY_ADDED_MESSAGE).first().waitFor({ timeout: STEP_MS });
}

/** The sign-in page with only the email, then *Sign in with a passkey*. */
async function startPasskeySignIn(page: Page, email: string): Promise<void> {
  await page.goto(`${stack.webUrl}/login`);
  await page.getByLabel('Username (email)', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
}

// First: the account whose codes this file then uses (the demo user) is not the one signed in
// here, so its last code, at the stack's start, is a step or more behind by the time it signs in.
describe("an administrator's Reset MFA and a user's passkey", () => {
  let browser: Browser;
  let page: Page;
  /** The access token of the account's first sign-in (its authenticator set-up). */
  let signInToken = '';
  const account: DemoAccount = {
    email: `passkey.reset.${Date.now()}@example.com`,
    password: 'Passkey#2026',
    totpSecret: '',
  };

  beforeAll(async () => {
    const pool = stackPool(stack);
    try {
      const enrolled = await createEnrolledAccount(pool, { ...account, groups: ['Users'] }, 'Passkey journey');
      account.totpSecret = enrolled.secret;
      signInToken = enrolled.accessToken;
      await noteTotpUsed(account.totpSecret, account.email);
    } finally {
      pool.client.destroy();
    }
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await addVirtualAuthenticator(page);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the passkey among the factors, and after the reset the passkey leads to a new authenticator, not in', async () => {
    // The MFA page's Add a passkey is the journey above; here the set-up's fresh token adds one.
    await page.goto(`${stack.webUrl}/login`);
    await addPasskeyWithToken(page, stack.functions.mfa, signInToken);

    const admin = await signInWithSrp(stack, await leastRecentlyUsedAdmin(stack));
    const callUserAdmin = async (body: object) => {
      const response = await fetch(stack.functions.userAdmin, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const before = await callUserAdmin({ action: 'GET_USER_FACTORS', userEmail: account.email });
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ authenticator: true, passkeyMfa: true });
    expect(before.body.passkeys).toHaveLength(1);

    expect((await callUserAdmin({ action: 'RESET_USER_MFA', userEmail: account.email })).status).toBe(200);
    const after = await callUserAdmin({ action: 'GET_USER_FACTORS', userEmail: account.email });
    expect(after.body).toMatchObject({ authenticator: false, passkeyMfa: false, passkeys: [] });

    // Signed out everywhere; the passkey is no longer a second factor: a new authenticator first.
    await startPasskeySignIn(page, account.email);
    const key = page.locator('code.secret-key');
    await key.waitFor({ timeout: STEP_MS });
    expect(page.url()).toMatch(/\/login$/);
    const secret = (await key.innerText()).replace(/\s+/g, '');
    // The first code of a new authenticator: the identity provider checks a code's step against the
    // authenticator that made it, so this one need not wait for a step after the enrolment's.
    await page.getByLabel('Enter the 6-digit code from your app').fill(await unusedTotpCode(secret));
    await page.getByRole('button', { name: 'Verify & Complete Setup', exact: true }).click();
    await page.waitForURL(/\/home(\?|$)/, { timeout: STEP_MS });

    // The passkey of before the reset is deleted from the identity provider at the first look.
    await page.goto(`${stack.webUrl}/mfa-settings`);
    await page.getByRole('region', { name: 'Passkeys' }).getByText('No passkeys yet.').waitFor({ timeout: STEP_MS });
  });
});

describe('a passkey as the second factor, then as the only gesture', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  let authenticatorId: string;
  const demo = stack.demo.user;

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    ({ cdp, authenticatorId } = await addVirtualAuthenticator(page));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('adds a passkey on the MFA page after the password and a fresh authenticator code', async () => {
    await signInAsUser(page, stack, demo);
    await addPasskey(page, demo);
    const card = page.getByRole('region', { name: 'Passkeys' });
    await expect(card.getByText('Not used yet').count()).resolves.toBe(1);
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]?.rpId).toBe('localhost');
  });

  it('signs in with the email and the passkey alone, and the dashboard loads without a code', async () => {
    // Logged out from /home, the next sign-in lands there.
    await page.goto(`${stack.webUrl}/home`);
    await logOutOfPortal(page, stack);
    await startPasskeySignIn(page, demo.email);
    await page.waitForURL(/\/home(\?|$)/, { timeout: STEP_MS });
    expect(await page.getByLabel('Authentication Code', { exact: true }).count()).toBe(0);
    await page.frameLocator(FRAME).locator('body').getByText(/\S/).first().waitFor({ timeout: STEP_MS });
    await page.goto(`${stack.webUrl}/mfa-settings`);
    const card = page.getByRole('region', { name: 'Passkeys' });
    await card.getByText(/Last used/).waitFor({ timeout: STEP_MS });
  });

  it('does not let a key that cannot verify the user in', async () => {
    await logOutOfPortal(page, stack);
    await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: false });
    try {
      await startPasskeySignIn(page, demo.email);
      await page.getByRole('alert').getByText(PASSKEY_ERRORS.canceled).waitFor({ timeout: STEP_MS });
      expect(page.url()).toMatch(/\/login$/);
    } finally {
      await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: true });
    }
  });

  it('removes the passkey after a fresh code, and a sign-in with it is refused afterwards', async () => {
    await startPasskeySignIn(page, demo.email);
    await page.waitForURL((url) => !url.pathname.endsWith('/login'), { timeout: STEP_MS });
    await page.goto(`${stack.webUrl}/mfa-settings`);
    const card = page.getByRole('region', { name: 'Passkeys' });
    await card
      .getByRole('button', { name: /^Remove/ })
      .first()
      .click();
    await page
      .getByRole('alertdialog', { name: 'Remove passkey?' })
      .getByRole('button', { name: /^Remove/ })
      .click();
    await confirmIdentity(page, demo);
    await page.getByText(PASSKEY_REMOVED_MESSAGE).first().waitFor({ timeout: STEP_MS });
    await card.getByText('No passkeys yet.').waitFor();

    await logOutOfPortal(page, stack);
    await startPasskeySignIn(page, demo.email);
    await page.getByRole('alert').getByText(NO_PASSKEY_MESSAGE).waitFor({ timeout: STEP_MS });
    expect(page.url()).toMatch(/\/login$/);
  });
});
