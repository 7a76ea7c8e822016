import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.ts';
import { fixtureApp, type Fixture } from '../infra/compliance-fixture.ts';

// In the end-to-end project: its global setup installs the Chromium this test opens the report in.
describe('report.html', () => {
  let fixture: Fixture;
  let browser: Browser;
  let file: string;
  beforeAll(async () => {
    fixture = fixtureApp();
    fixture.app.synth();
    file = join(fixture.outdir, 'compliance', 'report.html');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    fixture?.dispose();
  });

  it('is one file with nothing to fetch: no scripts, stylesheets, fonts or images from elsewhere', () => {
    const html = readFileSync(file, 'utf8');
    expect(html).not.toMatch(/<script|<link|@import|url\(|<img|<iframe/i);
  });

  it('opens in Chromium with no console error and no request leaving the file', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('request', (request) => requests.push(request.url()));
    const url = pathToFileURL(file).href;
    await page.goto(url, { waitUntil: 'load' });
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Compliance evidence: Fixture product',
    );
    await expect(page.getByRole('heading', { name: 'IAM access matrix' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('cell', { name: 'lambdas/demo/handler.ts:8 handler()' }).count()).resolves.toBe(1);
    // The contents link to their sections within the page.
    await page.getByRole('link', { name: 'Accepted findings and why' }).click();
    expect(page.url()).toBe(`${url}#acknowledged`);
    expect(errors).toEqual([]);
    expect(requests).toEqual([url]);
    await page.close();
  });
});
