/**
 * AWS calls per user journey: the requests the SPA sends for each screen (web/src), driven
 * against the real handlers with Cognito, QuickSight and SES mocked (aws-sdk-client-mock) and
 * DynamoDB served by dynalite, counting every call by API. The capacity model (docs/capacity.md)
 * multiplies these counts by the usage it assumes, so a change that adds a call shows here.
 *
 * Each request starts with an empty live-session cache, as when the browser's requests reach
 * instances that have not seen the token yet (concurrent requests go to separate instances);
 * the "again within the reuse period" journey shows what warm instances save.
 */
import {
  AdminGetUserCommand,
  ListUsersCommand,
  ListUsersInGroupCommand,
  UserNotFoundException,
} from '@aws-sdk/client-cognito-identity-provider';
import {
  DescribeDashboardPermissionsCommand,
  DescribeUserCommand,
  GenerateEmbedUrlForRegisteredUserCommand,
  ListUsersCommand as ListQuickSightUsersCommand,
  UpdateDashboardPermissionsCommand,
} from '@aws-sdk/client-quicksight';
import { EMBED_DASHBOARD_HEADER } from '#contracts/embed.ts';
import { SESSION_CHECK_REUSE_SECONDS } from '#lambdas/shared/auth/session-cache.ts';
import {
  ADMIN,
  directoryUser,
  type Handler,
  invoke,
  lambdaContext,
  loadHandler,
  observeDynamoCommands,
  OTHER_USER,
  quicksightUser,
  type Resolver,
  startHarness,
  USER,
} from '#test/lambdas/support/harness.ts';
import type { BenchRow } from './types.ts';
import { commandNames, tally } from './calls.ts';

/** What one request of a journey sends, and to which function. */
type Step = () => Promise<number>;

