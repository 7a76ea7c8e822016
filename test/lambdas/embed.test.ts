import {
  DescribeUserCommand,
  GenerateEmbedUrlForRegisteredUserCommand,
  QuickSightUserNotFoundException,
  ResourceNotFoundException,
} from '@aws-sdk/client-quicksight';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ACCOUNT_ID,
  type Handler,
  type Harness,
  invoke,
  loadHandler,
  ORIGIN,
  OTHER_USER,
  quicksightUser,
  startHarness,
  USER,
} from './support/harness.ts';

let h: Harness;
let handler: Handler;

beforeAll(async () => {
  h = await startHarness();
  handler = await loadHandler('embed');
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  await h.tables.put('VIEWS_TABLE', {
    id: 'v-sales',
    userEmail: USER.email,
    quicksightDashboardId: 'sales',
    name: 'Sales',
    createdAt: 't',
    updatedAt: 't',
  });
  await h.tables.put('VIEWS_TABLE', {
    id: 'v-other',
    userEmail: OTHER_USER.email,
    quicksightDashboardId: 'secret',
    name: 'Secret',
    createdAt: 't',
    updatedAt: 't',
  });
  h.quicksight
    .on(GenerateEmbedUrlForRegisteredUserCommand)
    .resolves({ EmbedUrl: 'https://quicksight.example.com/embed/abc', Status: 200, RequestId: 'r' });
});
afterEach(() => {
  process.env.EMBED_SESSION_MINUTES = '60';
});

/** RegisteredUserDashboardFeatureConfigurations with the named features on and every other off. */
const withFeatures = (...on: string[]) => {
  const flag = (name: string) => ({ Enabled: on.includes(name) });
  return {
    StatePersistence: flag('StatePersistence'),
    Bookmarks: flag('Bookmarks'),
    SharedView: flag('SharedView'),
    Schedules: flag('Schedules'),
    ThresholdAlerts: flag('ThresholdAlerts'),
    RecentSnapshots: flag('RecentSnapshots'),
    DashboardCustomizationSummary: flag('DashboardCustomizationSummary'),
    AmazonQInQuickSight: { ExecutiveSummary: flag('AmazonQInQuickSight') },
  };
};

const embed = async (dashboardId: string | undefined, extraHeaders: Record<string, string> = {}) =>
  invoke(handler, {
    method: 'GET',
    token: await h.token(USER),
    headers: { ...(dashboardId === undefined ? {} : { 'x-dashboard-id': dashboardId }), ...extraHeaders },
  });

