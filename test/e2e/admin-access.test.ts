import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAsAdmin, signInAtAdminExpecting, storedAccessToken } from './support/auth.ts';
import { launchBrowser } from './support/browser.ts';
import { useStack } from './support/stack.ts';

const stack = useStack();
const ACCESS_DENIED = "Access denied. You don't have admin privileges.";
const otherAdmin = `second-admin-${Date.now()}@example.com`;

/** Admin calls to the local identity provider need SigV4 with any credentials, as the seed makes them. */
const cognito = new CognitoIdentityProviderClient({
  endpoint: stack.cognito.endpoint,
  region: stack.region,
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});

/** A management call made directly, without the portal's checks. */
async function callDirectly(url: string, token: string, body: object): Promise<{ status: number; error: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { error?: string };
  return { status: response.status, error: answer.error ?? '' };
}

describe('who may use the admin portal, and on whom', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
    await cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: stack.cognito.userPoolId,
        Username: otherAdmin,
        TemporaryPassword: 'SecondAdmin#2026',
        MessageAction: 'SUPPRESS',
        UserAttributes: [
          { Name: 'email', Value: otherAdmin },
          { Name: 'email_verified', Value: 'true' },
        ],
      }),
    );
    await cognito.send(new AdminAddUserToGroupCommand({ UserPoolId: stack.cognito.userPoolId, Username: otherAdmin, GroupName: 'Admins' }));
  });

  afterAll(async () => {
    await cognito.send(new AdminDeleteUserCommand({ UserPoolId: stack.cognito.userPoolId, Username: otherAdmin })).catch(() => undefined);
    cognito.destroy();
    await browser?.close();
  });

  it('a member of Users who goes to /admin gets the access-denied message and is signed out', async () => {
    const page = await browser.newPage();
    await page.goto(`${stack.webUrl}/admin`);
    await page.waitForURL(/\/admin\/login$/);
    await signInAtAdminExpecting(page, stack, stack.demo.user, ACCESS_DENIED);
    expect(await storedAccessToken(page, stack)).toBe('');
    await page.goto(`${stack.webUrl}/home`);
    await page.waitForURL(/\/login$/);
    await page.close();
  });

  it('the protections on self and other admins are disabled in the portal and refused by the server', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signInAsAdmin(page, stack);
    await page.waitForURL(/\/admin\/users$/);
    const self = stack.demo.admin.email;

    for (const [email, who] of [
      [self, 'your own account'],
      [otherAdmin, 'other admin accounts'],
    ] as const) {
      await page.getByPlaceholder('Search users...').fill(email);
      const row = page.locator('tbody tr', { hasText: email });
      await row.waitFor();
      for (const [button, verb] of [
        [`Disable ${email}`, 'disable'],
        [`Delete ${email}`, 'delete'],
        [`Reset MFA for ${email}`, 'reset MFA for'],
      ] as const) {
        const control = row.getByRole('button', { name: button });
        expect(await control.getAttribute('aria-disabled')).toBe('true');
        await control.hover();
        await page.getByRole('tooltip', { name: `Cannot ${verb} ${who}` }).waitFor();
        await control.click({ force: true });
        expect(await page.getByRole('alertdialog').count()).toBe(0);
      }
    }

    const token = await storedAccessToken(page, stack);
    const refusals = [
      [stack.functions.userAdmin, { action: 'DISABLE_USER', userEmail: self }, 'Cannot disable your own account'],
      [stack.functions.userAdmin, { action: 'DELETE_USER', userEmail: self }, 'Cannot delete your own account'],
      [stack.functions.userAdmin, { action: 'RESET_USER_MFA', userEmail: self }, 'Cannot reset MFA for your own account'],
      [stack.functions.userAdmin, { action: 'DISABLE_USER', userEmail: otherAdmin }, 'Cannot disable other admin accounts'],
      [stack.functions.userAdmin, { action: 'ENABLE_USER', userEmail: otherAdmin }, 'Cannot disable other admin accounts'],
      [stack.functions.userAdmin, { action: 'DELETE_USER', userEmail: otherAdmin }, 'Cannot delete other admin accounts'],
      [stack.functions.userAdmin, { action: 'RESET_USER_MFA', userEmail: otherAdmin }, 'Cannot reset MFA for other admin accounts'],
      [stack.functions.quicksightAdmin, { action: 'DELETE_USER', userEmail: otherAdmin }, 'Cannot delete other admin accounts'],
    ] as const;
    for (const [url, body, error] of refusals) {
      expect(await callDirectly(url, token, body)).toEqual({ status: 403, error });
    }
    await page.getByPlaceholder('Search users...').fill(otherAdmin);
    expect(await page.locator('tbody tr', { hasText: otherAdmin }).textContent()).toContain('Enabled');
    await page.close();
  });
});
