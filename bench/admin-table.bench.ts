/**
 * The admin user table at 100 and at 10,000 users (100 and 200 with `smoke`), in Chromium
 * against a local stack of its own: the time from opening /admin/users (demo admin signed
 * in) to a usable table (the list loaded, rows drawn), how many users it lists, and the time
 * from a search keystroke to the updated table drawn. Users are created straight in the
 * local identity provider, as an active population migrated into the pool would be (signed
 * up, confirmed, in Users; bounded concurrency), on top of the accounts the seed made, which
 * are counted, not assumed. Accounts made outside the portal reach its copy of the directory
 * with a full listing (lambdas/shared/directory.ts): the page's Refresh, timed too. Targets:
 * every account listed (a count), and the open and keystroke figures at the large scale
 * within twice those at the small one.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { findFreePortBase } from '#local/ports.ts';
import type { StackInfo } from '#clients/local-stack.ts';
import { spawnStack } from '#local/stack-process.ts';
import { ensureWebBuilt } from '#local/web-build.ts';
import { signInAsAdmin } from '#test/e2e/support/auth.ts';
import { launchBrowser } from '#test/e2e/support/browser.ts';
import type { BenchOptions, BenchRow } from './types.ts';
import { median } from './median.ts';
import { benchEmails, pickQueries, countAccounts, createAccounts, type Scale } from './admin-table-accounts.ts';

const AREA = 'admin-table';
const FULL: Scale = { sizes: [100, 10_000], openRuns: 3, keystrokeCycles: 3 };
const SMOKE: Scale = { sizes: [100, 200], openRuns: 1, keystrokeCycles: 1 };
const TARGET_RATIO = 2;
/** How long the table may take to appear, or to show a search's rows, before the run fails. */
const OPEN_TIMEOUT_MS = 180_000;
const KEYSTROKE_TIMEOUT_MS = 30_000;
const STACK_READY_TIMEOUT_MS = 300_000;
const TABLE = 'table[aria-label="All Users"]';

/** What the measuring code touches in the page (this file is compiled without the DOM library). */
interface PageElement {
  getAttribute(name: string): string | null;
  querySelector(selector: string): PageElement | null;
}
interface PageWindow {
  document: PageElement & { addEventListener(type: string, listener: () => void, options: object): void };
  requestAnimationFrame(callback: () => void): number;
  MutationObserver: new (callback: () => void) => {
    observe(target: PageElement, options: object): void;
    disconnect(): void;
  };
  benchKeystroke?: Promise<number>;
}

interface Open {
  /** Milliseconds from navigation start to the frame after the table's first rows. */
  readonly ms: number;
  /** The users the table lists (its data-row-count). */
  readonly rows: number;
}

/** What the page shows, for a failure message. */
const pageText = async (page: Page) =>
  (
    await page
      .evaluate(() => (globalThis as unknown as { document: { body: { innerText: string } } }).document.body.innerText)
      .catch(() => '')
  )
    .replace(/\s+/g, ' ')
    .slice(0, 400);

/**
 * Opens /admin/users and waits for a usable table: the table shows once the list has loaded
 * (a spinner stands in before), so its first drawn row marks the end of the open.
 */
async function openTable(page: Page, stack: StackInfo): Promise<Open> {
  await page.goto(`${stack.webUrl}/admin/users`, { waitUntil: 'commit' });
  try {
    await page.waitForFunction(
      (selector) =>
        (globalThis as unknown as PageWindow).document.querySelector(selector)?.querySelector('tbody tr') != null,
      TABLE,
      { timeout: OPEN_TIMEOUT_MS, polling: 'raf' },
    );
  } catch (error) {
    throw new Error(
      `No user table within ${OPEN_TIMEOUT_MS / 1000} s at ${page.url()}; the page shows: ${await pageText(page)}`,
      { cause: error },
    );
  }
  const ms = await page.evaluate(
    () =>
      new Promise<number>((resolve) =>
        (globalThis as unknown as PageWindow).requestAnimationFrame(() => resolve(performance.now())),
      ),
  );
  const rows = Number(await page.locator(TABLE).getAttribute('data-row-count'));
  return { ms, rows };
}

/**
 * Presses the page's Refresh (a full listing of the pool) on an open table and measures, in
 * the page, from the click to the frame after the refresh has ended (the button, which reads
 * "Refreshing..." meanwhile, reads "Refresh" again) with the table listing `expected` users.
 * The table keeps its rows while the listing runs, so the row count alone does not mark the
 * end: when the open already listed every account, it does not change at all. That happens when
 * the copy's first full listing (the admin's landing page after sign-in, on a fresh stack) runs
 * after the accounts were made, as it did once on a loaded machine.
 */
