import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_DASHBOARDS } from '#emulators/quicksight/index.ts';
import { DEMO_COMPANIES } from '#local/seed/demo-accounts.ts';
import { expectNoA11yViolations, expectNoSeriousA11yViolations } from './support/a11y.ts';
import { signInAsAdmin, signInAsUser } from './support/auth.ts';
import { launchBrowser } from './support/browser.ts';
import { useStack } from './support/stack.ts';

const stack = useStack();

/** Matches text that starts with one of these names (with `whole`, text that is one of them). */
const startingWithOneOf = (names: readonly string[], whole = false) =>
  new RegExp(`^(${names.map((name) => name.replace(/[.*+?^$(){}|[\]\\]/g, '\\$&')).join('|')})${whole ? '$' : ''}`);
/**
 * Any of the sample dashboards the local stack puts in the catalogue (other journeys may change which is whose
 * default).
 */
const SAMPLE_DASHBOARD = startingWithOneOf(SAMPLE_DASHBOARDS.map((dashboard) => dashboard.name));
/** Any of the companies the local stack seeds. */
const DEMO_COMPANY = startingWithOneOf(
  DEMO_COMPANIES.map((company) => company.name),
  true,
);
const FRAME_TITLE = 'QuickSight Analytics Dashboard';

/** Where the screenshots of every screen go (git-ignored); kept as test artifacts. */
const SCREENSHOT_DIR = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));
/**
 * Screenshots are taken on request (`npm run screenshots`): encoding a full-page image of every
 * screen at both sizes took about a fifth of this file's processor time in every `npm test`, and
 * nothing in the run reads them.
 */
const SCREENSHOTS = process.env.PORTAL_SCREENSHOTS === '1';

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

/**
 * Collects what must never happen on any screen: console errors and warnings, failed requests, uncaught errors, CSP
 * violations.
 */
async function watchProblems(context: BrowserContext, page: Page, cognitoEndpoint: string): Promise<ProblemWatch> {
  const problems: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400)
      problems.push(`${response.status()} from ${response.request().method()} ${response.url()}`);
  });
  // Warnings too (issue: a deprecated or unknown feature, a misused API): none is expected on any screen.
  page.on('console', (message) => {
    const type = message.type();
    if (type === 'error' || type === 'warning') problems.push(`console ${type} on ${page.url()}: ${message.text()}`);
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
      scope.cspViolations.push(
        `${event.violatedDirective} blocked ${event.blockedURI} (from ${event.sourceFile || 'no file'})`,
      );
    });
  });
  const signingIn = async (signIn: () => Promise<void>) => {
    const mark = problems.length;
    await signIn();
    const during = problems.splice(mark);
    const refusedCode = (problem: string) =>
      problem.startsWith(`400 from POST ${cognitoEndpoint}`) ||
      problem.includes('the server responded with a status of 400');
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
    return {
      scrollWidth: doc.documentElement.scrollWidth,
      innerWidth: (globalThis as unknown as { innerWidth: number }).innerWidth,
    };
  });
  expect(scrollWidth, `${screen}: the page is ${scrollWidth} px wide in a ${innerWidth} px window`).toBeLessThanOrEqual(
    innerWidth,
  );
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
    const scope = globalThis as unknown as {
      document: { fonts: { ready: Promise<unknown> } };
      requestAnimationFrame: (callback: () => void) => void;
    };
    await scope.document.fonts.ready;
    await new Promise<void>((resolve) => scope.requestAnimationFrame(() => scope.requestAnimationFrame(resolve)));
  });
}

/** How long a screen's content may take to arrive (lists load after the page). */
const CONTENT_TIMEOUT_MS = 15_000;

/**
 * What a person sees: the element is rendered, lies within the window's width once scrolled
 * to, and nothing covers its centre. `whole` also requires its text not to be cut short.
 */
