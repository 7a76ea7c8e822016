import type { Page } from 'playwright-core';
import type { DemoAccount, StackInfo } from '#clients/local-stack.ts';
import { leastRecentlyUsedAdmin, unusedTotpCode } from './unused-totp-codes.ts';

export type Credentials = DemoAccount;

interface PortalLogin {
  readonly path: string;
  readonly emailLabel: string;
  readonly submit: string;
  /** Where a successful sign-in lands. */
  readonly landing: RegExp;
}

const USER_PORTAL: PortalLogin = {
  path: '/login',
  emailLabel: 'Username (email)',
  submit: 'Log In',
  landing: /\/home(\?|$)/,
};
const ADMIN_PORTAL: PortalLogin = {
  path: '/admin/login',
  emailLabel: 'Email',
  submit: 'Admin Login',
  landing: /\/admin\/(?!login)/,
};

/** Wording the sign-in flow shows when an authenticator code is refused. */
const CODE_REFUSED = 'MFA verification failed. Please try again.';

const STEP_TIMEOUT_MS = 30_000;

/** What ends a sign-in that got past the code: by default, reaching the portal's landing page. */
type Arrival = (page: Page, portal: PortalLogin) => Promise<unknown>;

const landing: Arrival = (page, portal) => page.waitForURL(portal.landing, { timeout: STEP_TIMEOUT_MS });

/**
 * Where devices are remembered (local mode), the code screen has a Remember this device box,
 * clear by default; the journeys leave it clear unless told otherwise.
 */
async function chooseRememberDevice(page: Page, remember: boolean): Promise<void> {
  if (remember) await page.getByRole('checkbox', { name: 'Remember this device' }).check();
}

/**
 * The whole sign-in of a page that is not signed in, with a code of a step not used before in
 * this run for the account (support/totp.ts). Such a code must be taken: a refusal fails the
 * sign-in at once, saying so, instead of being retried with the next step's code.
 */
async function signIn(
  page: Page,
  stack: StackInfo,
  credentials: Credentials,
  portal: PortalLogin,
  arrival: Arrival = landing,
  rememberDevice = false,
): Promise<void> {
  await page.goto(`${stack.webUrl}${portal.path}`);
  await page.getByLabel(portal.emailLabel, { exact: true }).fill(credentials.email);
  await page.getByLabel('Password', { exact: true }).fill(credentials.password);
  await page.getByRole('button', { name: portal.submit, exact: true }).click();

  const codeField = page.getByLabel('Authentication Code', { exact: true });
  await codeField.waitFor({ timeout: STEP_TIMEOUT_MS });
  await codeField.fill(await unusedTotpCode(credentials.totpSecret, credentials.email));
  await chooseRememberDevice(page, rememberDevice);
  const codeAt = new Date().toISOString();
  await page.getByRole('button', { name: 'Verify & Sign In', exact: true }).click();
  // Neither wait may reject once the other has won: each settles to an outcome.
  let arrivalFailure = '';
  const landed = arrival(page, portal).then(
    () => 'signed-in' as const,
    (error: unknown) => {
      arrivalFailure = error instanceof Error ? error.message.split('\n')[0]! : String(error);
      return 'timeout' as const;
    },
  );
  const refused = page
    .getByText(CODE_REFUSED)
    .waitFor({ timeout: STEP_TIMEOUT_MS })
    .then(
      () => 'refused' as const,
      () => 'timeout' as const,
    );
  const outcome = await Promise.race([landed, refused]);
  if (outcome === 'timeout') {
    throw new Error(
      `${credentials.email}: no page after the authenticator code within ${STEP_TIMEOUT_MS / 1000} s (at ${page.url()})${arrivalFailure ? `: ${arrivalFailure}` : ''}`,
    );
  }
  if (outcome === 'refused') {
    throw new Error(
      `${credentials.email}: the authenticator code entered at ${codeAt}, from a 30-second step not used before in this run, was refused ("${CODE_REFUSED}")`,
    );
  }
}

/**
 * Signs in on the user portal's /login with password and authenticator code; resolves on /home.
 * `rememberDevice` ticks Remember this device on the code screen (clear by default).
 */
export function signInAsUser(
  page: Page,
  stack: StackInfo,
  credentials: Credentials = stack.demo.user,
  options: { readonly rememberDevice?: boolean } = {},
): Promise<void> {
  return signIn(page, stack, credentials, USER_PORTAL, landing, options.rememberDevice ?? false);
}

/**
 * Signs in on the admin portal's /admin/login; resolves, once it has left the login page, with
 * the administrator signed in: `credentials`, or else whichever administrator's code was used
 * longest ago (support/unused-totp-codes.ts), so that the sign-in does not wait for a step.
 */
export async function signInAsAdmin(page: Page, stack: StackInfo, credentials?: Credentials): Promise<Credentials> {
  const admin = credentials ?? (await leastRecentlyUsedAdmin(stack));
  await signIn(page, stack, admin, ADMIN_PORTAL);
  return admin;
}

/**
 * Signs in on /admin/login and resolves once the page shows `text` after the code step (such as
 * the access-denied message a member of Users gets), instead of waiting for an admin page.
 */
export function signInAtAdminExpecting(
  page: Page,
  stack: StackInfo,
  credentials: Credentials,
  text: string,
): Promise<void> {
  return signIn(page, stack, credentials, ADMIN_PORTAL, (p) => p.getByText(text).waitFor({ timeout: STEP_TIMEOUT_MS }));
}

/**
 * The access token the signed-in SPA keeps in local storage ('' when signed out), for calls
 * made the way the SPA makes them.
 */
export function storedAccessToken(page: Page, stack: StackInfo): Promise<string> {
  return page.evaluate((clientId) => {
    const storage = (globalThis as unknown as { localStorage: { getItem(key: string): string | null } }).localStorage;
    const prefix = `CognitoIdentityServiceProvider.${clientId}`;
    const user = storage.getItem(`${prefix}.LastAuthUser`);
    return (user && storage.getItem(`${prefix}.${user}.accessToken`)) ?? '';
  }, stack.cognito.clientId);
}

/**
 * Log out from the user portal's account menu; resolves once the sign-out has finished, that
 * is once the SPA's tokens are gone (a remembered device's secret stays).
 */
export async function logOutOfPortal(page: Page, stack: StackInfo): Promise<void> {
  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.waitForURL(/\/login$/);
  const deadline = Date.now() + 10_000;
  while ((await storedAccessToken(page, stack)) !== '') {
    if (Date.now() > deadline) throw new Error('Log out: the tokens were still stored 10 s later');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