describe('embed function', () => {
  it("returns a URL for the caller's own QuickSight user with the configured lifetime and domains", async () => {
    const before = Date.now();
    const res = await embed('sales', { 'x-quicksight-user': 'someone-else@example.com' });
    expect(res.status).toBe(200);
    expect(res.body.url).toBe('https://quicksight.example.com/embed/abc');
    const expiresAt = Date.parse(String(res.body.sessionExpiresAt));
    expect(expiresAt - before).toBeGreaterThanOrEqual(60 * 60_000);
    expect(expiresAt - before).toBeLessThan(61 * 60_000);
    expect(h.quicksight.commandCalls(GenerateEmbedUrlForRegisteredUserCommand)[0]?.args[0].input).toEqual({
      AwsAccountId: ACCOUNT_ID,
      UserArn: `arn:aws:quicksight:us-east-2:${ACCOUNT_ID}:user/default/${USER.email}`,
      SessionLifetimeInMinutes: 60,
      AllowedDomains: [ORIGIN],
      ExperienceConfiguration: {
        Dashboard: {
          InitialDashboardId: 'sales',
          FeatureConfigurations: withFeatures('StatePersistence', 'Bookmarks'),
        },
      },
    });
    expect(res.headers['access-control-allow-origin'] ?? res.headers['Access-Control-Allow-Origin']).toBe(ORIGIN);
  });

  it('asks for no feature at all where the deployment lists none (dashboardFeatures [], written as none)', async () => {
    process.env.EMBED_DASHBOARD_FEATURES = 'none';
    try {
      const res = await embed('sales');
      expect(res.status).toBe(200);
      expect(res.body.features).toEqual([]);
      const sent = h.quicksight.commandCalls(GenerateEmbedUrlForRegisteredUserCommand)[0]?.args[0].input;
      expect(sent?.ExperienceConfiguration).toEqual({
        Dashboard: { InitialDashboardId: 'sales', FeatureConfigurations: withFeatures() },
      });
    } finally {
      delete process.env.EMBED_DASHBOARD_FEATURES;
    }
  });

  it('asks for exactly the configured dashboard features, says which in its answer, with the caller companies', async () => {
    process.env.EMBED_DASHBOARD_FEATURES = 'Schedules,ThresholdAlerts,AmazonQInQuickSight';
    try {
      const res = await embed('sales');
      expect(res.status).toBe(200);
      expect(res.body.features).toEqual(['Schedules', 'ThresholdAlerts', 'AmazonQInQuickSight']);
      expect(res.body.companies).toEqual([]);
      const sent = h.quicksight.commandCalls(GenerateEmbedUrlForRegisteredUserCommand)[0]?.args[0].input;
      expect(sent?.ExperienceConfiguration?.Dashboard?.FeatureConfigurations).toEqual(
        withFeatures('Schedules', 'ThresholdAlerts', 'AmazonQInQuickSight'),
      );
    } finally {
      delete process.env.EMBED_DASHBOARD_FEATURES;
    }
  });

  it('refuses to run with a feature name QuickSight does not define, before any QuickSight call', async () => {
    process.env.EMBED_DASHBOARD_FEATURES = 'Schedules,Subscriptions';
    try {
      const res = await embed('sales');
      expect(res.status).toBe(500);
      expect(h.quicksight.commandCalls(GenerateEmbedUrlForRegisteredUserCommand)).toHaveLength(0);
    } finally {
      delete process.env.EMBED_DASHBOARD_FEATURES;
    }
  });

  it('refuses a dashboard not assigned to the caller with 403 and makes zero QuickSight calls', async () => {
    const res = await embed('secret');
    expect(res).toMatchObject({ status: 403, body: { error: 'This dashboard is not assigned to you' } });
    expect(h.quicksight.calls()).toHaveLength(0);
  });

  it('answers a clear 404 when the caller is not registered in QuickSight', async () => {
    h.quicksight
      .on(GenerateEmbedUrlForRegisteredUserCommand)
      .rejects(new ResourceNotFoundException({ message: 'no user', $metadata: {} }));
    h.quicksight.on(DescribeUserCommand).rejects(new ResourceNotFoundException({ message: 'no user', $metadata: {} }));
    const res = await embed('sales');
    expect(res).toMatchObject({
      status: 404,
      body: { error: 'Your account is not registered in QuickSight yet. Please contact your administrator.' },
    });
  });

  it('answers the same 404 for QuickSightUserNotFoundException, without another QuickSight call', async () => {
    h.quicksight
      .on(GenerateEmbedUrlForRegisteredUserCommand)
      .rejects(new QuickSightUserNotFoundException({ message: 'no user', $metadata: {} }));
    const res = await embed('sales');
    expect(res).toMatchObject({
      status: 404,
      body: { error: 'Your account is not registered in QuickSight yet. Please contact your administrator.' },
    });
    expect(h.quicksight.commandCalls(DescribeUserCommand)).toHaveLength(0);
  });

  it('says when QuickSight does not have the dashboard', async () => {
    h.quicksight
      .on(GenerateEmbedUrlForRegisteredUserCommand)
      .rejects(new ResourceNotFoundException({ message: 'no dashboard', $metadata: {} }));
    h.quicksight.on(DescribeUserCommand).resolves({ User: quicksightUser(USER.email) });
    const res = await embed('sales');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatch(/^Dashboard sales was not found in QuickSight/);
  });

  it.each([
    [undefined, 'Dashboard ID is required'],
    ['../../etc', 'Dashboard ID may contain only letters, digits, hyphens and underscores'],
  ])('refuses the header %j with 400 naming it', async (dashboardId, message) => {
    const res = await embed(dashboardId);
    expect(res).toMatchObject({ status: 400, body: { error: message, fields: ['x-dashboard-id'] } });
    expect(h.quicksight.calls()).toHaveLength(0);
  });

  it.each([
    ['an IP-address origin', `${ORIGIN},http://127.0.0.1:5173`, 'http://127.0.0.1:5173 is an IP address'],
    ['a non-https origin', `${ORIGIN},http://staging.example.com`, 'http://staging.example.com is not https'],
    [
      'more than three origins',
      `${ORIGIN},https://a.example.com,https://b.example.com,https://c.example.com`,
      '4 origins',
    ],
  ])(
    'names ALLOWED_ORIGINS holding %s QuickSight would refuse, before calling QuickSight',
    async (_case, origins, reason) => {
      const previous = process.env.ALLOWED_ORIGINS;
      process.env.ALLOWED_ORIGINS = origins;
      try {
        const res = await embed('sales');
        expect(res).toMatchObject({ status: 500, body: { missing: ['ALLOWED_ORIGINS'] } });
        expect(String(res.body.reason)).toContain(reason);
        expect(h.quicksight.calls()).toHaveLength(0);
      } finally {
        process.env.ALLOWED_ORIGINS = previous;
      }
    },
  );

  it('sends http://localhost origins as they are', async () => {
    const previous = process.env.ALLOWED_ORIGINS;
    process.env.ALLOWED_ORIGINS = `${ORIGIN},http://localhost:5173`;
    try {
      expect((await embed('sales')).status).toBe(200);
      expect(
        h.quicksight.commandCalls(GenerateEmbedUrlForRegisteredUserCommand)[0]?.args[0].input.AllowedDomains,
      ).toEqual([ORIGIN, 'http://localhost:5173']);
    } finally {
      process.env.ALLOWED_ORIGINS = previous;
    }
  });

  it('names a session lifetime QuickSight would refuse', async () => {
    process.env.EMBED_SESSION_MINUTES = '5';
    const res = await embed('sales');
    expect(res).toMatchObject({ status: 500, body: { missing: ['EMBED_SESSION_MINUTES'] } });
    expect(h.quicksight.calls()).toHaveLength(0);
  });
});

