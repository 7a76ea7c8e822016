import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from './support/a11y.ts';
import { signInAsAdmin, signInAsUser } from './support/auth.ts';
import { launchBrowser } from './support/browser.ts';
import { useStack } from './support/stack.ts';

const stack = useStack();

/** Where the screenshots of every screen go (git-ignored); kept as test artifacts. */
const SCREENSHOT_DIR = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

const SIZES = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;
type Size = (typeof SIZES)[number];

interface ProblemWatch {
  /** Everything seen so far. */
  readonly list: () => Promise<string[]>;
  /**
   * Runs a sign-in through the shared helper, which retries when another test used the same
   * authenticator code first: Cognito's 400 for that refused code is not a fault of the page.
   */
  readonly signingIn: (signIn: () => Promise<void>) => Promise<void>;
}

/** Collects what must never happen on any screen: console errors, failed requests, uncaught errors, CSP violations. */
async function watchProblems(context: BrowserContext, page: Page, cognitoEndpoint: string): Promise<ProblemWatch> {
  const problems: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} from ${response.request().method()} ${response.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error on ${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught error on ${page.url()}: ${error.message}`));
  await context.addInitScript(() => {
    type Violation = { violatedDirective: string; blockedURI: string; sourceFile: string };
    const scope = globalThis as unknown as {
      cspViolations: string[];
      addEventListener: (type: 'securitypolicyviolation', listener: (event: Violation) => void) => void;
    };
    scope.cspViolations = [];
    scope.addEventListener('securitypolicyviolation', (event) => {
      scope.cspViolations.push(`${event.violatedDirective} blocked ${event.blockedURI} (from ${event.sourceFile || 'no file'})`);
    });
  });
  const signingIn = async (signIn: () => Promise<void>) => {
    const mark = problems.length;
    await signIn();
    const during = problems.splice(mark);
    const refusedCode = (problem: string) =>
      problem.startsWith(`400 from POST ${cognitoEndpoint}`) || problem.includes('the server responded with a status of 400');
    problems.push(...during.filter((problem) => !refusedCode(problem)));
  };
  const list = async () => [
    ...problems,
    ...(await page.evaluate(() => (globalThis as unknown as { cspViolations?: string[] }).cspViolations ?? [])).filter(
      // axe-core, injected by the test rather than served by the site, compiles its message
      // templates with eval, which the site's CSP rightly refuses; the site's own scripts have a file.
      (violation) => !/blocked eval \(from no file\)$/.test(violation),
    ),
  ];
  return { list, signingIn };
}

/** The page is no wider than the window: nothing scrolls sideways. */
async function expectNoHorizontalScroll(page: Page, screen: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document;
    return { scrollWidth: doc.documentElement.scrollWidth, innerWidth: (globalThis as unknown as { innerWidth: number }).innerWidth };
  });
  expect(scrollWidth, `${screen}: the page is ${scrollWidth} px wide in a ${innerWidth} px window`).toBeLessThanOrEqual(innerWidth);
}

/**
 * A popover, menu or tooltip is not clipped: its box lies inside the window and it is the
 * topmost element at its centre (no container or layer covers it).
 */
async function expectUnclipped(page: Page, layer: Locator, what: string): Promise<void> {
  await layer.waitFor();
  const box = await layer.boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) throw new Error(`${what}: no box`);
  expect(box.x, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box.y, `${what}: top edge`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what}: right edge`).toBeLessThanOrEqual(viewport.width);
  expect(box.y + box.height, `${what}: bottom edge`).toBeLessThanOrEqual(viewport.height);
  const topmost = await layer.evaluate((element) => {
    // Hit-testing skips elements that ignore the pointer (tooltips do): count them for this check.
    const style = (element as unknown as { style: { pointerEvents: string } }).style;
    const pointerEvents = style.pointerEvents;
    style.pointerEvents = 'auto';
    const rect = element.getBoundingClientRect();
    const hit = element.ownerDocument.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
    style.pointerEvents = pointerEvents;
    return hit !== null && element.contains(hit);
  });
  expect(topmost, `${what}: covered at its centre`).toBe(true);
}

