import { DescribeDashboardCommand, ResourceNotFoundException, ThrottlingException } from '@aws-sdk/client-quicksight';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CATALOGUE_MESSAGES } from '#contracts/quicksight-admin.ts';
import {
  ACCOUNT_ID,
  ADMIN,
  type Handler,
  type Harness,
  invoke,
  lambdaContext,
  loadHandler,
  type Resolver,
  startHarness,
} from './support/harness.ts';

/** QuickSight as it answers DescribeDashboard: the sample dashboards exist, any other ID is not found. */
const KNOWN = new Set(['sales-performance']);

let h: Harness;
let quicksightAdmin: Handler;
let graphql: Resolver;

beforeAll(async () => {
  h = await startHarness();
  quicksightAdmin = await loadHandler('quicksight-admin');
  graphql = (await loadHandler('graphql')) as Resolver;
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  h.quicksight.on(DescribeDashboardCommand).callsFake((input: { DashboardId?: string }) => {
    if (!KNOWN.has(input.DashboardId ?? '')) {
      throw new ResourceNotFoundException({ message: `Dashboard ${input.DashboardId} is not found`, $metadata: {} });
    }
    return { Dashboard: { DashboardId: input.DashboardId } };
  });
});

const entry = (dashboardId: string) => ({
  dashboardId,
  dashboardName: 'Sales',
  dashboardLink: `https://bi.example.com/${dashboardId}`,
});
const create = async (dashboardId: string) =>
  invoke(quicksightAdmin, {
    token: await h.token(ADMIN),
    body: { action: 'CREATE_DASHBOARD_METADATA', ...entry(dashboardId) },
  });
const catalogue = async () => (await h.tables.scan('DASHBOARDS_TABLE')).map((item) => item.dashboardId);

describe('CREATE_DASHBOARD_METADATA checks the dashboard with QuickSight', () => {
  it('refuses an ID QuickSight does not have, naming it, and stores nothing', async () => {
    const res = await create('no-such-dashboard');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(CATALOGUE_MESSAGES.unknownDashboard('no-such-dashboard'));
    expect(res.body.error).toContain('"no-such-dashboard"');
    expect(await catalogue()).toEqual([]);
    expect(h.quicksight.commandCalls(DescribeDashboardCommand).map((c) => c.args[0].input)).toEqual([
      { AwsAccountId: ACCOUNT_ID, DashboardId: 'no-such-dashboard' },
    ]);
  });

  it('creates the entry for a dashboard QuickSight has', async () => {
    const res = await create('sales-performance');
    expect(res.status).toBe(200);
    expect(await catalogue()).toEqual(['sales-performance']);
  });

  it('refuses while QuickSight cannot answer, rather than storing an unchecked entry', async () => {
    h.quicksight
      .on(DescribeDashboardCommand)
      .rejects(new ThrottlingException({ message: 'Rate exceeded', $metadata: {} }));
    const res = await create('sales-performance');
    expect(res.status).toBe(502);
    expect(res.body.error).toBe('Failed to check the dashboard in QuickSight');
    expect(await catalogue()).toEqual([]);
  });
});

describe('GraphQL createDashboardMetadata checks the dashboard with QuickSight', () => {
  const gql = async (input: Record<string, unknown>) =>
    graphql(
      {
        arguments: { input },
        identity: {
          sub: ADMIN.username,
          username: ADMIN.username,
          claims: {},
          groups: ADMIN.groups,
          issuer: 'x',
          sourceIp: ['127.0.0.1'],
          defaultAuthStrategy: 'ALLOW',
        },
        source: null,
        request: { headers: { authorization: await h.token(ADMIN) } },
        info: { fieldName: 'createDashboardMetadata', parentTypeName: 'Mutation', variables: {}, selectionSetList: [] },
        prev: null,
        stash: {},
      },
      lambdaContext(),
    );

  it('refuses an ID QuickSight does not have, naming it', async () => {
    await expect(gql(entry('no-such-dashboard'))).rejects.toMatchObject({
      message: CATALOGUE_MESSAGES.unknownDashboard('no-such-dashboard'),
    });
    expect(await catalogue()).toEqual([]);
    expect(await gql(entry('sales-performance'))).toMatchObject({ dashboardId: 'sales-performance' });
    expect(await catalogue()).toEqual(['sales-performance']);
  });
});
