import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.ts';
import { useStack } from './support/stack.ts';

const stack = useStack();

/** Records CSP violations the page reports (blocked scripts, styles, connections, frames). */
async function watchCspViolations(page: Page): Promise<() => Promise<string[]>> {
  const fromConsole: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) fromConsole.push(message.text());
  });
  await page.addInitScript(() => {
    // Runs in the page (typed without the DOM library here).
    type Violation = { violatedDirective: string; blockedURI: string };
    const page = globalThis as unknown as {
      cspViolations: string[];
      addEventListener: (type: 'securitypolicyviolation', listener: (event: Violation) => void) => void;
    };
    page.cspViolations = [];
    page.addEventListener('securitypolicyviolation', (event) => {
      page.cspViolations.push(`${event.violatedDirective} blocked ${event.blockedURI}`);
    });
  });
  return async () => [
    ...fromConsole,
    ...(await page.evaluate(() => (globalThis as unknown as { cspViolations: string[] }).cspViolations)),
  ];
}

describe('the local stack in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('serves the sign-in page with the site CSP for the local addresses and no CSP violations', async () => {
    const page = await browser.newPage();
    const violations = await watchCspViolations(page);

    const response = await page.goto(`${stack.webUrl}/login`);
    expect(response?.status()).toBe(200);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain(`connect-src 'self' ${new URL(stack.cognito.endpoint).origin}`);
    expect(csp).toContain(new URL(stack.graphqlUrl).origin);
    // Embed pages are addressed as localhost, like the portal (QuickSight refuses IP addresses in AllowedDomains).
    expect(csp).toContain(`frame-src ${new URL(stack.quicksight.embedPagesUrl).origin}`);
    expect(new URL(stack.quicksight.embedPagesUrl).protocol).toBe('https:');

    // The sign-in route renders once the app has loaded its configuration.
    await page.getByLabel('Username (email)', { exact: true }).waitFor({ state: 'visible' });
    await page.getByRole('button', { name: 'Log In', exact: true }).waitFor({ state: 'visible' });
    expect(await violations()).toEqual([]);
    await page.close();
  });

  it('answers a deep link with the app and /config.json with the local endpoints', async () => {
    const page = await browser.newPage();
    const config = await page.goto(`${stack.webUrl}/config.json`);
    expect(await config?.json()).toMatchObject({
      userPoolId: stack.cognito.userPoolId,
      userPoolClientId: stack.cognito.clientId,
      cognitoEndpoint: stack.cognito.endpoint,
      graphqlUrl: stack.graphqlUrl,
      functions: stack.functions,
    });
    const deepLink = await page.goto(`${stack.webUrl}/settings`);
    expect(deepLink?.status()).toBe(200);
    expect(deepLink?.headers()['content-type']).toContain('text/html');
    await page.close();
  });
});