/** Lets layout and fonts settle after a change of window size. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const scope = globalThis as unknown as { document: { fonts: { ready: Promise<unknown> } }; requestAnimationFrame: (callback: () => void) => void };
    await scope.document.fonts.ready;
    await new Promise<void>((resolve) => scope.requestAnimationFrame(() => scope.requestAnimationFrame(resolve)));
  });
}

/**
 * Checks one screen at both sizes: ready, no sideways scroll on the phone, axe without a
 * serious or critical finding, and a screenshot. `ready` waits for the screen's content;
 * `check` adds what this screen must show at that size; `after` undoes what `ready` opened.
 */
async function walkScreen(
  page: Page,
  name: string,
  ready: () => Promise<unknown>,
  check?: (size: Size) => Promise<void>,
  after?: () => Promise<void>,
): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await ready();
    await settle(page);
    await expectNoHorizontalScroll(page, `${name} at ${size.width}x${size.height}`);
    await check?.(size);
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${size.width}x${size.height}.png`), fullPage: true });
    await after?.();
  }
}

/** The boxes of two elements do not overlap. */
async function expectApart(first: Locator, second: Locator, what: string): Promise<void> {
  const [a, b] = [await first.boundingBox(), await second.boundingBox()];
  if (!a || !b) throw new Error(`${what}: no box`);
  const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  expect(overlap, `${what} overlap`).toBe(false);
}

/** The header is one line: every visible part of it shares one band of height, none above another. */
async function expectOneLineHeader(page: Page, what: string): Promise<void> {
  const bands = await page.locator('.shell-header-inner > *').evaluateAll((parts) =>
    parts
      .map((part) => part.getBoundingClientRect())
      .filter((rect) => rect.width > 0 && rect.height > 0)
      .map((rect) => [rect.top, rect.bottom] as const),
  );
  expect(bands.length, `${what}: visible parts`).toBeGreaterThan(1);
  for (const [top, bottom] of bands) {
    for (const [otherTop, otherBottom] of bands) {
      expect(top < otherBottom && otherTop < bottom, `${what}: parts on separate lines`).toBe(true);
    }
  }
}

describe('every screen of both portals at 1440x900 and 390x844', () => {
  let browser: Browser;

  beforeAll(async () => {
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the user portal: public pages, the dashboard, its menus, support and settings', async () => {
    const context = await browser.newContext({ viewport: SIZES[0] });
    const page = await context.newPage();
    const problems = await watchProblems(context, page, stack.cognito.endpoint);

    await page.goto(`${stack.webUrl}/login`);
    await walkScreen(page, 'user-login', () => page.getByRole('button', { name: 'Log In', exact: true }).waitFor(), async (size) => {
      if (size.name !== 'phone') return;
      // On a phone the form comes first, the brand panel after it.
      const form = await page.getByRole('button', { name: 'Log In', exact: true }).boundingBox();
      const brand = await page.getByRole('heading', { level: 1 }).boundingBox();
      expect(form!.y).toBeLessThan(brand!.y);
    });
    await page.goto(`${stack.webUrl}/signup`);
    await walkScreen(page, 'user-signup', () => page.getByRole('heading', { name: 'Create your account' }).waitFor());
    await page.goto(`${stack.webUrl}/change-password`);
    await walkScreen(page, 'user-forgot-password', () => page.getByRole('button', { name: 'Send Verification Code' }).waitFor());
    await page.goto(`${stack.webUrl}/verify-reset-code?email=${encodeURIComponent(stack.demo.user.email)}`);
    await walkScreen(page, 'user-reset-code', () => page.getByRole('button', { name: 'Submit', exact: true }).waitFor());

    await page.setViewportSize(SIZES[0]);
    await problems.signingIn(() => signInAsUser(page, stack));
    const frame = page.frameLocator('iframe[title="QuickSight Analytics Dashboard"]');
    await walkScreen(
      page,
      'user-dashboard',
      async () => {
        await page.getByLabel('Select Dashboard').waitFor();
        await frame.locator('body').waitFor();
      },
      async () => {
        await expectOneLineHeader(page, 'user portal');
        await page.getByRole('button', { name: 'Refresh', exact: true }).hover();
        await expectUnclipped(page, page.getByRole('tooltip', { name: 'Refresh dashboard URL' }), 'Refresh tooltip');
        await page.mouse.move(0, 0);
      },
    );
    await walkScreen(
      page,
      'user-account-menu',
      async () => {
        if ((await page.getByRole('menu').count()) === 0) await page.getByRole('button', { name: /Account menu/ }).click();
      },
      (size) => expectUnclipped(page, page.getByRole('menu'), `account menu at ${size.name}`),
      () => page.keyboard.press('Escape'),
    );
    await page.getByRole('link', { name: 'Support' }).click();
    await walkScreen(page, 'user-support', () => page.getByRole('heading', { name: 'Contact Support' }).waitFor());
    await page.goto(`${stack.webUrl}/settings`);
    await walkScreen(page, 'user-settings', () => page.getByRole('button', { name: 'Send Verification Code' }).waitFor());
    await page.goto(`${stack.webUrl}/mfa-settings`);
    await walkScreen(page, 'user-mfa', () => page.getByText('Enabled', { exact: true }).first().waitFor());

    expect(await problems.list()).toEqual([]);
    await context.close();
  });

  it('the admin portal: sign-in pages, users, dashboards, activity, with their menus and dialogs', async () => {
    const context = await browser.newContext({ viewport: SIZES[0] });
    const page = await context.newPage();
    const problems = await watchProblems(context, page, stack.cognito.endpoint);
    const demoUser = stack.demo.user.email;

    await page.goto(`${stack.webUrl}/admin/login`);
    await walkScreen(page, 'admin-login', () => page.getByRole('button', { name: 'Admin Login' }).waitFor());
    await page.goto(`${stack.webUrl}/admin/forgot-password`);
    await walkScreen(page, 'admin-forgot-password', () => page.getByRole('button', { name: 'Send Reset Email' }).waitFor());

    await page.setViewportSize(SIZES[0]);
    await problems.signingIn(() => signInAsAdmin(page, stack));
    await page.waitForURL(/\/admin\/users$/);
    const userRow = page.locator('tbody tr', { hasText: demoUser });
    await walkScreen(
      page,
      'admin-users',
      () => userRow.waitFor(),
      async (size) => {
        await expectOneLineHeader(page, `admin header at ${size.name}`);
        const account = size.name === 'phone' ? page.getByRole('button', { name: 'Account' }) : page.locator('.admin-account');
        await expectApart(page.locator('.admin-title'), account, `admin title and account controls at ${size.name}`);
        // Every row keeps its actions in one place: the '⋯' button.
        expect(await userRow.getByRole('button').count()).toBe(1);
      },
    );
    await walkScreen(
      page,
      'admin-users-row-menu',
      async () => {
        if ((await page.getByRole('menu').count()) === 0) await page.getByRole('button', { name: `Actions for ${demoUser}` }).click();
      },
      (size) => expectUnclipped(page, page.getByRole('menu'), `row menu at ${size.name}`),
      () => page.keyboard.press('Escape'),
    );
    // The signed-in admin's own row: the menu explains what is not allowed.
    await page.getByRole('button', { name: `Actions for ${stack.demo.admin.email}` }).click();
    const ownDelete = page.getByRole('menuitem', { name: 'Delete', exact: true });
    expect(await ownDelete.getAttribute('aria-disabled')).toBe('true');
    await expectUnclipped(page, page.getByText('Cannot delete your own account'), 'the reason Delete is not allowed');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: `Actions for ${demoUser}` }).click();
    await page.getByRole('menuitem', { name: 'Edit', exact: true }).click();
    const edit = page.getByRole('dialog', { name: 'Edit User' });
    await walkScreen(page, 'admin-edit-user', () => edit.waitFor(), async () => {
      expect(await page.getByLabel('New Password').evaluate((input) => input === input.ownerDocument.activeElement)).toBe(true);
    });
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Add New User' }).click();
    await walkScreen(page, 'admin-add-user', () => page.getByRole('dialog', { name: 'Create New User' }).waitFor());
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Import Users' }).click();
    await walkScreen(page, 'admin-import-users', () => page.getByRole('dialog', { name: 'Import Users' }).waitFor());
    await page.keyboard.press('Escape');

    await page.setViewportSize(SIZES[0]);
    await page.getByRole('link', { name: 'Manage Dashboards' }).click();
    await page.waitForURL(/\/admin\/dashboard$/);
    const cognitoRow = page.locator('tbody tr', { hasText: demoUser });
    await walkScreen(page, 'admin-dashboards', () => cognitoRow.waitFor(), async () => {
      await page.getByText(/^\d+ admins?$/).waitFor();
      expect(await page.getByText(/^1 admins$/).count()).toBe(0);
    });
    const catalogueMenu = page.getByRole('button', { name: /^Actions for dashboard / }).first();
    await walkScreen(
      page,
      'admin-catalogue-menu',
      async () => {
        if ((await page.getByRole('menu').count()) === 0) await catalogueMenu.click();
      },
      (size) => expectUnclipped(page, page.getByRole('menu'), `catalogue card menu at ${size.name}`),
      () => page.keyboard.press('Escape'),
    );

    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.getByRole('button', { name: `Actions for ${demoUser}` }).click();
      await page.getByRole('menuitem', { name: 'Invite', exact: true }).click();
      const invite = page.getByRole('dialog', { name: 'Invite to Dashboard' });
      await invite.getByRole('button', { name: /^Dashboards/ }).click();
      const panel = invite.getByRole('group', { name: 'Dashboards' });
      await settle(page);
      // The whole panel shows, over the dialog, with every option and Done reachable without scrolling.
      await expectUnclipped(page, panel, `dashboard picker at ${size.name}`);
      await expectUnclipped(page, panel.getByRole('button', { name: /^Done/ }), `Done at ${size.name}`);
      expect(await panel.getByRole('checkbox').count()).toBeGreaterThan(1);
      await expectUnclipped(page, panel.getByRole('checkbox').last(), `last dashboard option at ${size.name}`);
      await expectNoHorizontalScroll(page, `invite dialog at ${size.name}`);
      await expectNoSeriousA11yViolations(page);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `admin-invite-picker-${size.width}x${size.height}.png`) });
      await panel.getByRole('button', { name: /^Done/ }).click();
      await expectUnclipped(page, invite.getByRole('button', { name: 'Invite', exact: true }), `Invite at ${size.name}`);
      await page.keyboard.press('Escape');
      await invite.waitFor({ state: 'detached' });
    }

    await page.getByRole('button', { name: `Actions for ${demoUser}` }).click();
    await page.getByRole('menuitem', { name: 'Dashboards', exact: true }).click();
    const panel = page.getByRole('dialog', { name: `Dashboards for ${demoUser}` });
    await walkScreen(page, 'admin-user-dashboards', () => panel.getByText('Default', { exact: true }).waitFor());
    await page.keyboard.press('Escape');

    await page.setViewportSize(SIZES[0]);
    await page.getByRole('link', { name: 'Activity' }).click();
    await page.waitForURL(/\/admin\/activity$/);
    await walkScreen(page, 'admin-activity', () => page.getByRole('region', { name: 'Audit trail' }).waitFor());

    await page.setViewportSize(SIZES[0]);
    await page.getByRole('link', { name: 'Insights' }).click();
    await page.waitForURL(/\/admin\/insights$/);
    await walkScreen(page, 'admin-insights', async () => {
      await page.getByRole('heading', { level: 1, name: 'Insights' }).waitFor();
      await page.getByRole('heading', { name: 'Views per dashboard' }).waitFor();
    });

    await walkScreen(
      page,
      'admin-account-menu',
      async () => {
        if (page.viewportSize()?.width === SIZES[1].width && (await page.getByRole('menu').count()) === 0) {
          await page.getByRole('button', { name: 'Account' }).click();
        }
      },
      async (size) => {
        if (size.name !== 'phone') return;
        await expectUnclipped(page, page.getByRole('menu'), 'admin account menu on a phone');
        expect(await page.getByRole('menu').getByRole('menuitem', { name: 'Change Password' }).count()).toBe(1);
      },
      async () => {
        if ((await page.getByRole('menu').count()) > 0) await page.keyboard.press('Escape');
      },
    );

    await page.setViewportSize(SIZES[0]);
    await page.getByRole('link', { name: 'Change Password' }).click();
    await page.waitForURL(/\/admin\/change-password$/);
    await walkScreen(page, 'admin-change-password', () => page.getByRole('button', { name: 'Send Reset Email' }).waitFor());

    expect(await problems.list()).toEqual([]);
    await context.close();
  });
});