describe('embed session and the portal session', () => {
  const lifetimeSent = () =>
    h.quicksight.commandCalls(GenerateEmbedUrlForRegisteredUserCommand).at(-1)?.args[0].input.SessionLifetimeInMinutes;
  const embedSignedInAgo = async (seconds: number) =>
    invoke(handler, {
      method: 'GET',
      token: await h.token(USER, { signedInAgo: seconds }),
      headers: { 'x-dashboard-id': 'sales' },
    });

  it('never asks QuickSight for a session longer than what is left of the portal session', async () => {
    // ABSOLUTE_SESSION_MINUTES is 720 in the harness: 30 minutes and a half are left.
    const res = await embedSignedInAgo((720 - 30) * 60 - 30);
    expect(res.status).toBe(200);
    expect(lifetimeSent()).toBe(30);
  });

  it("keeps QuickSight's 15-minute floor when less of the portal session is left", async () => {
    expect((await embedSignedInAgo((720 - 5) * 60)).status).toBe(200);
    expect(lifetimeSent()).toBe(15);
  });

  it('refuses a token from a sign-in older than the absolute session lifetime, before any QuickSight call', async () => {
    const res = await embedSignedInAgo(720 * 60 + 5);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ reason: 'sessionLifetimeEnded' });
    expect(h.quicksight.commandCalls(GenerateEmbedUrlForRegisteredUserCommand)).toHaveLength(0);
  });
});
