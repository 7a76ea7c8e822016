import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GenerateEmbedUrlForRegisteredUserCommand } from '@aws-sdk/client-quicksight';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localTlsMaterial } from '#emulators/quicksight/index.ts';
import { punycodeDecode } from '#emulators/quicksight/embed-frame.ts';
import { launchBrowser } from '../e2e/support/browser.ts';
import { ACCOUNT_ID, startTestEmulator, TestClock, userArn, type TestEmulator } from './quicksight-support.ts';

/**
 * The published embedding SDK (amazon-quicksight-embedding-sdk, unmodified) driving the local
 * embed pages in Chromium, as a portal page drives QuickSight: the frame side of its protocol
 * as the SDK's source defines it (https://github.com/awslabs/amazon-quicksight-embedding-sdk,
 * src/experiences and src/common/events), with the error codes its README documents for
 * ERROR_OCCURRED (Forbidden: the URL's code expired or was used).
 */

const USER = 'owner@example.com';
const SDK_BUNDLE = path.resolve('node_modules/amazon-quicksight-embedding-sdk/dist/quicksight-embedding-js-sdk.min.js');

let t: TestEmulator;
let tlsDir: string;
let host: Server;
let hostOrigin: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  tlsDir = await mkdtemp(path.join(tmpdir(), 'qs-embed-tls-'));
  t = await startTestEmulator(new TestClock(Date.now()), {
    pageHost: 'localhost',
    embedPages: { tls: await localTlsMaterial(tlsDir) },
  });
  await t.register(USER);
  await t.grantViewer('sales-performance', USER);
  await t.grantViewer('market-benchmarks', USER);
  const bundle = await readFile(SDK_BUNDLE, 'utf8');
  host = createServer((request, response) => {
    if (request.url === '/sdk.js') {
      response.writeHead(200, { 'Content-Type': 'text/javascript' });
      response.end(bundle);
      return;
    }
    response.writeHead(200, { 'Content-Type': 'text/html' });
    response.end(
      '<!doctype html><html><head><script src="/sdk.js"></script></head><body><div id="container"></div></body></html>',
    );
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostOrigin = `http://localhost:${(host.address() as AddressInfo).port}`;
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (host ? host.close(() => resolve()) : resolve()));
  await t?.close();
  await rm(tlsDir, { recursive: true, force: true });
});

async function embedUrl(dashboardId: string, features: Record<string, unknown> = {}): Promise<string> {
  const result = await t.client.send(
    new GenerateEmbedUrlForRegisteredUserCommand({
      AwsAccountId: ACCOUNT_ID,
      UserArn: userArn(USER),
      AllowedDomains: [hostOrigin],
      ExperienceConfiguration: { Dashboard: { InitialDashboardId: dashboardId, FeatureConfigurations: features } },
    }),
  );
  return result.EmbedUrl ?? '';
}

interface Harness {
  events: { eventName: string; message?: unknown }[];
  experience: Record<string, (...args: unknown[]) => Promise<unknown>>;
}

/** Opens the host page and embeds `url` with the SDK; events land in `window.harness.events`. */
async function embed(url: string): Promise<void> {
  page = await browser.newPage();
  await page.goto(`${hostOrigin}/`);
  await page.evaluate(async (embedUrl) => {
    const sdk = (
      globalThis as unknown as {
        QuickSightEmbedding: {
          createEmbeddingContext: () => Promise<{ embedDashboard: (f: unknown, c: unknown) => Promise<unknown> }>;
        };
      }
    ).QuickSightEmbedding;
    const harness: Harness = { events: [], experience: {} };
    (globalThis as unknown as { harness: Harness }).harness = harness;
    const context = await sdk.createEmbeddingContext();
    harness.experience = (await context.embedDashboard(
      { url: embedUrl, container: '#container', height: '700px' },
      {
        onMessage: (event: { eventName: string; message?: unknown }) =>
          harness.events.push({ eventName: event.eventName, message: event.message }),
      },
    )) as Harness['experience'];
  }, url);
}

const eventCount = (eventName: string) =>
  page.evaluate(
    (name) => (globalThis as unknown as { harness: Harness }).harness.events.filter((e) => e.eventName === name).length,
    eventName,
  );

async function waitForEvent(eventName: string, count = 1) {
  await page.waitForFunction(
    ([name, n]) =>
      (globalThis as unknown as { harness: Harness }).harness.events.filter((e) => e.eventName === name).length >=
      Number(n),
    [eventName, count] as const,
    { timeout: 15_000 },
  );
  return page.evaluate(
    (name) => (globalThis as unknown as { harness: Harness }).harness.events.filter((e) => e.eventName === name).at(-1),
    eventName,
  );
}

const call = (method: string, ...args: unknown[]) =>
  page.evaluate(
    ([name, rest]) =>
      (globalThis as unknown as { harness: Harness }).harness.experience[name as string]!(...(rest as unknown[])),
    [method, args] as const,
  );

function dashboardFrame(): Frame {
  const frame = page.frames().find((f) => f.url().includes('/dashboards/'));
  if (!frame) throw new Error('No dashboard frame');
  return frame;
}

