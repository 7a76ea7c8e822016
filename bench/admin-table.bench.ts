/**
 * The admin user table at 100 and at 10,000 users, in Chromium against a local stack of its
 * own: the time from opening /admin/users (demo admin signed in) to a usable table (every
 * user loaded, rows drawn), and the time from a search keystroke to the updated table drawn.
 * Users are created straight in the local identity provider (AdminCreateUser, bounded
 * concurrency). Target: the keystroke figure at 10,000 within twice that at 100.
 */
import { AdminCreateUserCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { findFreePortBase } from '../local/ports.ts';
import type { StackInfo } from '../local/stack-info.ts';
import { spawnStack } from '../local/stack-process.ts';
import { ensureWebBuilt } from '../local/web-build.ts';
import { signInAsAdmin } from '../test/e2e/support/auth.ts';
import { launchBrowser } from '../test/e2e/support/browser.ts';
import type { BenchRow } from './types.ts';

const AREA = 'admin-table';
const SCALES = [100, 10_000] as const;
const CREATE_CONCURRENCY = 16;
const OPEN_RUNS = 3;
const KEYSTROKE_CYCLES = 3;
/** Accounts the seed creates (demo admin and demo user). */
const SEEDED_ACCOUNTS = 2;
/**
 * Letters that occur in no seeded address, in no UUID (the usernames) and not in
 * 'bench' or 'example.com', so a query of them matches bench accounts by their code only.
 */
const CODE_LETTERS = 'gjkqtvwyz';
const CODE_LENGTH = 6;

/** A deterministic pseudo-random sequence (mulberry32), so every run creates the same accounts. */
function randomSequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function benchEmails(count: number): string[] {
  const next = randomSequence(2026);
  const codes = new Set<string>();
  while (codes.size < count) {
    codes.add(Array.from({ length: CODE_LENGTH }, () => CODE_LETTERS[Math.floor(next() * CODE_LETTERS.length)]).join(''));
  }
  return [...codes].map((code) => `bench.${code}@example.com`);
}

/** Searches whose every keystroke changes the number of rows at both scales: 'a', 'ab', back to 'a', back to ''. */
function pickQueries(emails: readonly string[]): string[] {
  const counts = (query: string, total: number) => emails.slice(0, total - SEEDED_ACCOUNTS).filter((e) => e.includes(query)).length;
  const chosen: string[] = [];
  for (const first of CODE_LETTERS) {
    for (const second of CODE_LETTERS) {
      const pair = `${first}${second}`;
      const good = SCALES.every((total) => {
        const [one, two] = [counts(first, total), counts(pair, total)];
        return two > 0 && two < one && one < total;
      });
      if (good && !chosen.some((q) => q[0] === first)) chosen.push(pair);
    }
    if (chosen.length === KEYSTROKE_CYCLES) return chosen;
  }
  throw new Error('No search queries narrow the table at both scales');
}

async function createAccounts(stack: StackInfo, emails: readonly string[]): Promise<void> {
  const cognito = new CognitoIdentityProviderClient({
    endpoint: stack.cognito.endpoint,
    region: stack.region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  let index = 0;
  const worker = async () => {
    while (index < emails.length) {
      const email = emails[index++]!;
      await cognito.send(
        new AdminCreateUserCommand({
          UserPoolId: stack.cognito.userPoolId,
          Username: email,
          TemporaryPassword: 'Bench#Passw0rd',
          MessageAction: 'SUPPRESS',
          UserAttributes: [
            { Name: 'email', Value: email },
            { Name: 'email_verified', Value: 'true' },
          ],
        }),
      );
    }
  };
  try {
    await Promise.all(Array.from({ length: CREATE_CONCURRENCY }, worker));
  } finally {
    cognito.destroy();
  }
}

const TABLE = 'table[aria-label="All Users"]';

/** What the measuring code touches in the page (this file is compiled without the DOM library). */
interface PageElement {
  getAttribute(name: string): string | null;
  querySelector(selector: string): PageElement | null;
}
interface PageWindow {
  document: PageElement & { addEventListener(type: string, listener: () => void, options: object): void };
  requestAnimationFrame(callback: () => void): number;
  MutationObserver: new (callback: () => void) => { observe(target: PageElement, options: object): void; disconnect(): void };
  benchKeystroke?: Promise<number>;
}

/** Milliseconds from navigation start to the table showing all `total` users. */
async function openTable(page: Page, stack: StackInfo, total: number): Promise<number> {
  await page.goto(`${stack.webUrl}/admin/users`, { waitUntil: 'commit' });
  await page.waitForFunction(
    ([selector, count]) => {
      const table = (globalThis as unknown as PageWindow).document.querySelector(selector);
      return table?.getAttribute('data-row-count') === String(count) && table.querySelector('tbody tr[aria-rowindex]') !== null;
    },
    [TABLE, total] as const,
    { timeout: 180_000, polling: 'raf' },
  );
  return page.evaluate(
    () => new Promise<number>((resolve) => (globalThis as unknown as PageWindow).requestAnimationFrame(() => resolve(performance.now()))),
  );
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
  return page.evaluate(() => (globalThis as unknown as PageWindow).benchKeystroke!);
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

interface Figures {
  readonly openMs: number;
  readonly keystrokeMs: number;
  readonly keystrokeMaxMs: number;
}

async function measure(page: Page, stack: StackInfo, total: number, emails: readonly string[], queries: readonly string[]): Promise<Figures> {
  const opens: number[] = [];
  for (let run = 0; run < OPEN_RUNS; run += 1) opens.push(await openTable(page, stack, total));
  const present = emails.slice(0, total - SEEDED_ACCOUNTS);
  const rowsFor = (query: string) => (query === '' ? total : present.filter((e) => e.includes(query)).length);
  await page.getByPlaceholder('Search users...').focus();
  const samples: number[] = [];
  for (const query of queries) {
    samples.push(await keystroke(page, query[0]!, rowsFor(query[0]!)));
    samples.push(await keystroke(page, query[1]!, rowsFor(query)));
    samples.push(await keystroke(page, 'Backspace', rowsFor(query[0]!)));
    samples.push(await keystroke(page, 'Backspace', total));
  }
  return { openMs: median(opens), keystrokeMs: median(samples), keystrokeMaxMs: Math.max(...samples) };
}

const ms = (value: number) => `${Math.round(value)} ms`;

export async function run(): Promise<BenchRow[]> {
  await ensureWebBuilt({ log: (line) => process.stderr.write(`${line}\n`) });
  const dataDir = await mkdtemp(join(tmpdir(), 'admin-table-bench-'));
  const stack = await spawnStack({ dataDir, portBase: await findFreePortBase() });
  const browser = await launchBrowser();
  try {
    const emails = benchEmails(SCALES[SCALES.length - 1]! - SEEDED_ACCOUNTS);
    const queries = pickQueries(emails);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signInAsAdmin(page, stack.info);

    const results = new Map<number, Figures>();
    let created = 0;
    let creationMs = 0;
    for (const total of SCALES) {
      const started = Date.now();
      await createAccounts(stack.info, emails.slice(created, total - SEEDED_ACCOUNTS));
      creationMs += Date.now() - started;
      created = total - SEEDED_ACCOUNTS;
      results.set(total, await measure(page, stack.info, total, emails, queries));
    }

    const small = results.get(SCALES[0])!;
    const large = results.get(SCALES[1])!;
    const label = (total: number) => `${total.toLocaleString('en-US')} users`;
    return [
      { area: AREA, metric: `accounts created (AdminCreateUser x${created.toLocaleString('en-US')})`, value: ms(creationMs) },
      { area: AREA, metric: `open /admin/users to usable table, ${label(SCALES[0])} (median of ${OPEN_RUNS})`, value: ms(small.openMs) },
      { area: AREA, metric: `open /admin/users to usable table, ${label(SCALES[1])} (median of ${OPEN_RUNS})`, value: ms(large.openMs) },
      { area: AREA, metric: `search keystroke to table drawn, ${label(SCALES[0])} (median; max ${ms(small.keystrokeMaxMs)})`, value: ms(small.keystrokeMs) },
      {
        area: AREA,
        metric: `search keystroke to table drawn, ${label(SCALES[1])} (median; max ${ms(large.keystrokeMaxMs)})`,
        value: ms(large.keystrokeMs),
        target: `<= 2x the ${label(SCALES[0])} figure (${ms(2 * small.keystrokeMs)})`,
        ok: large.keystrokeMs <= 2 * small.keystrokeMs,
      },
    ];
  } finally {
    await browser.close();
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
