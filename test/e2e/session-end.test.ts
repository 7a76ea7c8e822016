import {
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  ConfirmForgotPasswordCommand,
  ForgotPasswordCommand,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAccount } from '#clients/cognito.ts';
import { signInAsUser, storedAccessToken, type Credentials } from './support/auth.ts';
import { launchBrowser } from './support/browser.ts';
import { readMail } from './support/mail.ts';
import { signInWithSrp } from './support/cognito-session.ts';
import { stackPool, useStack } from './support/stack.ts';
import { leastRecentlyUsedAdmin, unusedTotpCode } from './support/unused-totp-codes.ts';

const stack = useStack();
const email = `session.end.${Date.now()}@example.com`;
const password = 'Session#End2026';
const SESSION_ENDED = 'Your session is no longer valid. Please sign in again.';
/** GraphQL reuses an accepted check of a token for 2 s; after that it asks Cognito again. */
const GRAPHQL_CHECK_REUSE_MS = 2_000;

const pool = stackPool(stack);
const cognito = pool.client;

interface Answer {
  readonly status: number;
  readonly error: string;
}

/** A call to a function URL as the SPA makes it, with the given access token. */
async function callFunction(
  url: string,
  token: string,
  request: { method: 'GET' | 'POST'; body?: object; headers?: Record<string, string> },
): Promise<Answer> {
  const response = await fetch(url, {
    method: request.method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...request.headers },
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  });
  const answer = (await response.json()) as { error?: string };
  return { status: response.status, error: answer.error ?? '' };
}

/** One request to each function, as its page sends it. */
const everyFunction = (token: string): Promise<Record<string, Answer>> =>
  Promise.all([
    callFunction(stack.functions.embed, token, { method: 'GET', headers: { 'x-dashboard-id': 'sales-performance' } }),
    callFunction(stack.functions.mfa, token, { method: 'POST', body: { action: 'GET_MFA_STATUS' } }),
    callFunction(stack.functions.contact, token, {
      method: 'POST',
      body: { email, subject: 'Old token', message: 'Sent with a token of an ended session.' },
    }),
    callFunction(stack.functions.userAdmin, token, { method: 'POST', body: { action: 'GET_USERS' } }),
    callFunction(stack.functions.quicksightAdmin, token, {
      method: 'POST',
      body: { action: 'LIST_DASHBOARD_METADATA' },
    }),
  ]).then(([embed, mfa, contact, userAdmin, quicksightAdmin]) => ({ embed, mfa, contact, userAdmin, quicksightAdmin }));

const ALL_REFUSED = {
  embed: { status: 401, error: SESSION_ENDED },
  mfa: { status: 401, error: SESSION_ENDED },
  contact: { status: 401, error: SESSION_ENDED },
  userAdmin: { status: 401, error: SESSION_ENDED },
  quicksightAdmin: { status: 401, error: SESSION_ENDED },
};

/** The error messages of a GraphQL query sent as the SPA sends it (AppSync takes the bare token). */
async function graphqlErrors(token: string): Promise<string[]> {
  const response = await fetch(stack.graphqlUrl, {
    method: 'POST',
    headers: { authorization: token, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ listTableauViews { items { id } } }' }),
  });
  const answer = (await response.json()) as { errors?: { message: string }[] };
  return (answer.errors ?? []).map((error) => error.message);
}

