import type { Page } from 'playwright-core';
import type { DemoAccount, StackInfo } from '../../../local/stack-info.ts';
import { nextTotpStep, unusedTotpCode } from './totp.ts';

export type Credentials = DemoAccount;

interface PortalLogin {
  readonly path: string;
  readonly emailLabel: string;
  readonly submit: string;
  /** Where a successful sign-in lands. */
  readonly landing: RegExp;
}

const USER_PORTAL: PortalLogin = { path: '/login', emailLabel: 'Username (email)', submit: 'Log In', landing: /\/home(\?|$)/ };
const ADMIN_PORTAL: PortalLogin = { path: '/admin/login', emailLabel: 'Email', submit: 'Admin Login', landing: /\/admin\/(?!login)/ };

/** Wording the sign-in flow shows when an authenticator code is refused. */
const CODE_REFUSED = 'MFA verification failed. Please try again.';
const ATTEMPTS = 3;

async function signIn(page: Page, stack: StackInfo, credentials: Credentials, portal: PortalLogin): Promise<void> {
  await page.goto(`${stack.webUrl}${portal.path}`);
  await page.getByLabel(portal.emailLabel, { exact: true }).fill(credentials.email);
  await page.getByLabel('Password', { exact: true }).fill(credentials.password);
  await page.getByRole('button', { name: portal.submit, exact: true }).click();

  const codeField = page.getByLabel('Authentication Code', { exact: true });
  await codeField.waitFor();
  for (let attempt = 1; ; attempt += 1) {
    await codeField.fill(await unusedTotpCode(credentials.totpSecret));
    await page.getByRole('button', { name: 'Verify & Sign In', exact: true }).click();
    const outcome = await Promise.race([
      page.waitForURL(portal.landing).then(() => 'signed-in' as const),
      page.getByText(CODE_REFUSED).waitFor().then(() => 'refused' as const),
    ]);
    if (outcome === 'signed-in') return;
    // The code's step was already used by another process (the seed, another worker).
    if (attempt === ATTEMPTS) throw new Error(`${credentials.email}: the authenticator code was refused ${ATTEMPTS} times`);
    await nextTotpStep();
  }
}

/** Signs in on the user portal's /login with password and authenticator code; resolves on /home. */
export function signInAsUser(page: Page, stack: StackInfo, credentials: Credentials = stack.demo.user): Promise<void> {
  return signIn(page, stack, credentials, USER_PORTAL);
}

/** Signs in on the admin portal's /admin/login; resolves once it has left the login page. */
export function signInAsAdmin(page: Page, stack: StackInfo, credentials: Credentials = stack.demo.admin): Promise<void> {
  return signIn(page, stack, credentials, ADMIN_PORTAL);
}