describe('the embedding SDK against the local embed pages', () => {
  it('reports the content loaded with the dashboard title, through a control frame on the embed host', async () => {
    const url = await embedUrl('sales-performance');
    expect(url).toMatch(/^https:\/\/localhost:\d+\/embed\/[^/]+\/dashboards\/sales-performance\?code=/);
    await embed(url);
    expect(await waitForEvent('CONTENT_LOADED')).toEqual({
      eventName: 'CONTENT_LOADED',
      message: { title: 'Sales Performance' },
    });
    const control = page.frames().find((f) => f.url().includes('/embedControl'));
    expect(control?.url()).toContain(new URL(url).origin);
    await page.close();
  }, 30_000);

  it('prints, lists and sets the company parameter, and undoes the change', async () => {
    await embed(await embedUrl('sales-performance'));
    await waitForEvent('CONTENT_LOADED');
    expect(await call('initiatePrint')).toEqual({ success: true });
    await expect.poll(() => dashboardFrame().locator('#frame-status').textContent()).toBe('Print requested');

    const parameters = (await call('getParameters')) as { Name: string; Values: string[] }[];
    expect(parameters).toEqual([{ Name: 'company', Values: [] }]);
    const before = await dashboardFrame().locator('.companies').textContent();
    expect(before?.split(',').length).toBeGreaterThan(1);
    const company = before?.replace('Companies in view: ', '').split(', ')[0] ?? '';

    expect(await call('setParameters', [{ Name: 'company', Values: [company] }])).toEqual({ success: true });
    await waitForEvent('CONTENT_LOADED', 2);
    expect(await dashboardFrame().locator('.companies').textContent()).toBe(`Companies in view: ${company}`);

    expect(await call('undo')).toEqual({ success: true });
    await waitForEvent('CONTENT_LOADED', 3);
    expect(await dashboardFrame().locator('.companies').textContent()).toBe(before);
    expect(await call('redo')).toEqual({ success: true });
    await waitForEvent('CONTENT_LOADED', 4);
    expect(await dashboardFrame().locator('.companies').textContent()).toBe(`Companies in view: ${company}`);
    expect(await call('reset')).toEqual({ success: true });
    await waitForEvent('CONTENT_LOADED', 5);
    expect(await dashboardFrame().locator('.companies').textContent()).toBe(before);
    await page.close();
  }, 60_000);

  it('declares no company parameter on a dashboard whose data is not by company', async () => {
    await embed(await embedUrl('market-benchmarks'));
    await waitForEvent('CONTENT_LOADED');
    expect(await call('getParameters')).toEqual([]);
    await page.close();
  }, 30_000);

  it('reports a reused embed URL as ERROR_OCCURRED with errorCode Forbidden, and no content', async () => {
    const url = await embedUrl('sales-performance');
    await embed(url);
    await waitForEvent('CONTENT_LOADED');
    await page.close();
    await embed(url);
    expect(await waitForEvent('ERROR_OCCURRED')).toEqual({
      eventName: 'ERROR_OCCURRED',
      message: { errorCode: 'Forbidden' },
    });
    expect(await eventCount('CONTENT_LOADED')).toBe(0);
    await page.close();
  }, 30_000);

  it('shows a stand-in for each feature turned on and none for a feature turned off', async () => {
    await embed(
      await embedUrl('sales-performance', {
        Schedules: { Enabled: true },
        ThresholdAlerts: { Enabled: true },
        Bookmarks: { Enabled: false },
      }),
    );
    await waitForEvent('CONTENT_LOADED');
    const features = dashboardFrame().locator('nav[aria-label="Dashboard features"] summary');
    expect(await features.allTextContents()).toEqual(['Schedules', 'Threshold alerts']);
    const dashboardTop = async () => (await dashboardFrame().locator('main.dashboard').boundingBox())?.y;
    const top = await dashboardTop();
    expect(top).toBeDefined();
    expect(await call('toggleSchedulingPane')).toEqual({ success: true });
    await expect
      .poll(() => dashboardFrame().locator('details[data-feature="Schedules"]').getAttribute('open'))
      .toBe('');
    // An open stand-in's explanation and the frame's note of a request open over the dashboard, never pushing it down.
    await expect(dashboardFrame().locator('details[data-feature="Schedules"] p').isVisible()).resolves.toBe(true);
    expect(await call('initiatePrint')).toEqual({ success: true });
    await expect.poll(() => dashboardFrame().locator('#frame-status').textContent()).toBe('Print requested');
    expect(await dashboardTop()).toBe(top);
    expect(await call('toggleBookmarksPane')).toMatchObject({ success: false, errorCode: 'FeatureNotEnabled' });
    await page.close();
  }, 30_000);
});

describe('origin checks of the frames', () => {
  it('decodes the embedding origin as the SDK encodes it (punycode with a trailing slash)', () => {
    expect(punycodeDecode('http://localhost:5173/-')).toBe('http://localhost:5173/');
    expect(punycodeDecode('mnchen-3ya')).toBe('m\u00FCnchen');
  });

  it('gives no frame script to a page opened for an embedding origin the session does not allow', async () => {
    const url = new URL(await embedUrl('sales-performance'));
    url.searchParams.set('punyCodeEmbedOrigin', 'https://evil.example/-');
    url.searchParams.set('contextId', 'c1');
    const pageText = await (await fetchInsecure(url.href)).text();
    expect(pageText).toContain('Sales Performance');
    expect(pageText).not.toContain('<script');
    const control = new URL(
      `/embed/${url.pathname.split('/')[2]}/embedControl?punyCodeEmbedOrigin=https%3A%2F%2Fevil.example%2F-&contextId=c1`,
      url,
    );
    expect((await fetchInsecure(control.href)).status).toBe(404);
    control.searchParams.set('punyCodeEmbedOrigin', `${hostOrigin}/-`);
    const allowed = await fetchInsecure(control.href);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('content-security-policy')).toContain(`frame-ancestors ${hostOrigin}`);
  });
});

/** Node's fetch refuses the self-signed certificate; Chromium's request context is told to accept it. */
async function fetchInsecure(url: string): Promise<{ status: number; text: () => Promise<string>; headers: Headers }> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  try {
    const response = await context.request.get(url);
    const body = await response.text();
    return { status: response.status(), text: async () => body, headers: new Headers(response.headers()) };
  } finally {
    await context.close();
  }
}