async function refreshTable(page: Page, expected: number): Promise<number> {
  await page.evaluate(
    ([selector, count]) => {
      const win = globalThis as unknown as PageWindow;
      const doc = win.document as unknown as {
        querySelectorAll(selector: string): Iterable<PageElement & { textContent: string | null }>;
      };
      const table = win.document.querySelector(selector)!;
      // The button and the table are watched, not the whole page: the rows drawn meanwhile are not looked at.
      const button = [...doc.querySelectorAll('button')].find((element) => element.textContent?.trim() === 'Refresh')!;
      const started = performance.now();
      let refreshing = false;
      win.benchKeystroke = new Promise((resolve) => {
        // No named function here: the bundler would wrap it in a helper the page does not have.
        const observer = new win.MutationObserver(() => {
          if (button.textContent?.trim() === 'Refreshing...') {
            refreshing = true;
            return;
          }
          if (!refreshing || table.getAttribute('data-row-count') !== String(count)) return;
          observer.disconnect();
          win.requestAnimationFrame(() => resolve(performance.now() - started));
        });
        observer.observe(button, { subtree: true, childList: true, characterData: true });
        observer.observe(table, { attributes: true, attributeFilter: ['data-row-count'] });
      });
    },
    [TABLE, expected] as const,
  );
  await page.getByRole('button', { name: 'Refresh', exact: true }).click();
  try {
    return await Promise.race([
      page.evaluate(() => (globalThis as unknown as PageWindow).benchKeystroke!),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), OPEN_TIMEOUT_MS).unref()),
    ]);
  } catch (error) {
    throw new Error(
      `Refresh did not end with ${expected} users listed within ${OPEN_TIMEOUT_MS / 1000} s; the page shows: ${await pageText(page)}`,
      { cause: error },
    );
  }
}

/**
 * Presses a key in the search box and measures, in the page, from its keydown to the frame
 * after the table shows `expected` rows.
 */
async function keystroke(page: Page, key: string, expected: number): Promise<number> {
  await page.evaluate(
    ([selector, count]) => {
      const win = globalThis as unknown as PageWindow;
      const table = win.document.querySelector(selector)!;
      win.benchKeystroke = new Promise((resolve) => {
        let started = 0;
        win.document.addEventListener('keydown', () => (started = performance.now()), { capture: true, once: true });
        const observer = new win.MutationObserver(() => {
          if (started === 0 || table.getAttribute('data-row-count') !== String(count)) return;
          observer.disconnect();
          win.requestAnimationFrame(() => resolve(performance.now() - started));
        });
        observer.observe(table, { attributes: true, attributeFilter: ['data-row-count'] });
      });
    },
    [TABLE, expected] as const,
  );
  await page.keyboard.press(key);
  const timeout = new Promise<never>((_, reject) => {
    const timer = setTimeout(
      () =>
        void pageText(page).then((text) =>
          reject(
            new Error(
              `The table did not show ${expected} rows within ${KEYSTROKE_TIMEOUT_MS / 1000} s of pressing ${key}; the page shows: ${text}`,
            ),
          ),
        ),
      KEYSTROKE_TIMEOUT_MS,
    );
    timer.unref();
  });
  return Promise.race([page.evaluate(() => (globalThis as unknown as PageWindow).benchKeystroke!), timeout]);
}

interface Figures {
  /** The page's Refresh: a full listing, which brings the accounts made outside the portal into its copy. */
  readonly refreshMs: number;
  readonly openMs: number;
  /** The fewest users any open listed (every open should list them all). */
  readonly listed: number;
  readonly keystrokeMs: number;
  readonly keystrokeMaxMs: number;
}

async function measure(
  page: Page,
  stack: StackInfo,
  scale: Scale,
  total: number,
  present: readonly string[],
  queries: readonly string[],
): Promise<Figures> {
  await openTable(page, stack);
  const refreshMs = await refreshTable(page, total);
  const opens: Open[] = [];
  for (let run = 0; run < scale.openRuns; run += 1) opens.push(await openTable(page, stack));
  const listed = Math.min(...opens.map((open) => open.rows));
  const rowsFor = (query: string) => (query === '' ? total : present.filter((e) => e.includes(query)).length);
  const samples: number[] = [];
  if (listed === total) {
    await page.getByPlaceholder('Search users...').focus();
    for (const query of queries) {
      samples.push(await keystroke(page, query[0]!, rowsFor(query[0]!)));
      samples.push(await keystroke(page, query[1]!, rowsFor(query)));
      samples.push(await keystroke(page, 'Backspace', rowsFor(query[0]!)));
      samples.push(await keystroke(page, 'Backspace', total));
    }
  }
  return {
    refreshMs,
    openMs: median(opens.map((open) => open.ms)),
    listed,
    keystrokeMs: samples.length > 0 ? median(samples) : Number.NaN,
    keystrokeMaxMs: samples.length > 0 ? Math.max(...samples) : Number.NaN,
  };
}