/** Waits until GraphQL can no longer answer from the check it made at `acceptedAt`. */
async function pastGraphqlReuse(acceptedAt: number): Promise<void> {
  const wait = acceptedAt + GRAPHQL_CHECK_REUSE_MS + 100 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

/** A token that works now: the MFA function and GraphQL both take it. */
async function expectAccepted(token: string): Promise<number> {
  expect(token).not.toBe('');
  expect(
    await callFunction(stack.functions.mfa, token, { method: 'POST', body: { action: 'GET_MFA_STATUS' } }),
  ).toMatchObject({ status: 200 });
  expect(await graphqlErrors(token)).toEqual([]);
  return Date.now();
}

describe('a token of an ended session is refused on the running stack', () => {
  let browser: Browser;
  let page: Page;
  let account: Credentials;

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    // A fresh account of its own (the demo accounts stay for the other journeys), whose
    // authenticator is set up at its first sign-in, as a person's is.
    await ensureAccount(pool, { email, password, group: 'Users' });
    await page.goto(`${stack.webUrl}/login`);
    await page.getByLabel('Username (email)', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    const key = page.locator('code.secret-key');
    await key.waitFor();
    const totpSecret = (await key.innerText()).replace(/\s+/g, '');
    await page.getByLabel('Enter the 6-digit code from your app').fill(await unusedTotpCode(totpSecret, email));
    await page.getByRole('button', { name: 'Verify & Complete Setup', exact: true }).click();
    await page.waitForURL(/\/home$/, { timeout: 15_000 });
    account = { email, password, totpSecret };
  });

  afterAll(async () => {
    await cognito
      .send(new AdminDeleteUserCommand({ UserPoolId: stack.cognito.userPoolId, Username: email }))
      .catch(() => undefined);
    cognito.destroy();
    await browser?.close();
  });

  it("after the user's own Log out, by every function and by GraphQL", async () => {
    const token = await storedAccessToken(page, stack);
    const acceptedAt = await expectAccepted(token);

    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL(/\/login$/);
    await expect.poll(() => storedAccessToken(page, stack), { timeout: 10_000 }).toBe('');

    expect(await everyFunction(token)).toEqual(ALL_REFUSED);
    await pastGraphqlReuse(acceptedAt);
    expect(await graphqlErrors(token)).toEqual([SESSION_ENDED]);
  });

  it('after a password reset by emailed code: the token of a sign-in, a token from a refresh and the refresh token', async () => {
    const session = await signInWithSrp(stack, account);
    const refresh = () =>
      cognito.send(
        new InitiateAuthCommand({
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          ClientId: stack.cognito.clientId,
          // Local mode tracks devices: the refresh names the device of the sign-in.
          AuthParameters: {
            REFRESH_TOKEN: session.refreshToken,
            ...(session.deviceKey ? { DEVICE_KEY: session.deviceKey } : {}),
          },
        }),
      );
    const refreshed = (await refresh()).AuthenticationResult?.AccessToken ?? '';
    // A token from a refresh lacks the admin scope; the functions accept it all the same.
    expect(JSON.parse(Buffer.from(refreshed.split('.')[1] ?? '', 'base64url').toString()).scope).toBeUndefined();
    // Each token's accepted check is reused for 2 s from when it was made: the wait runs from the later of the two.
    const acceptedAt = Math.max(await expectAccepted(session.accessToken), await expectAccepted(refreshed));

    const since = new Date();
    await cognito.send(new ForgotPasswordCommand({ ClientId: stack.cognito.clientId, Username: email }));
    const code = /\b(\d{6})\b/.exec((await readMail(stack, { to: email, since })).text)?.[1];
    expect(code).toBeDefined();
    const newPassword = 'Session#Reset2026';
    await cognito.send(
      new ConfirmForgotPasswordCommand({
        ClientId: stack.cognito.clientId,
        Username: email,
        ConfirmationCode: code!,
        Password: newPassword,
      }),
    );
    account = { ...account, password: newPassword };

    expect(await everyFunction(session.accessToken)).toEqual(ALL_REFUSED);
    expect(await everyFunction(refreshed)).toEqual(ALL_REFUSED);
    await expect(refresh()).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    await pastGraphqlReuse(acceptedAt);
    expect(await graphqlErrors(refreshed)).toEqual([SESSION_ENDED]);
    // The new password signs in.
    expect((await signInWithSrp(stack, account)).accessToken).not.toBe('');
  });

  it('after an administrator deletes the account, by every function and by GraphQL', async () => {
    await signInAsUser(page, stack, account);
    const token = await storedAccessToken(page, stack);
    const acceptedAt = await expectAccepted(token);

    const admin = await signInWithSrp(stack, await leastRecentlyUsedAdmin(stack));
    expect(
      await callFunction(stack.functions.userAdmin, admin.accessToken, {
        method: 'POST',
        body: { action: 'DELETE_USER', userEmail: email },
      }),
    ).toEqual({
      status: 200,
      error: '',
    });
    await expect(
      cognito.send(new AdminGetUserCommand({ UserPoolId: stack.cognito.userPoolId, Username: email })),
    ).rejects.toMatchObject({
      name: 'UserNotFoundException',
    });

    expect(await everyFunction(token)).toEqual(ALL_REFUSED);
    await pastGraphqlReuse(acceptedAt);
    expect(await graphqlErrors(token)).toEqual([SESSION_ENDED]);
  });
});