async function expectShown(page: Page, target: Locator, what: string, { whole = false } = {}): Promise<void> {
  try {
    await target.waitFor({ timeout: CONTENT_TIMEOUT_MS });
  } catch {
    throw new Error(`${what}: not shown within ${CONTENT_TIMEOUT_MS} ms (${await target.count()} in the page)`);
  }
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) throw new Error(`${what}: no box`);
  expect(box.width > 0 && box.height > 0, `${what}: an empty box`).toBe(true);
  expect(box.x, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what}: right edge`).toBeLessThanOrEqual(viewport.width);
  const seen = await target.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    const hit = element.ownerDocument.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
    return { topmost: hit !== null && element.contains(hit), cut: element.scrollWidth > element.clientWidth };
  });
  expect(seen.topmost, `${what}: covered at its centre`).toBe(true);
  if (whole) expect(seen.cut, `${what}: text cut short`).toBe(false);
}

/** A row or card of a list: shown, with its text whole and its '⋯' menu button shown too. */
async function expectListItem(page: Page, text: Locator, menu: Locator, what: string): Promise<void> {
  await expectShown(page, text, what, { whole: true });
  await expectShown(page, menu, `the menu of ${what}`);
}

/** Figures lie in a tidy grid: equal widths, and every line of the grid full. */
async function expectTidyGrid(cards: Locator, what: string): Promise<void> {
  const boxes = await cards.evaluateAll((elements) =>
    elements.map((element) => {
      const rect = element.getBoundingClientRect();
      return { left: Math.round(rect.left), top: Math.round(rect.top), width: Math.round(rect.width) };
    }),
  );
  expect(boxes.length, `${what}: cards`).toBeGreaterThan(0);
  const columns = new Set(boxes.map((box) => box.left)).size;
  const lines = new Set(boxes.map((box) => box.top)).size;
  expect(columns * lines, `${what}: ${boxes.length} cards in ${columns} columns and ${lines} lines`).toBe(boxes.length);
  for (const box of boxes) expect(Math.abs(box.width - boxes[0]!.width), `${what}: card widths`).toBeLessThanOrEqual(1);
}

interface ScreenSteps {
  /**
   * Opens the screen afresh at each size (e.g. `page.goto`), as a person arriving on a phone
   * does, rather than resizing a screen already drawn for the desktop.
   */
  readonly open?: () => Promise<unknown>;
  /** Waits for the screen to be there. */
  readonly ready: () => Promise<unknown>;
  /** What this screen must show at that size: its content, not only its frame. */
  readonly check?: (size: Size) => Promise<void>;
  /** Undoes what `ready` opened. */
  readonly after?: () => Promise<void>;
}

/**
 * Checks one screen at both sizes: opened, ready, no sideways scroll, its content shown, axe
 * without a serious or critical finding, and a screenshot when asked for.
 */
async function walkScreen(page: Page, name: string, steps: ScreenSteps | (() => Promise<unknown>)): Promise<void> {
  const { open, ready, check, after } = typeof steps === 'function' ? { ready: steps } : steps;
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await open?.();
    await ready();
    await settle(page);
    await expectNoHorizontalScroll(page, `${name} at ${size.width}x${size.height}`);
    await check?.(size);
    await expectNoSeriousA11yViolations(page);
    if (SCREENSHOTS)
      await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${size.width}x${size.height}.png`), fullPage: true });
    await after?.();
  }
}