/** Already small (three accounts, one request per step), so a smoke run runs the same journeys. */
export async function run(): Promise<BenchRow[]> {
  const h = await startHarness({ POWERTOOLS_LOG_LEVEL: 'SILENT' });
  try {
    const { liveSessions } = await import('#lambdas/shared/auth/caller.ts');
    const dynamoCalls: string[] = [];
    await observeDynamoCommands((command) => dynamoCalls.push(`DynamoDB ${command.replace(/Command$/, '')}`));
    const handlers = {
      graphql: (await loadHandler('graphql')) as Resolver,
      embed: await loadHandler('embed'),
      userAdmin: await loadHandler('user-admin'),
      quicksightAdmin: await loadHandler('quicksight-admin'),
    };

    h.cognito.on(ListUsersCommand).resolves({ Users: [ADMIN, USER, OTHER_USER].map((a) => directoryUser(a)) });
    // An administrator's sign-out of an account first looks up its username (the record of ended sessions).
    h.cognito.on(AdminGetUserCommand).callsFake((input: { Username?: string }) => {
      const known = [ADMIN, USER, OTHER_USER].find((a) => a.email === input.Username || a.username === input.Username);
      if (known === undefined) throw new UserNotFoundException({ message: 'User does not exist.', $metadata: {} });
      return { Username: known.username, Enabled: true, UserStatus: 'CONFIRMED' };
    });
    h.cognito.on(ListUsersInGroupCommand, { GroupName: 'Admins' }).resolves({ Users: [directoryUser(ADMIN)] });
    h.cognito
      .on(ListUsersInGroupCommand, { GroupName: 'Users' })
      .resolves({ Users: [directoryUser(USER), directoryUser(OTHER_USER)] });
    h.quicksight
      .on(ListQuickSightUsersCommand)
      .resolves({ UserList: [ADMIN, USER, OTHER_USER].map((a) => quicksightUser(a.email)) });
    h.quicksight
      .on(DescribeUserCommand)
      .callsFake((input: { UserName?: string }) => ({ User: quicksightUser(input.UserName ?? '') }));
    h.quicksight.on(DescribeDashboardPermissionsCommand).resolves({ Permissions: [] });
    h.quicksight.on(UpdateDashboardPermissionsCommand).resolves({});
    h.quicksight
      .on(GenerateEmbedUrlForRegisteredUserCommand)
      .resolves({ EmbedUrl: 'https://quicksight.example.com/embed/bench', Status: 200, RequestId: 'bench' });

    const view = (id: string, dashboard: string) =>
      h.tables.put('VIEWS_TABLE', {
        id,
        userEmail: USER.email,
        quicksightDashboardId: dashboard,
        name: dashboard,
        link: `https://bi.example.com/${dashboard}`,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      });
    await view('v-sales', 'sales');
    await view('v-stock', 'stock');
    await h.tables.put('STATE_TABLE', { pk: `USER#${USER.email}`, sk: 'DEFAULT', viewId: 'v-sales' });

    const userToken = await h.token(USER);
    const adminToken = await h.token(ADMIN);
    h.accounts.set(OTHER_USER.username, OTHER_USER);

    const listViews: Step = async () => {
      const event = {
        arguments: { filter: { userEmail: { eq: USER.email } } },
        identity: {
          sub: USER.username,
          username: USER.username,
          claims: {},
          groups: USER.groups,
          issuer: 'bench',
          sourceIp: ['127.0.0.1'],
          defaultAuthStrategy: 'ALLOW',
        },
        source: null,
        request: { headers: { authorization: userToken } },
        info: { fieldName: 'listTableauViews', parentTypeName: 'Query', variables: {}, selectionSetList: [] },
        prev: null,
        stash: {},
      };
      const result = (await handlers.graphql(event, lambdaContext())) as { items?: unknown[] } | null;
      return result?.items === undefined ? 500 : 200;
    };
    const embed =
      (dashboardId: string): Step =>
      async () =>
        (
          await invoke(handlers.embed, {
            token: userToken,
            method: 'GET',
            headers: { [EMBED_DASHBOARD_HEADER]: dashboardId },
          })
        ).status;
    const admin =
      (handler: Handler, body: Record<string, unknown>): Step =>
      async () =>
        (await invoke(handler, { token: adminToken, body })).status;
    const users = (body: Record<string, unknown>) => admin(handlers.userAdmin, body);
    const quicksight = (body: Record<string, unknown>) => admin(handlers.quicksightAdmin, body);

    const journeys: { name: string; steps: Step[]; warm?: boolean }[] = [
      { name: 'open the dashboard page', steps: [listViews, embed('sales')] },
      {
        name: `dashboard page again within ${SESSION_CHECK_REUSE_SECONDS} s (warm instances)`,
        steps: [listViews, embed('sales')],
        warm: true,
      },
      { name: 'switch view', steps: [embed('stock')] },
      { name: 'embed URL renewal', steps: [embed('stock')] },
      { name: 'admin users page', steps: [users({ action: 'GET_USERS' })] },
      {
        name: 'admin dashboards page',
        steps: [
          quicksight({ action: 'LIST_COGNITO_USERS_WITH_QUICKSIGHT_STATUS' }),
          quicksight({ action: 'LIST_DASHBOARD_METADATA' }),
        ],
      },
      { name: 'admin activity page', steps: [users({ action: 'GET_AUDIT_LOG', limit: 50 })] },
      {
        name: 'admin insights page (first page of users)',
        steps: [
          quicksight({ action: 'GET_INSIGHTS', from: '2026-03-01', to: '2026-03-30' }),
          quicksight({ action: 'GET_INSIGHT_USERS' }),
        ],
      },
      {
        name: "admin: a user's dashboards",
        steps: [quicksight({ action: 'GET_USER_DASHBOARDS', userEmail: OTHER_USER.email })],
      },
      {
        name: 'admin: invite to a dashboard',
        steps: [
          quicksight({
            action: 'INVITE_TO_DASHBOARD',
            userEmail: OTHER_USER.email,
            dashboardId: 'margins',
            dashboardName: 'Margins',
            dashboardLink: 'https://bi.example.com/margins',
          }),
        ],
      },
      { name: 'admin: disable a user', steps: [users({ action: 'DISABLE_USER', userEmail: OTHER_USER.email })] },
      { name: 'admin: reset MFA', steps: [users({ action: 'RESET_USER_MFA', userEmail: OTHER_USER.email })] },
    ];

    const rows: BenchRow[] = [
      {
        area: 'journey sign-in',
        metric: 'AWS calls (browser to Cognito, not driven)',
        value: 'Cognito InitiateAuth 1, Cognito RespondToAuthChallenge 2 (password verifier, TOTP code)',
      },
    ];
    for (const journey of journeys) {
      h.cognito.resetHistory();
      h.quicksight.resetHistory();
      h.ses.resetHistory();
      dynamoCalls.length = 0;
      const statuses: number[] = [];
      for (const step of journey.steps) {
        if (!journey.warm) liveSessions.clear();
        statuses.push(await step());
      }
      const calls = [
        ...commandNames(h.cognito, 'Cognito '),
        ...commandNames(h.quicksight, 'QuickSight '),
        ...commandNames(h.ses, 'SES '),
        ...dynamoCalls,
      ];
      const ok = statuses.every((status) => status === 200);
      rows.push({
        area: `journey ${journey.name}`,
        metric: `AWS calls (${journey.steps.length} request${journey.steps.length === 1 ? '' : 's'}${ok ? '' : `, statuses ${statuses.join('/')}`})`,
        value: tally(calls),
        ...(ok ? {} : { target: 'every request 200', ok: false, kind: 'count' as const }),
      });
    }
    return rows;
  } finally {
    await h.close();
  }
}
