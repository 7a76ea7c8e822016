import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPPORT_TO_ADDRESS } from '#clients/local-stack.ts';
import { expectNoSeriousA11yViolations } from './support/a11y.ts';
import { signInAsUser } from './support/auth.ts';
import { launchBrowser } from './support/browser.ts';
import { readMail } from './support/mail.ts';
import { useStack } from './support/stack.ts';
import { totpCode } from './support/unused-totp-codes.ts';

const stack = useStack();
const demo = stack.demo.user;
const FRAME = 'iframe[title="QuickSight Analytics Dashboard"]';

/** The dashboard's name as the embedded page shows it. */
async function frameShows(page: Page, name: string): Promise<void> {
  await page.frameLocator(FRAME).getByText(name, { exact: false }).first().waitFor({ timeout: 30_000 });
}

async function selectedViewName(page: Page): Promise<string> {
  return page.getByLabel('Select Dashboard').evaluate((select) => {
    const element = select as unknown as { selectedOptions: { text: string }[] };
    return element.selectedOptions[0]?.text ?? '';
  });
}

async function fillCredentials(page: Page, password: string): Promise<void> {
  await page.goto(`${stack.webUrl}/login`);
  await page.getByLabel('Username (email)', { exact: true }).fill(demo.email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In', exact: true }).click();
}

describe('the demo user on the user portal', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows an accessible sign-in page and refuses a wrong password', async () => {
    await page.goto(`${stack.webUrl}/login`);
    await expectNoSeriousA11yViolations(page);
    await fillCredentials(page, 'Wrong#Password1');
    await page.getByText('Incorrect username or password.').waitFor();
    expect(page.url()).toMatch(/\/login$/);
  });

  it('refuses a wrong authenticator code with the spec message', async () => {
    await fillCredentials(page, demo.password);
    const code = page.getByLabel('Authentication Code', { exact: true });
    await code.waitFor();
    await expectNoSeriousA11yViolations(page);
    const wrong = totpCode(demo.totpSecret) === '000000' ? '111111' : '000000';
    await code.fill(wrong);
    await page.getByRole('button', { name: 'Verify & Sign In', exact: true }).click();
    await page.getByText('MFA verification failed. Please try again.').waitFor();
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByRole('button', { name: 'Log In', exact: true }).waitFor();
  });

  it('signs in with password and code and sees the default dashboard in the frame', async () => {
    await signInAsUser(page, stack);
    await page.getByLabel('Select Dashboard').waitFor();
    await frameShows(page, await selectedViewName(page));
    expect(await page.getByText('Powered by AWS QuickSight').isVisible()).toBe(true);
    await expectNoSeriousA11yViolations(page);
  });

  it('Back after the first switch from /home shows the dashboard shown before it', async () => {
    expect(page.url()).toMatch(/\/home$/);
    const first = await selectedViewName(page);
    const select = page.getByLabel('Select Dashboard');
    const second = (await select.locator('option').allTextContents()).find((name) => name !== first)!;
    await select.selectOption({ label: second });
    await frameShows(page, second);
    await page.goBack();
    await expect.poll(() => selectedViewName(page)).toBe(first);
    await frameShows(page, first);
  });

  it('keeps the spinner until the SDK reports the content loaded, and shows only the features the deployment turns on', async () => {
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/embed\/[^/]+\/dashboards\//, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await page.locator(FRAME).waitFor({ state: 'attached' });
    await page.getByText('Loading dashboard...').waitFor();
    expect(await page.getByText('Powered by AWS QuickSight').count()).toBe(0);
    release();
    await page.getByText('Powered by AWS QuickSight').waitFor();
    expect(await page.getByText('Loading dashboard...').count()).toBe(0);
    await page.unroute(/\/embed\/[^/]+\/dashboards\//);
    // The deployment's defaults: state persistence and bookmarks, nothing else.
    const features = page.frameLocator(FRAME).locator('nav[aria-label="Dashboard features"] summary');
    expect(await features.allTextContents()).toEqual(['State persistence', 'Bookmarks']);
  });

  it('Print reaches the frame through the SDK', async () => {
    await page.getByRole('toolbar', { name: 'Dashboard actions' }).getByRole('button', { name: 'Print' }).click();
    await page.frameLocator(FRAME).getByText('Print requested').waitFor();
  });

  it('shows the error panel for a reused embed URL after one automatic renewal, and Retry recovers', async () => {
    const used = (await page.locator(FRAME).getAttribute('src')) ?? '';
    const usedBase = used.split('&punyCodeEmbedOrigin')[0]!;
    let answered = 0;
    await page.route(stack.functions.embed, async (route) => {
      answered += 1;
      await route.fulfill({
        json: { url: usedBase, sessionExpiresAt: new Date(Date.now() + 3_600_000).toISOString() },
        headers: { 'Access-Control-Allow-Origin': new URL(stack.webUrl).origin },
      });
    });
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await page.getByText('Error Loading Dashboard').waitFor({ timeout: 30_000 });
    await page.getByText('The dashboard link has expired or was already used.').waitFor();
    expect(answered).toBe(2);
    await page.unroute(stack.functions.embed);
    await page.getByRole('button', { name: 'Retry', exact: true }).click();
    await frameShows(page, await selectedViewName(page));
    await page.getByText('Powered by AWS QuickSight').waitFor();
  });

  it('sends the permissions and opener policies; the SDK frame gets no other features', async () => {
    const response = await page.request.get(`${stack.webUrl}/home`);
    expect(response.headers()['cross-origin-opener-policy']).toBe('same-origin');
    const permissions = response.headers()['permissions-policy'] ?? '';
    for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb'])
      expect(permissions).toContain(`${feature}=()`);

    const frameUrl = (await page.locator(FRAME).getAttribute('src')) ?? '';
    const frame = page.frames().find((candidate) => candidate.url().startsWith(new URL(frameUrl).origin));
    expect(frame).toBeDefined();
    type PolicyDocument = { fullscreenEnabled: boolean; featurePolicy: { allowsFeature(feature: string): boolean } };
    const inFrame = await frame!.evaluate(() => {
      const doc = (globalThis as unknown as { document: PolicyDocument }).document;
      return { fullscreen: doc.fullscreenEnabled, camera: doc.featurePolicy.allowsFeature('camera') };
    });
    // The embedding SDK makes the frame without allow="fullscreen" (QuickSight offers its own full-screen view).
    expect(inFrame).toEqual({ fullscreen: false, camera: false });
    const inPage = await page.evaluate(() => {
      const doc = (globalThis as unknown as { document: PolicyDocument }).document;
      return { geolocation: doc.featurePolicy.allowsFeature('geolocation'), fullscreen: doc.fullscreenEnabled };
    });
    expect(inPage).toEqual({ geolocation: false, fullscreen: true });
  });

  it('keeps the chosen dashboard across a reload', async () => {
    const select = page.getByLabel('Select Dashboard');
    const options = await select.locator('option').allTextContents();
    expect(options.length).toBeGreaterThanOrEqual(2);
    const other = options.find((name) => name !== '') === (await selectedViewName(page)) ? options[1]! : options[0]!;
    await select.selectOption({ label: other });
    await frameShows(page, other);
    await page.reload();
    await page.getByLabel('Select Dashboard').waitFor();
    expect(await selectedViewName(page)).toBe(other);
    await frameShows(page, other);
  });

  it('gives each view its own address: back and forward switch views; a link to a dashboard not assigned says so', async () => {
    const select = page.getByLabel('Select Dashboard');
    const first = await selectedViewName(page);
    const firstUrl = page.url();
    expect(firstUrl).toMatch(/\/dashboards\/[\w-]+$/);
    const second = (await select.locator('option').allTextContents()).find((name) => name !== first)!;
    await select.selectOption({ label: second });
    await frameShows(page, second);
    expect(page.url()).not.toBe(firstUrl);
    await page.goBack();
    await expect.poll(() => selectedViewName(page)).toBe(first);
    await frameShows(page, first);
    await page.goForward();
    await expect.poll(() => selectedViewName(page)).toBe(second);
    await frameShows(page, second);
    await page.goto(`${stack.webUrl}/dashboards/not-one-of-yours`);
    await page.getByText('This dashboard is not assigned to you').waitFor();
    await frameShows(page, await selectedViewName(page));
    await expectNoSeriousA11yViolations(page);
  });

  it('Refresh loads the dashboard with a new embed URL', async () => {
    const before = await page.locator(FRAME).getAttribute('src');
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await page.waitForFunction(
      ([selector, previous]) => {
        const frame = (
          globalThis as unknown as { document: { querySelector: (s: string) => { src: string } | null } }
        ).document.querySelector(selector);
        return frame !== null && frame.src !== previous;
      },
      [FRAME, before] as const,
    );
    await frameShows(page, await selectedViewName(page));
  });

  it('sends a support message that reaches the support inbox with the user as reply-to', async () => {
    await page.getByRole('link', { name: 'Support', exact: true }).click();
    await page.waitForURL(/\/support$/);
    expect(await page.getByLabel('Email Address').inputValue()).toBe(demo.email);
    await expectNoSeriousA11yViolations(page);
    const subject = `Scorecard access ${Date.now()}`;
    const since = new Date();
    await page.getByLabel('Subject').fill(subject);
    await page.getByLabel('Priority').selectOption('high');
    await page.getByLabel('Description').fill('Please add the distributor scorecard to my dashboards.');
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    // The toast shows the contact function's answer.
    await page.getByText(/Your message has been sent/).waitFor();
    await expect.poll(() => page.getByLabel('Subject').inputValue()).toBe('');
    const mail = await readMail(stack, { to: SUPPORT_TO_ADDRESS, subject, since });
    expect(mail.replyTo.join(' ')).toContain(demo.email);
    expect(mail.text).toContain('Please add the distributor scorecard to my dashboards.');
  });

  it('has accessible settings and MFA pages', async () => {
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Change Password' }).click();
    await page.waitForURL(/\/settings$/);
    expect(await page.getByLabel('Email Address').inputValue()).toBe(demo.email);
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('link', { name: 'Multi-Factor Authentication' }).click();
    await page.getByText('Enabled', { exact: true }).waitFor();
    await expectNoSeriousA11yViolations(page);
  });

  it('Log out signs out every tab, and /home then goes to /login', async () => {
    const otherTab = await context.newPage();
    await otherTab.goto(`${stack.webUrl}/home`);
    await otherTab.getByLabel('Select Dashboard').waitFor();

    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL(/\/login$/);
    await otherTab.waitForURL(/\/login$/);

    await page.goto(`${stack.webUrl}/home`);
    await page.waitForURL(/\/login$/);
    await page.getByRole('button', { name: 'Log In', exact: true }).waitFor();
    await otherTab.close();
  });

  it("an owner's company choice narrows the rows the frame draws, within the owner's companies", async () => {
    const ownerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const owner = await ownerContext.newPage();
      await signInAsUser(owner, stack, stack.demo.owner);
      const inView = owner.frameLocator(FRAME).locator('.companies');
      await expect
        .poll(() => inView.textContent(), { timeout: 30_000 })
        .toBe('Companies in view: Contoso Distribution, Northwind Manufacturing');
      const choice = owner.getByLabel('Companies');
      expect(await choice.locator('option').allTextContents()).toEqual([
        'All my companies',
        'Contoso Distribution',
        'Northwind Manufacturing',
      ]);
      await choice.selectOption({ label: 'Contoso Distribution' });
      await expect
        .poll(() => inView.textContent(), { timeout: 30_000 })
        .toBe('Companies in view: Contoso Distribution');
      await choice.selectOption({ label: 'All my companies' });
      await expect
        .poll(() => inView.textContent(), { timeout: 30_000 })
        .toBe('Companies in view: Contoso Distribution, Northwind Manufacturing');
    } finally {
      await ownerContext.close();
    }
  });
});
