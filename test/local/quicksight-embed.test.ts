import {
  GenerateEmbedUrlForRegisteredUserCommand,
  UpdateDashboardPermissionsCommand,
} from '@aws-sdk/client-quicksight';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dashboardLink, SAMPLE_DASHBOARDS } from '#emulators/quicksight/index.ts';
import { ACCOUNT_ID, VIEWER_ACTIONS, startTestEmulator, userArn, type TestEmulator } from './quicksight-support.ts';

const USER = 'demo.user@example.com';
const PORTAL = 'http://localhost:5173';
const MINUTE = 60_000;

let t: TestEmulator;
beforeEach(async () => {
  t = await startTestEmulator();
  await t.register(USER);
  for (const dashboard of SAMPLE_DASHBOARDS) await t.grantViewer(dashboard.dashboardId, USER);
});
afterEach(async () => {
  await t.close();
});

async function embedUrl(dashboardId = 'sales-performance', options: { lifetime?: number; domains?: string[] } = {}) {
  const result = await t.client.send(
    new GenerateEmbedUrlForRegisteredUserCommand({
      AwsAccountId: ACCOUNT_ID,
      UserArn: userArn(USER),
      SessionLifetimeInMinutes: options.lifetime ?? 60,
      AllowedDomains: options.domains ?? [PORTAL],
      ExperienceConfiguration: { Dashboard: { InitialDashboardId: dashboardId } },
    }),
  );
  if (!result.EmbedUrl) throw new Error('No EmbedUrl');
  return result.EmbedUrl;
}

/** The session cookie a response sets, as a browser would send it back. */
function sessionCookie(response: Response): string {
  const header = response.headers.get('set-cookie') ?? '';
  const pair = header.split(';')[0];
  if (!pair) throw new Error('No cookie set');
  return pair;
}