/** The current tab of the admin portal's bar lies wholly inside the window, whatever the bar's width. */
async function expectCurrentTabInView(page: Page, tabName: string, what: string): Promise<void> {
  const tab = page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: tabName });
  expect(await tab.getAttribute('aria-current'), `${what}: the current tab`).toBe('page');
  const box = await tab.boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) throw new Error(`${what}: no box`);
  expect(box.x, `${what}: left edge of the ${tabName} tab`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what}: right edge of the ${tabName} tab`).toBeLessThanOrEqual(viewport.width);
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
    await walkScreen(page, 'user-login', {
      ready: () => page.getByRole('button', { name: 'Log In', exact: true }).waitFor(),
      check: async (size) => {
        await expectShown(page, page.getByLabel('Username (email)', { exact: true }), 'the email field');
        if (size.name !== 'phone') return;
        // On a phone the form comes first, the brand panel after it.
        const form = await page.getByRole('button', { name: 'Log In', exact: true }).boundingBox();
        const brand = await page.getByRole('heading', { level: 1 }).boundingBox();
        expect(form!.y).toBeLessThan(brand!.y);
      },
    });
    await page.goto(`${stack.webUrl}/signup`);
    await walkScreen(page, 'user-signup', () => page.getByRole('heading', { name: 'Create your account' }).waitFor());
    await page.goto(`${stack.webUrl}/change-password`);
    await walkScreen(page, 'user-forgot-password', () =>
      page.getByRole('button', { name: 'Send Verification Code' }).waitFor(),
    );
    await page.goto(`${stack.webUrl}/verify-reset-code?email=${encodeURIComponent(stack.demo.user.email)}`);
    await walkScreen(page, 'user-reset-code', () =>
      page.getByRole('button', { name: 'Submit', exact: true }).waitFor(),
    );

    await page.setViewportSize(SIZES[0]);
    await problems.signingIn(() => signInAsUser(page, stack));
    const frame = page.frameLocator(`iframe[title="${FRAME_TITLE}"]`);
    await walkScreen(page, 'user-dashboard', {
      open: () => page.goto(`${stack.webUrl}/home`),
      ready: async () => {
        await page.getByLabel('Select Dashboard').waitFor();
        await frame.locator('body').waitFor();
      },
      check: async (size) => {
        await expectShown(page, page.locator(`iframe[title="${FRAME_TITLE}"]`), `the dashboard frame at ${size.name}`);
        // The frame holds the dashboard the picker names: one of the sample dashboards, drawn.
        const chosen = (await page.getByLabel('Select Dashboard').locator('option:checked').textContent()) ?? '';
        expect(chosen).toMatch(SAMPLE_DASHBOARD);
        await frame
          .getByRole('heading', { level: 1, name: chosen, exact: true })
          .waitFor({ timeout: CONTENT_TIMEOUT_MS });
        await expectOneLineHeader(page, 'user portal');
        if (size.name === 'phone') {
          // The toolbar is one row (the view actions in a menu) and the frame fills the rest of the screen: the page
          // itself does not scroll, only the dashboard in its frame.
          const toolbar = page.locator('.dashboard-toolbar');
          const row = await toolbar.evaluate((bar) =>
            [...bar.children].map((child) => Math.round(child.getBoundingClientRect().bottom)),
          );
          expect(new Set(row).size, `toolbar items' bottoms on a phone: ${row.join(', ')}`).toBe(1);
          await expect
            .poll(() =>
              page.evaluate(() => {
                const view = globalThis as unknown as {
                  document: { documentElement: { scrollHeight: number } };
                  innerHeight: number;
                };
                return view.document.documentElement.scrollHeight - view.innerHeight;
              }),
            )
            .toBeLessThanOrEqual(1);
          const box = (await page.locator(`iframe[title="${FRAME_TITLE}"]`).boundingBox())!;
          expect(box.y + box.height).toBeLessThanOrEqual(844);
          expect(box.height).toBeGreaterThan(420);
          await page.getByRole('button', { name: 'More dashboard actions' }).click();
          await expectUnclipped(page, page.getByRole('menu'), 'dashboard actions menu on a phone');
          await page.keyboard.press('Escape');
        }
        await page.getByRole('button', { name: 'Refresh', exact: true }).hover();
        await expectUnclipped(page, page.getByRole('tooltip', { name: 'Refresh dashboard URL' }), 'Refresh tooltip');
        await page.mouse.move(0, 0);
      },
    });
    await walkScreen(page, 'user-account-menu', {
      ready: async () => {
        if ((await page.getByRole('menu').count()) === 0)
          await page.getByRole('button', { name: /Account menu/ }).click();
      },
      check: (size) => expectUnclipped(page, page.getByRole('menu'), `account menu at ${size.name}`),
      after: () => page.keyboard.press('Escape'),
    });
    await page.getByRole('link', { name: 'Support' }).click();
    await walkScreen(page, 'user-support', () => page.getByRole('heading', { name: 'Contact Support' }).waitFor());
    await walkScreen(page, 'user-settings', {
      open: () => page.goto(`${stack.webUrl}/settings`),
      ready: () => page.getByRole('button', { name: 'Send Verification Code' }).waitFor(),
      // The password reset is for the signed-in account, whose email it shows.
      check: async (size) => {
        const email = page.locator('input[readonly]').first();
        await expectShown(page, email, `the account's email at ${size.name}`);
        expect(await email.inputValue()).toBe(stack.demo.user.email);
      },
    });
    await walkScreen(page, 'user-mfa', {
      open: () => page.goto(`${stack.webUrl}/mfa-settings`),
      ready: () => page.getByText('Enabled', { exact: true }).first().waitFor(),
      check: (size) =>
        expectShown(page, page.getByText('Enabled', { exact: true }).first(), `the MFA status at ${size.name}`),
    });

    expect(await problems.list()).toEqual([]);
    await context.close();
  });

  it('the admin portal: sign-in pages, users, dashboards, companies, activity, insights, deliveries, with their menus and dialogs', async () => {
    const context = await browser.newContext({ viewport: SIZES[0] });
    const page = await context.newPage();
    const problems = await watchProblems(context, page, stack.cognito.endpoint);
    const demoUser = stack.demo.user.email;
    const menuOf = (label: string) => page.getByRole('button', { name: `Actions for ${label}`, exact: true });

    await page.goto(`${stack.webUrl}/admin/login`);
    await walkScreen(page, 'admin-login', () => page.getByRole('button', { name: 'Admin Login' }).waitFor());
    await page.goto(`${stack.webUrl}/admin/forgot-password`);
    await walkScreen(page, 'admin-forgot-password', () =>
      page.getByRole('button', { name: 'Send Reset Email' }).waitFor(),
    );

    await page.setViewportSize(SIZES[0]);
    let signedIn = stack.demo.admin;
    await problems.signingIn(async () => {
      signedIn = await signInAsAdmin(page, stack);
    });
    await page.waitForURL(/\/admin\/users$/);
    const usersList = page.getByRole('table', { name: 'All Users', exact: true });
    const userRow = usersList.locator('tbody tr', { hasText: demoUser });
    await walkScreen(page, 'admin-users', {
      open: () => page.goto(`${stack.webUrl}/admin/users`),
      ready: () => page.getByRole('heading', { level: 1, name: 'User Management' }).waitFor(),
      check: async (size) => {
        // The list shows its rows (cards on a phone), not only their count.
        await expectListItem(
          page,
          userRow.getByText(demoUser, { exact: true }),
          menuOf(demoUser),
          `the demo user's row at ${size.name}`,
        );
        await expectShown(
          page,
          usersList.locator('tbody tr', { hasText: signedIn.email }).getByText('Current User'),
          `the signed-in admin's row at ${size.name}`,
        );
        await expectTidyGrid(page.locator('.stat-card'), `user figures at ${size.name}`);
        await expectShown(page, page.getByText('Total Users', { exact: true }), `Total Users at ${size.name}`);
        await expectOneLineHeader(page, `admin header at ${size.name}`);
        const account =
          size.name === 'phone' ? page.getByRole('button', { name: 'Account' }) : page.locator('.admin-account');
        await expectApart(page.locator('.admin-title'), account, `admin title and account controls at ${size.name}`);
        // Every row keeps its actions in one place: the '⋯' button.
        expect(await userRow.getByRole('button').count()).toBe(1);
      },
    });
    await walkScreen(page, 'admin-users-row-menu', {
      ready: async () => {
        if ((await page.getByRole('menu').count()) === 0) await menuOf(demoUser).click();
      },
      check: (size) => expectUnclipped(page, page.getByRole('menu'), `row menu at ${size.name}`),
      after: () => page.keyboard.press('Escape'),
    });
    // The signed-in admin's own row: the menu explains what is not allowed.
    await menuOf(signedIn.email).click();
    const ownDelete = page.getByRole('menuitem', { name: 'Delete', exact: true });
    expect(await ownDelete.getAttribute('aria-disabled')).toBe('true');
    await expectUnclipped(page, page.getByText('Cannot delete your own account'), 'the reason Delete is not allowed');
    await page.keyboard.press('Escape');

    await menuOf(demoUser).click();
    await page.getByRole('menuitem', { name: 'Edit', exact: true }).click();
    const edit = page.getByRole('dialog', { name: 'Edit User' });
    await walkScreen(page, 'admin-edit-user', {
      ready: () => edit.waitFor(),
      check: async () => {
        expect(
          await page.getByLabel('New Password').evaluate((input) => input === input.ownerDocument.activeElement),
        ).toBe(true);
        expect(await edit.locator('input[readonly]').first().inputValue()).toBe(demoUser);
      },
    });
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Add New User' }).click();
    await walkScreen(page, 'admin-add-user', () => page.getByRole('dialog', { name: 'Create New User' }).waitFor());
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Import Users' }).click();
    await walkScreen(page, 'admin-import-users', () => page.getByRole('dialog', { name: 'Import Users' }).waitFor());
    await page.keyboard.press('Escape');

    const cognitoRow = page
      .getByRole('table', { name: 'Cognito Users', exact: true })
      .locator('tbody tr', { hasText: demoUser });
    await walkScreen(page, 'admin-dashboards', {
      open: () => page.goto(`${stack.webUrl}/admin/dashboard`),
      ready: () => page.getByRole('heading', { level: 1, name: 'Cognito Users' }).waitFor(),
      check: async (size) => {
        await expectShown(
          page,
          page.getByRole('heading', { level: 3, name: SAMPLE_DASHBOARD }).first(),
          `a sample dashboard's catalogue card at ${size.name}`,
        );
        await expectListItem(
          page,
          cognitoRow.getByText(demoUser, { exact: true }),
          menuOf(demoUser),
          `the demo user's row at ${size.name}`,
        );
        await expectShown(
          page,
          cognitoRow.getByText('Registered', { exact: true }),
          `the demo user's QuickSight status at ${size.name}`,
        );
        await page.getByText(/^\d+ admins?$/).waitFor();
        expect(await page.getByText(/^1 admins$/).count()).toBe(0);
      },
    });
    const catalogueMenu = page.getByRole('button', { name: /^Actions for dashboard / }).first();
    await walkScreen(page, 'admin-catalogue-menu', {
      ready: async () => {
        if ((await page.getByRole('menu').count()) === 0) await catalogueMenu.click();
      },
      check: (size) => expectUnclipped(page, page.getByRole('menu'), `catalogue card menu at ${size.name}`),
      after: () => page.keyboard.press('Escape'),
    });

    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await menuOf(demoUser).click();
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
      await expectShown(
        page,
        panel.getByRole('checkbox', { name: SAMPLE_DASHBOARD }).first(),
        `a sample dashboard's option at ${size.name}`,
      );
      await expectNoHorizontalScroll(page, `invite dialog at ${size.name}`);
      await expectNoSeriousA11yViolations(page);
      if (SCREENSHOTS)
        await page.screenshot({ path: join(SCREENSHOT_DIR, `admin-invite-picker-${size.width}x${size.height}.png`) });
      await panel.getByRole('button', { name: /^Done/ }).click();
      await expectUnclipped(
        page,
        invite.getByRole('button', { name: 'Invite', exact: true }),
        `Invite at ${size.name}`,
      );
      await page.keyboard.press('Escape');
      await invite.waitFor({ state: 'detached' });
    }

    await menuOf(demoUser).click();
    await page.getByRole('menuitem', { name: 'Dashboards', exact: true }).click();
    const panel = page.getByRole('dialog', { name: `Dashboards for ${demoUser}` });
    await walkScreen(page, 'admin-user-dashboards', {
      ready: () => panel.getByText('Default', { exact: true }).waitFor(),
      check: async (size) => {
        await expectShown(page, panel.getByText('Default', { exact: true }), `the default mark at ${size.name}`);
        await expectShown(
          page,
          panel.getByText(SAMPLE_DASHBOARD).first(),
          `an assigned sample dashboard at ${size.name}`,
        );
      },
    });
    await page.keyboard.press('Escape');

    const companyRow = page
      .getByRole('table', { name: 'Companies', exact: true })
      .locator('tbody tr')
      .filter({ has: page.getByText(DEMO_COMPANY) })
      .first();
    await walkScreen(page, 'admin-companies', {
      open: () => page.goto(`${stack.webUrl}/admin/companies`),
      ready: () => page.getByRole('heading', { level: 1, name: 'Companies' }).waitFor(),
      check: (size) =>
        expectListItem(
          page,
          companyRow.getByText(DEMO_COMPANY),
          companyRow.getByRole('button', { name: /^Actions for / }),
          `a seeded company's row at ${size.name}`,
        ),
    });

    const trail = page.getByRole('region', { name: 'Audit trail' });
    await walkScreen(page, 'admin-activity', {
      open: () => page.goto(`${stack.webUrl}/admin/activity`),
      ready: () => trail.waitFor(),
      // The seed's own steps (catalogue, companies, registrations) were done by the demo admin.
      check: async (size) => {
        await expectCurrentTabInView(page, 'Activity', `Activity at ${size.name}`);
        const entry = trail.locator('tbody tr', { hasText: signedIn.email }).first();
        await expectShown(
          page,
          entry.getByText(signedIn.email, { exact: true }),
          `an audit entry's admin at ${size.name}`,
        );
        await expectShown(page, entry.getByText(/^(Success|Failure)$/), `an audit entry's outcome at ${size.name}`);
      },
    });

    await walkScreen(page, 'admin-insights', {
      open: () => page.goto(`${stack.webUrl}/admin/insights`),
      ready: async () => {
        await page.getByRole('heading', { level: 1, name: 'Insights' }).waitFor();
        await page.getByRole('heading', { name: 'Views per dashboard' }).waitFor();
        // The user figures follow once every user has arrived.
        await page
          .getByText('Users who never viewed a dashboard', { exact: true })
          .waitFor({ timeout: CONTENT_TIMEOUT_MS });
      },
      check: async (size) => {
        await expectCurrentTabInView(page, 'Insights', `Insights at ${size.name}`);
        await expectShown(
          page,
          page.getByText('Dashboard views in range', { exact: true }),
          `the views figure at ${size.name}`,
        );
        await expectTidyGrid(page.locator('.stat-card'), `Insights figures at ${size.name}`);
        await expectShown(
          page,
          page.getByRole('img', { name: /^Views per dashboard/ }),
          `the views chart at ${size.name}`,
        );
        await expectShown(page, page.locator('.recharts-surface').first(), `a drawn chart at ${size.name}`);
        const dashboards = page.getByRole('table', { name: 'Views per dashboard', exact: true });
        await expectShown(
          page,
          dashboards.getByRole('rowheader', { name: SAMPLE_DASHBOARD }).first(),
          `a sample dashboard's row at ${size.name}`,
        );
        const users = page.getByRole('table', { name: 'Users', exact: true });
        await expectShown(
          page,
          users.locator('tbody tr', { hasText: demoUser }).getByText(demoUser, { exact: true }),
          `the demo user's Insights row at ${size.name}`,
          { whole: true },
        );
        // Insights is held to more than the other screens: not even a minor axe finding.
        await expectNoA11yViolations(page, ['minor']);
      },
    });

    // The journeys cancel every subscription they make: the page shows its empty state.
    await walkScreen(page, 'admin-deliveries', {
      open: () => page.goto(`${stack.webUrl}/admin/deliveries`),
      ready: () => page.getByRole('heading', { level: 1, name: 'Deliveries' }).waitFor(),
      check: async (size) => {
        await expectCurrentTabInView(page, 'Deliveries', `Deliveries at ${size.name}`);
        await expectShown(
          page,
          page.getByText('No subscriptions yet', { exact: true }),
          `the Deliveries empty state at ${size.name}`,
        );
      },
    });

    await walkScreen(page, 'admin-account-menu', {
      ready: async () => {
        if (page.viewportSize()?.width === SIZES[1].width && (await page.getByRole('menu').count()) === 0) {
          await page.getByRole('button', { name: 'Account' }).click();
        }
      },
      check: async (size) => {
        if (size.name !== 'phone') return;
        await expectUnclipped(page, page.getByRole('menu'), 'admin account menu on a phone');
        expect(await page.getByRole('menu').getByRole('menuitem', { name: 'Change Password' }).count()).toBe(1);
      },
      after: async () => {
        if ((await page.getByRole('menu').count()) > 0) await page.keyboard.press('Escape');
      },
    });

    await page.setViewportSize(SIZES[0]);
    await page.getByRole('link', { name: 'Change Password' }).click();
    await page.waitForURL(/\/admin\/change-password$/);
    await walkScreen(page, 'admin-change-password', () =>
      page.getByRole('button', { name: 'Send Reset Email' }).waitFor(),
    );

    expect(await problems.list()).toEqual([]);
    await context.close();
  });
});