const ms = (value: number) => (Number.isNaN(value) ? 'not measured (users missing)' : `${Math.round(value)} ms`);
const ratio = (large: number, small: number) => `${(large / small).toFixed(2)}x`;

export async function run(options: BenchOptions = { smoke: false }): Promise<BenchRow[]> {
  const scale = options.smoke ? SMOKE : FULL;
  const [smallSize, largeSize] = scale.sizes;
  await ensureWebBuilt({ log: (line) => process.stderr.write(`${line}\n`) });
  const dataDir = await mkdtemp(join(tmpdir(), 'admin-table-bench-'));
  // The first start after a change of the functions synthesizes and bundles them: minutes on a busy machine.
  const stack = await spawnStack({
    dataDir,
    portBase: await findFreePortBase(),
    readyTimeoutMs: STACK_READY_TIMEOUT_MS,
  });
  const browser = await launchBrowser();
  try {
    const seeded = await countAccounts(stack.info);
    const emails = benchEmails(largeSize - seeded);
    const queries = pickQueries(emails, scale, seeded);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signInAsAdmin(page, stack.info);

    const results = new Map<number, Figures>();
    let created = 0;
    let creationMs = 0;
    for (const total of scale.sizes) {
      const started = Date.now();
      await createAccounts(stack.info, emails.slice(created, total - seeded));
      creationMs += Date.now() - started;
      created = total - seeded;
      results.set(total, await measure(page, stack.info, scale, total, emails.slice(0, created), queries));
    }

    const small = results.get(smallSize)!;
    const large = results.get(largeSize)!;
    const label = (total: number) => `${total.toLocaleString('en-US')} users`;
    const opens = scale.openRuns > 1 ? ` (median of ${scale.openRuns})` : '';
    const listedRow = (total: number, figures: Figures): BenchRow => ({
      area: AREA,
      metric: `users listed in the table, ${label(total)}`,
      value: figures.listed.toLocaleString('en-US'),
      target: `= ${total.toLocaleString('en-US')}`,
      ok: figures.listed === total,
      kind: 'count',
    });
    return [
      {
        area: AREA,
        metric: `accounts created (AdminCreateUser, AdminSetUserPassword, AdminAddUserToGroup x${created.toLocaleString('en-US')}, ${seeded} seeded)`,
        value: `${Math.round(creationMs)} ms`,
      },
      listedRow(smallSize, small),
      listedRow(largeSize, large),
      {
        area: AREA,
        metric: `Refresh (full listing of the pool) to table drawn, ${label(smallSize)}`,
        value: ms(small.refreshMs),
      },
      {
        area: AREA,
        metric: `Refresh (full listing of the pool) to table drawn, ${label(largeSize)}`,
        value: ms(large.refreshMs),
      },
      { area: AREA, metric: `open /admin/users to usable table, ${label(smallSize)}${opens}`, value: ms(small.openMs) },
      {
        area: AREA,
        metric: `open /admin/users to usable table, ${label(largeSize)}${opens}`,
        value: `${ms(large.openMs)} (${ratio(large.openMs, small.openMs)})`,
        target: `<= ${TARGET_RATIO}x the ${label(smallSize)} open (${ms(TARGET_RATIO * small.openMs)})`,
        ok: large.openMs <= TARGET_RATIO * small.openMs,
        kind: 'time',
      },
      {
        area: AREA,
        metric: `search keystroke to table drawn, ${label(smallSize)} (median; max ${ms(small.keystrokeMaxMs)})`,
        value: ms(small.keystrokeMs),
      },
      {
        area: AREA,
        metric: `search keystroke to table drawn, ${label(largeSize)} (median; max ${ms(large.keystrokeMaxMs)})`,
        value: `${ms(large.keystrokeMs)} (${ratio(large.keystrokeMs, small.keystrokeMs)})`,
        target: `<= ${TARGET_RATIO}x the ${label(smallSize)} keystroke (${ms(TARGET_RATIO * small.keystrokeMs)})`,
        ok: large.keystrokeMs <= TARGET_RATIO * small.keystrokeMs,
        kind: 'time',
      },
    ];
  } finally {
    await browser.close();
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
