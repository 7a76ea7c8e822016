import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminListGroupsForUserCommand,
  AdminRemoveUserFromGroupCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAccount, signInWithAuthenticator } from '#clients/cognito.ts';
import { signInAsAdmin, signInAtAdminExpecting, storedAccessToken } from './support/auth.ts';
import { launchBrowser } from './support/browser.ts';
import { chooseRowAction, rowActionItem } from './support/row-actions.ts';
import { stackPool, useStack } from './support/stack.ts';

const stack = useStack();
const ACCESS_DENIED = "Access denied. You don't have admin privileges.";
const otherAdmin = `second-admin-${Date.now()}@example.com`;
const demotedAdmin = `demoted-admin-${Date.now()}@example.com`;
const promotedUser = `promoted-user-${Date.now()}@example.com`;

/** Admin calls to the local identity provider, signed with the local administrator credentials. */
const pool = stackPool(stack);
const cognito = pool.client;

/** A GraphQL request as the SPA sends it (AppSync takes the bare access token). */
async function graphqlErrors(token: string, query: string): Promise<string[]> {
  const response = await fetch(stack.graphqlUrl, {
    method: 'POST',
    headers: { authorization: token, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  const answer = (await response.json()) as { errors?: { message: string }[] };
  return (answer.errors ?? []).map((error) => error.message);
}

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
    await cognito.send(
      new AdminAddUserToGroupCommand({
        UserPoolId: stack.cognito.userPoolId,
        Username: otherAdmin,
        GroupName: 'Admins',
      }),
    );
  });

  afterAll(async () => {
    for (const email of [otherAdmin, demotedAdmin, promotedUser]) {
      await cognito
        .send(new AdminDeleteUserCommand({ UserPoolId: stack.cognito.userPoolId, Username: email }))
        .catch(() => undefined);
    }
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
    const self = (await signInAsAdmin(page, stack)).email;
    await page.waitForURL(/\/admin\/users$/);

    for (const [email, who] of [
      [self, 'your own account'],
      [otherAdmin, 'other admin accounts'],
    ] as const) {
      await page.getByPlaceholder('Search users...').fill(email);
      const row = page.locator('tbody tr', { hasText: email });
      await row.waitFor();
      const editReason =
        email === self
          ? 'Cannot change the password or email of your own account'
          : 'Cannot update other admin accounts';
      for (const [item, reason] of [
        ['Edit', editReason],
        ['Disable', `Cannot disable ${who}`],
        ['Delete', `Cannot delete ${who}`],
        ['Reset MFA', `Cannot reset MFA for ${who}`],
      ] as const) {
        // Disabled in the row's menu, with the reason under it; choosing it does nothing.
        const control = await rowActionItem(page, email, item);
        expect(await control.getAttribute('aria-disabled')).toBe('true');
        expect(await control.textContent()).toContain(reason);
        await control.click({ force: true });
        expect(await page.getByRole('alertdialog').count()).toBe(0);
        expect(await page.getByRole('dialog').count()).toBe(0);
        await page.keyboard.press('Escape');
      }
    }

    const token = await storedAccessToken(page, stack);
    const refusals = [
      [
        stack.functions.userAdmin,
        { action: 'UPDATE_USER', userEmail: self, newPassword: 'Hijacked#2026' },
        'Cannot change the password or email of your own account',
      ],
      [
        stack.functions.userAdmin,
        { action: 'UPDATE_USER', userEmail: self, newEmail: 'hijack@example.com' },
        'Cannot change the password or email of your own account',
      ],
      [
        stack.functions.userAdmin,
        { action: 'UPDATE_USER', userEmail: otherAdmin, newPassword: 'Hijacked#2026' },
        'Cannot update other admin accounts',
      ],
      [
        stack.functions.userAdmin,
        { action: 'UPDATE_USER', userEmail: otherAdmin, newEmail: 'hijack@example.com' },
        'Cannot update other admin accounts',
      ],
      [stack.functions.userAdmin, { action: 'DISABLE_USER', userEmail: self }, 'Cannot disable your own account'],
      [stack.functions.userAdmin, { action: 'DELETE_USER', userEmail: self }, 'Cannot delete your own account'],
      [
        stack.functions.userAdmin,
        { action: 'RESET_USER_MFA', userEmail: self },
        'Cannot reset MFA for your own account',
      ],
      [
        stack.functions.userAdmin,
        { action: 'DISABLE_USER', userEmail: otherAdmin },
        'Cannot disable other admin accounts',
      ],
      [
        stack.functions.userAdmin,
        { action: 'ENABLE_USER', userEmail: otherAdmin },
        'Cannot disable other admin accounts',
      ],
      [
        stack.functions.userAdmin,
        { action: 'DELETE_USER', userEmail: otherAdmin },
        'Cannot delete other admin accounts',
      ],
      [
        stack.functions.userAdmin,
        { action: 'RESET_USER_MFA', userEmail: otherAdmin },
        'Cannot reset MFA for other admin accounts',
      ],
      [
        stack.functions.quicksightAdmin,
        { action: 'DELETE_USER', userEmail: otherAdmin },
        'Cannot delete other admin accounts',
      ],
    ] as const;
    for (const [url, body, error] of refusals) {
      expect(await callDirectly(url, token, body)).toEqual({ status: 403, error });
    }
    await page.getByPlaceholder('Search users...').fill(otherAdmin);
    expect(await page.locator('tbody tr', { hasText: otherAdmin }).textContent()).toContain('Enabled');
    await page.close();
  });

  it('an admin removed from Admins in Cognito is refused at once, with the token that still claims the group', async () => {
    await ensureAccount(pool, { email: demotedAdmin, password: 'Demoted#Admin2026', group: 'Users' });
    await cognito.send(
      new AdminAddUserToGroupCommand({
        UserPoolId: stack.cognito.userPoolId,
        Username: demotedAdmin,
        GroupName: 'Admins',
      }),
    );
    const token = await signInWithAuthenticator(pool, {
      email: demotedAdmin,
      password: 'Demoted#Admin2026',
      group: 'Users',
    });
    const listing = { action: 'GET_AUDIT_LOG', limit: 1 };
    expect((await callDirectly(stack.functions.userAdmin, token, listing)).status).toBe(200);

    await cognito.send(
      new AdminRemoveUserFromGroupCommand({
        UserPoolId: stack.cognito.userPoolId,
        Username: demotedAdmin,
        GroupName: 'Admins',
      }),
    );
    expect(await callDirectly(stack.functions.userAdmin, token, listing)).toEqual({
      status: 403,
      error: ACCESS_DENIED,
    });
    expect(await callDirectly(stack.functions.quicksightAdmin, token, { action: 'LIST_DASHBOARD_METADATA' })).toEqual({
      status: 403,
      error: ACCESS_DENIED,
    });
    const create = `mutation { createDashboardMetadata(input: { dashboardId: "demoted-${Date.now()}", dashboardName: "X", dashboardLink: "https://bi.example.com/x" }) { id } }`;
    expect(await graphqlErrors(token, create)).toEqual([ACCESS_DENIED]);
    // Still a member of Users: the portal's own pages keep working for them.
    expect(await graphqlErrors(token, '{ listTableauViews { items { id } } }')).toEqual([]);
  });

  it('Make Admin promotes a user after a confirmation, and an admin-set password ends their sessions', async () => {
    await ensureAccount(pool, { email: promotedUser, password: 'Promoted#User2026', group: 'Users' });
    const userToken = await signInWithAuthenticator(pool, {
      email: promotedUser,
      password: 'Promoted#User2026',
      group: 'Users',
    });
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signInAsAdmin(page, stack);
    await page.waitForURL(/\/admin\/users$/);
    // The account was made in Cognito, outside the portal: the list reads the portal's copy of
    // the directory, and Refresh lists the pool in full, bringing it in (docs/capacity.md).
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await page.getByPlaceholder('Search users...').fill(promotedUser);
    await page.locator('tbody tr', { hasText: promotedUser }).waitFor();
    await chooseRowAction(page, promotedUser, 'Make Admin');
    await page.getByRole('alertdialog', { name: 'Make Admin' }).getByRole('button', { name: 'Make Admin' }).click();
    await page.getByText('User promoted to admin successfully').waitFor();
    const groups = await cognito.send(
      new AdminListGroupsForUserCommand({ UserPoolId: stack.cognito.userPoolId, Username: promotedUser }),
    );
    expect(groups.Groups?.map((group) => group.GroupName).sort()).toEqual(['Admins', 'Users']);

    const adminToken = await storedAccessToken(page, stack);
    expect(
      await callDirectly(stack.functions.userAdmin, adminToken, {
        action: 'PROMOTE_TO_ADMIN',
        userEmail: promotedUser,
      }),
    ).toEqual({
      status: 409,
      error: 'User is already an admin',
    });
    await page.close();

    // The promoted account is an admin now, so even another admin cannot set its password;
    // demote it first, then an admin-set password signs it out everywhere.
    expect(
      (
        await callDirectly(stack.functions.userAdmin, adminToken, {
          action: 'UPDATE_USER',
          userEmail: promotedUser,
          newPassword: 'Changed#User2026',
        })
      ).status,
    ).toBe(403);
    await cognito.send(
      new AdminRemoveUserFromGroupCommand({
        UserPoolId: stack.cognito.userPoolId,
        Username: promotedUser,
        GroupName: 'Admins',
      }),
    );
    expect((await callDirectly(stack.functions.mfa, userToken, { action: 'GET_MFA_STATUS' })).status).toBe(200);
    expect(
      (
        await callDirectly(stack.functions.userAdmin, adminToken, {
          action: 'UPDATE_USER',
          userEmail: promotedUser,
          newPassword: 'Changed#User2026',
        })
      ).status,
    ).toBe(200);
    expect((await callDirectly(stack.functions.mfa, userToken, { action: 'GET_MFA_STATUS' })).status).toBe(401);
  });
});