describe('embed URLs', () => {
  it('opens the dashboard once, titled and showing the viewing user', async () => {
    const url = await embedUrl('distributor-scorecard');
    const first = await fetch(url);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const page = await first.text();
    expect(page).toContain('<title>Distributor Scorecard</title>');
    expect(page).toContain('<h1>Distributor Scorecard</h1>');
    expect(page).toContain(`Viewing as <strong>${USER}</strong>`);
    expect(page).toMatch(/<svg class="chart"[^>]*role="img"/);
    expect(page).toContain('<th scope="col"');

    const second = await fetch(url);
    expect(second.status).toBe(403);
    expect(await second.text()).toContain('This link has expired');
  });

  it('lets only the allowed domains frame the page, with a strict policy otherwise', async () => {
    const response = await fetch(await embedUrl('sales-performance', { domains: [PORTAL, 'https://*.example.com'] }));
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`frame-ancestors ${PORTAL} https://*.example.com`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|https?:\/\/(?!localhost:5173|\*\.example\.com)/);
    const page = await response.text();
    expect(page).not.toMatch(/<script|\sstyle="|\son[a-z]+=/i);
    expect(page).toContain('<link rel="stylesheet" href="/assets/dashboard.css">');
    const stylesheet = await fetch(`${t.emulator.url}/assets/dashboard.css`);
    expect(stylesheet.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await stylesheet.text()).toContain('.kpi');
  });

  it('cannot be framed at all when the URL was made without allowed domains', async () => {
    const response = await fetch(await embedUrl('sales-performance', { domains: [] }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('expires five minutes after it was generated', async () => {
    const stillValid = await embedUrl();
    const late = await embedUrl();
    t.clock.advance(5 * MINUTE);
    expect((await fetch(stillValid)).status).toBe(200);
    t.clock.advance(1);
    const response = await fetch(late);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('This link has expired');
  });

  it('does not spend the one-time code on a HEAD request', async () => {
    const url = await embedUrl();
    expect((await fetch(url, { method: 'HEAD' })).status).toBe(405);
    expect((await fetch(url)).status).toBe(200);
  });

  it('refuses a wrong code and an unknown session as expired links', async () => {
    const url = new URL(await embedUrl());
    url.searchParams.set('code', 'A'.repeat(43));
    expect((await fetch(url)).status).toBe(403);
    const unknown = `${t.emulator.url}/embed/00000000-0000-4000-8000-000000000000/dashboards/sales-performance?code=x`;
    expect(await (await fetch(unknown)).text()).toContain('This link has expired');
  });

  it('sets an HttpOnly session cookie scoped to the embed session for the session lifetime', async () => {
    const url = await embedUrl('sales-performance', { lifetime: 30 });
    const response = await fetch(url);
    const header = response.headers.get('set-cookie') ?? '';
    const sessionId = new URL(url).pathname.split('/')[2];
    expect(header).toMatch(/^qs_embed_session=[A-Za-z0-9_-]{43}; /);
    expect(header).toContain(`Path=/embed/${sessionId}`);
    expect(header).toContain('Max-Age=1800');
    expect(header).toContain('HttpOnly');
    expect(header).toContain('SameSite=Lax');
  });

  it('keeps navigation inside the dashboard working with the session cookie until the session ends', async () => {
    const url = await embedUrl('inventory-margins', { lifetime: 15 });
    const cookie = sessionCookie(await fetch(url));
    const pageUrl = new URL(url);
    pageUrl.search = '?period=6';

    const filtered = await fetch(pageUrl, { headers: { cookie } });
    expect(filtered.status).toBe(200);
    const page = await filtered.text();
    expect(page).toContain('<a href="?period=6" aria-current="page">Last 6 months</a>');
    expect(page).toContain('Jul 2025 \u2013 Dec 2025');

    expect((await fetch(pageUrl)).status).toBe(403);
    t.clock.advance(15 * MINUTE + 1);
    const ended = await fetch(pageUrl, { headers: { cookie } });
    expect(ended.status).toBe(403);
    expect(await ended.text()).toContain('Your dashboard session has ended');
  });

  it('does not open another dashboard with the session of the first', async () => {
    const url = await embedUrl('sales-performance');
    const cookie = sessionCookie(await fetch(url));
    const other = new URL(url);
    other.pathname = other.pathname.replace('sales-performance', 'inventory-margins');
    other.search = '';
    const response = await fetch(other, { headers: { cookie } });
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('Inventory &amp; Margins</h1>');
  });

  it('shows the not-authorized page in the allowed frames for a user without permission', async () => {
    await t.register('no.grant@example.com');
    const result = await t.client.send(
      new GenerateEmbedUrlForRegisteredUserCommand({
        AwsAccountId: ACCOUNT_ID,
        UserArn: userArn('no.grant@example.com'),
        AllowedDomains: [PORTAL],
        ExperienceConfiguration: { Dashboard: { InitialDashboardId: 'sales-performance' } },
      }),
    );
    const response = await fetch(result.EmbedUrl ?? '');
    expect(response.status).toBe(403);
    expect(response.headers.get('content-security-policy')).toContain(`frame-ancestors ${PORTAL}`);
    const page = await response.text();
    expect(page).toContain('<h1>You are not authorized to view this dashboard</h1>');
    expect(page).not.toContain('Viewing as');
  });

  it('checks the permission again when the link is loaded and on later navigation', async () => {
    const revokeViewer = () =>
      t.client.send(
        new UpdateDashboardPermissionsCommand({
          AwsAccountId: ACCOUNT_ID,
          DashboardId: 'sales-performance',
          RevokePermissions: [{ Principal: userArn(USER), Actions: VIEWER_ACTIONS }],
        }),
      );
    const opened = await embedUrl();
    const unopened = await embedUrl();
    const cookie = sessionCookie(await fetch(opened));
    await revokeViewer();

    const denied = await fetch(unopened);
    expect(denied.status).toBe(403);
    const text = await denied.text();
    expect(text).toContain('You are not authorized to view this dashboard');
    expect(text).not.toContain('Viewing as');

    const navigation = new URL(opened);
    navigation.search = '?period=24';
    expect((await fetch(navigation, { headers: { cookie } })).status).toBe(403);
  });
});

describe('dashboard feature configurations', () => {
  const withFeatures = (FeatureConfigurations: unknown) =>
    t.client.send(
      new GenerateEmbedUrlForRegisteredUserCommand({
        AwsAccountId: ACCOUNT_ID,
        UserArn: userArn(USER),
        ExperienceConfiguration: {
          Dashboard: { InitialDashboardId: 'sales-performance', FeatureConfigurations: FeatureConfigurations as never },
        },
      }),
    );

  it('accepts state persistence and bookmarks as the API reference shapes them', async () => {
    const result = await withFeatures({ StatePersistence: { Enabled: true }, Bookmarks: { Enabled: false } });
    expect(result.EmbedUrl).toMatch(/^http/);
  });

  it('records the features turned on, every member of the SDK model included, and shows them in the page', async () => {
    const result = await withFeatures({
      SharedView: { Enabled: true },
      DashboardCustomizationSummary: { Enabled: true },
      AmazonQInQuickSight: { ExecutiveSummary: { Enabled: true } },
      Schedules: { Enabled: false },
    });
    const page = await (await fetch(result.EmbedUrl ?? '')).text();
    expect(page).toContain('<nav class="features" aria-label="Dashboard features">');
    expect([...page.matchAll(/<summary>([^<]+)<\/summary>/g)].map((m) => m[1])).toEqual([
      'Share view',
      'Customization summary',
      'Executive summary',
    ]);
    expect(page).not.toContain('data-feature="Schedules"');
  });

  it('refuses a feature member the SDK model does not define (the SDK client drops such members; a raw call does not)', async () => {
    const response = await fetch(`${t.emulator.url}/accounts/${ACCOUNT_ID}/embed-url/registered-user`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: 'AWS4-HMAC-SHA256 Credential=AKIDLOCAL/20260202/us-east-2/quicksight/aws4_request',
      },
      body: JSON.stringify({
        UserArn: userArn(USER),
        ExperienceConfiguration: {
          Dashboard: {
            InitialDashboardId: 'sales-performance',
            FeatureConfigurations: { Subscriptions: { Enabled: true } },
          },
        },
      }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-amzn-errortype')).toBe('InvalidParameterValueException');
  });

  it.each([
    ['a feature without Enabled', { StatePersistence: {} }],
    ['Enabled that is not a boolean', { Bookmarks: { Enabled: 'yes' } }],
  ])('refuses %s with InvalidParameterValueException', async (_case, features) => {
    await expect(withFeatures(features)).rejects.toMatchObject({ name: 'InvalidParameterValueException' });
  });
});

describe('embed URLs on the site host', () => {
  it('hands out embed URLs on pageHost while the SDK endpoint stays on the listen address', async () => {
    const local = await startTestEmulator(undefined, { pageHost: 'localhost' });
    try {
      const port = new URL(local.emulator.url).port;
      expect(local.emulator.url).toBe(`http://127.0.0.1:${port}`);
      expect(local.emulator.pagesUrl).toBe(`http://localhost:${port}`);
      await local.register(USER);
      await local.grantViewer('sales-performance', USER);
      const result = await local.client.send(
        new GenerateEmbedUrlForRegisteredUserCommand({
          AwsAccountId: ACCOUNT_ID,
          UserArn: userArn(USER),
          AllowedDomains: [PORTAL],
          ExperienceConfiguration: { Dashboard: { InitialDashboardId: 'sales-performance' } },
        }),
      );
      expect(result.EmbedUrl?.startsWith(`http://localhost:${port}/embed/`)).toBe(true);
      // The server listens on 127.0.0.1 only; load the same path there.
      const embedded = new URL(result.EmbedUrl ?? '');
      expect((await fetch(`${local.emulator.url}${embedded.pathname}${embedded.search}`)).status).toBe(200);
    } finally {
      await local.close();
    }
  });
});

describe('pages for people', () => {
  it('serves the console link of each dashboard, explaining it is viewed through the portal', async () => {
    for (const dashboard of SAMPLE_DASHBOARDS) {
      const link = dashboardLink(t.emulator.url, dashboard.dashboardId);
      expect(link).toBe(`${t.emulator.url}/sn/dashboards/${dashboard.dashboardId}`);
      const response = await fetch(link);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      const page = await response.text();
      expect(page).toContain(dashboard.name.replace('&', '&amp;'));
      expect(page).toContain('viewed through the analytics portal');
    }
    expect((await fetch(dashboardLink(t.emulator.url, 'missing'))).status).toBe(404);
  });

  it('describes itself at its root', async () => {
    const page = await (await fetch(`${t.emulator.url}/`)).text();
    expect(page).toContain('Local QuickSight');
    for (const dashboard of SAMPLE_DASHBOARDS) expect(page).toContain(dashboard.dashboardId);
  });
});
