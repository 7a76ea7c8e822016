import {
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  ListUsersInGroupCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import {
  DeleteUserCommand,
  DescribeDashboardPermissionsCommand,
  DescribeUserCommand,
  ThrottlingException,
  UpdateDashboardPermissionsCommand,
} from '@aws-sdk/client-quicksight';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ACCOUNT_ID,
  ADMIN,
  directoryUser,
  type Handler,
  type Harness,
  invoke,
  lambdaContext,
  loadHandler,
  observeDynamoCommands,
  OTHER_USER,
  quicksightUser,
  type Resolver,
  startHarness,
  USER,
} from './support/harness.ts';

/**
 * The data invariants under concurrent calls, against a real (in-memory) DynamoDB with a
 * QuickSight stand-in that keeps dashboard permissions: at most one default view per user;
 * a view exists exactly when its user holds the permission; a failed step leaves nothing a
 * retry cannot finish; the same dashboard assigned twice is one view.
 */
let h: Harness;
let quicksightAdmin: Handler;
let userAdmin: Handler;
let graphql: Resolver;
let adminToken: string;
/** Held permissions, as "<user arn>|<dashboard id>". */
const permissions = new Set<string>();
/** Fails the next DynamoDB call the predicate picks (a step that breaks part-way). */
let failNextWrite: ((command: string, input: Record<string, unknown>) => boolean) | undefined;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const arn = (email: string) => `arn:aws:quicksight:us-east-2:${ACCOUNT_ID}:user/default/${email}`;

beforeAll(async () => {
  h = await startHarness();
  quicksightAdmin = await loadHandler('quicksight-admin');
  userAdmin = await loadHandler('user-admin');
  graphql = (await loadHandler('graphql')) as Resolver;
  await observeDynamoCommands((command, input) => {
    if (failNextWrite?.(command, input)) {
      failNextWrite = undefined;
      throw new Error('injected failure');
    }
  });
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  permissions.clear();
  failNextWrite = undefined;
  adminToken = await h.token(ADMIN);
  h.cognito.on(ListUsersInGroupCommand).resolves({ Users: [directoryUser(ADMIN)] });
  h.quicksight
    .on(DescribeUserCommand)
    .callsFake((input: { UserName?: string }) => ({ User: quicksightUser(input.UserName ?? '') }));
  h.quicksight
    .on(UpdateDashboardPermissionsCommand)
    .callsFake(
      async (input: {
        DashboardId: string;
        GrantPermissions?: { Principal: string }[];
        RevokePermissions?: { Principal: string }[];
      }) => {
        await sleep(Math.random() * 4);
        for (const p of input.GrantPermissions ?? []) permissions.add(`${p.Principal}|${input.DashboardId}`);
        for (const p of input.RevokePermissions ?? []) permissions.delete(`${p.Principal}|${input.DashboardId}`);
        return {};
      },
    );
  h.quicksight.on(DescribeDashboardPermissionsCommand).callsFake((input: { DashboardId: string }) => ({
    Permissions: [...permissions]
      .map((entry) => entry.split('|'))
      .filter(([, dashboardId]) => dashboardId === input.DashboardId)
      .map(([principal]) => ({
        Principal: principal!,
        Actions: ['quicksight:QueryDashboard', 'quicksight:DescribeDashboard', 'quicksight:ListDashboardVersions'],
      })),
  }));
});

const call = (body: Record<string, unknown>) => invoke(quicksightAdmin, { token: adminToken, body });
const invite = (userEmail: string, dashboardId: string, makeDefault = false) =>
  call({
    action: 'INVITE_TO_DASHBOARD',
    userEmail,
    dashboardId,
    dashboardName: dashboardId,
    dashboardLink: `https://bi.example.com/${dashboardId}`,
    makeDefault,
  });
const remove = (userEmail: string, dashboardId: string) =>
  call({ action: 'REMOVE_FROM_DASHBOARD', userEmail, dashboardId });
const viewPairs = async () =>
  new Set((await h.tables.views()).map((v) => `${arn(String(v.userEmail))}|${v.quicksightDashboardId}`));
const expectViewsMatchPermissions = async () =>
  expect([...(await viewPairs())].sort()).toEqual([...permissions].sort());
const defaultsOf = async (userEmail: string) =>
  (
    (await call({ action: 'GET_USER_DASHBOARDS', userEmail })).body.dashboards as { id: string; isDefault: boolean }[]
  ).filter((d) => d.isDefault);

describe('at most one default view per user', () => {
  it('holds when defaults are set concurrently through the function and GraphQL', async () => {
    const dashboards = ['a', 'b', 'c', 'd', 'e'];
    for (const d of dashboards) expect((await invite(USER.email, d)).status).toBe(200);
    const views = (await call({ action: 'GET_USER_DASHBOARDS', userEmail: USER.email })).body.dashboards as {
      id: string;
    }[];
    const userToken = await h.token(USER);
    const viaGraphql = (id: string) =>
      graphql(
        {
          arguments: { input: { id, isDefault: true } },
          request: { headers: { authorization: userToken } },
          info: { fieldName: 'updateTableauView', parentTypeName: 'Mutation', variables: {}, selectionSetList: [] },
        },
        lambdaContext(),
      );

    for (let round = 0; round < 3; round += 1) {
      const outcomes = await Promise.allSettled([
        ...dashboards.map((d) => call({ action: 'SET_DASHBOARD_AS_DEFAULT', userEmail: USER.email, dashboardId: d })),
        ...dashboards.map((d) => invite(USER.email, d, true)),
        ...views.map((v) => viaGraphql(v.id)),
      ]);
      // A GraphQL update racing an assignment of the same view may lose its optimistic lock.
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ name: 'Conflict' });
      }
      expect(await defaultsOf(USER.email)).toHaveLength(1);
      expect((await h.tables.state()).filter((item) => item.sk === 'DEFAULT')).toHaveLength(1);
    }
  });
});

describe('a view exists exactly when the permission does', () => {
  it('holds after many concurrent assignments and removals of the same pairs', async () => {
    const pairs = [USER.email, OTHER_USER.email].flatMap((email) =>
      ['sales', 'stock', 'margin'].map((d) => [email, d] as const),
    );
    const operations = Array.from({ length: 36 }, (_, i) => {
      const [email, dashboard] = pairs[i % pairs.length]!;
      return i % 3 === 1 ? () => remove(email, dashboard) : () => invite(email, dashboard, i % 4 === 0);
    });
    const results = await Promise.all(operations.map((operation) => operation()));
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    await expectViewsMatchPermissions();
    expect(permissions.size).toBeGreaterThan(0);
  });

  it('leaves one view when the same dashboard is assigned twice at once', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => invite(USER.email, 'sales')));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await h.tables.views()).toHaveLength(1);
    await expectViewsMatchPermissions();
  });

  it('keeps one assigned view when assignments race a removal and a re-assignment of the same pair', async () => {
    await invite(USER.email, 'sales');
    const results = await Promise.all([
      invite(USER.email, 'sales'),
      remove(USER.email, 'sales'),
      invite(USER.email, 'sales'),
      invite(USER.email, 'sales'),
    ]);
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect((await h.tables.views()).length).toBeLessThanOrEqual(1);
    expect((await h.tables.state()).filter((item) => String(item.sk).startsWith('ASSIGNED#')).length).toBe(
      (await h.tables.views()).length,
    );
    await expectViewsMatchPermissions();
  });

  it('keeps dashboard IDs unique when differently cased creates race', async () => {
    const results = await Promise.all(
      ['Sales', 'sales', 'SALES', 'sAlEs'].map((dashboardId) =>
        call({
          action: 'CREATE_DASHBOARD_METADATA',
          dashboardId,
          dashboardName: dashboardId,
          dashboardLink: 'https://bi.example.com/s',
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    expect(await h.tables.dashboards()).toHaveLength(1);
  });
});

describe('view ids', () => {
  const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  const viewOf = async (userEmail: string, dashboardId: string) =>
    (await h.tables.views()).filter((v) => v.userEmail === userEmail && v.quicksightDashboardId === dashboardId);
  const viaGraphql = async (who: typeof USER, fieldName: string, args: Record<string, unknown>) =>
    graphql(
      {
        arguments: args,
        request: { headers: { authorization: await h.token(who) } },
        info: { fieldName, parentTypeName: 'Mutation', variables: {}, selectionSetList: [] },
      },
      lambdaContext(),
    );

  it('are random for assigned views: the same pair assigned again keeps its view, assigned after a removal gets a new one', async () => {
    const first = (await invite(USER.email, 'sales')).body.dashboard as { id: string };
    const other = (await invite(OTHER_USER.email, 'sales')).body.dashboard as { id: string };
    expect(first.id).toMatch(UUID_V4);
    expect(other.id).toMatch(UUID_V4);
    expect(((await invite(USER.email, 'sales')).body.dashboard as { id: string }).id).toBe(first.id);
    await remove(USER.email, 'sales');
    expect(
      (await h.tables.state()).filter((item) => String(item.sk).startsWith('ASSIGNED#')).map((item) => item.pk),
    ).toEqual([`USER#${OTHER_USER.email}`]);
    const again = (await invite(USER.email, 'sales')).body.dashboard as { id: string };
    expect(again.id).toMatch(UUID_V4);
    expect(again.id).not.toBe(first.id);
  });

  it("an assignment never adopts a view it did not write, and keeps nothing of a user's own views", async () => {
    await invite(USER.email, 'sales');
    // A view the user made, then the assignment's own view removed by the user.
    const own = (await viaGraphql(USER, 'createTableauView', {
      input: { name: 'Mine', quicksightDashboardId: 'sales' },
    })) as { id: string };
    const assigned = (await viewOf(USER.email, 'sales')).find((v) => v.id !== own.id)!;
    await viaGraphql(USER, 'deleteTableauView', { input: { id: assigned.id } });
    // A planted id is refused outright.
    await expect(
      viaGraphql(USER, 'createTableauView', {
        input: { id: assigned.id, name: 'Planted', quicksightDashboardId: 'sales' },
      }),
    ).rejects.toMatchObject({ name: 'BadRequest' });

    const reassigned = (await invite(USER.email, 'sales')).body.dashboard as { id: string };
    expect(reassigned.id).not.toBe(own.id);
    expect(reassigned.id).not.toBe(assigned.id);
    const views = await viewOf(USER.email, 'sales');
    expect(views.find((v) => v.id === own.id)).toMatchObject({ name: 'Mine', createdBy: USER.email });
    expect(views.find((v) => v.id === reassigned.id)).toMatchObject({ name: 'sales', createdBy: ADMIN.email });
    expect(views.find((v) => v.id === reassigned.id)?.companyName).toBeUndefined();
  });

  it('an admin moving the assigned view elsewhere does not let the next assignment take it back', async () => {
    await invite(USER.email, 'sales');
    await invite(USER.email, 'stock');
    const [assigned] = await viewOf(USER.email, 'sales');
    await viaGraphql(USER, 'createTableauView', { input: { name: 'Second', quicksightDashboardId: 'sales' } });
    // Only an admin may move an admin-made assignment (a Users caller is refused, graphql-security.test.ts).
    await viaGraphql(ADMIN, 'updateTableauView', {
      input: { id: assigned!.id, quicksightDashboardId: 'stock', name: 'Moved' },
    });
    const reassigned = (await invite(USER.email, 'sales')).body.dashboard as { id: string };
    expect(reassigned.id).not.toBe(assigned!.id);
    expect((await h.tables.views()).find((v) => v.id === assigned!.id)).toMatchObject({
      quicksightDashboardId: 'stock',
      name: 'Moved',
    });
  });

  it('a deleted account leaves no assignment claims behind', async () => {
    await invite(USER.email, 'sales');
    await invite(USER.email, 'stock');
    h.cognito.on(AdminGetUserCommand).resolves({ Username: USER.username });
    h.quicksight.on(DeleteUserCommand).resolves({});
    h.cognito.on(AdminDeleteUserCommand).resolves({});
    expect(
      (await invoke(userAdmin, { token: adminToken, body: { action: 'DELETE_USER', userEmail: USER.email } })).status,
    ).toBe(200);
    expect((await h.tables.state()).filter((item) => item.pk === `USER#${USER.email}`)).toEqual([]);
  });
});

describe('a retry finishes what a failure left', () => {
  it('assignment: permission granted, view write failed', async () => {
    failNextWrite = (command, input) =>
      /^Put(Item)?Command$/.test(command) && input.TableName === process.env.VIEWS_TABLE;
    expect((await invite(USER.email, 'sales', true)).status).toBe(500);
    expect(permissions.size).toBe(1);
    expect(await h.tables.views()).toHaveLength(0);

    expect((await invite(USER.email, 'sales', true)).status).toBe(200);
    await expectViewsMatchPermissions();
    expect(await defaultsOf(USER.email)).toHaveLength(1);
  });

  it('removal: view deleted, revoke failed', async () => {
    await invite(USER.email, 'sales');
    let revokes = 0;
    h.quicksight
      .on(UpdateDashboardPermissionsCommand)
      .callsFake((input: { DashboardId: string; RevokePermissions?: { Principal: string }[] }) => {
        revokes += 1;
        if (revokes === 1) throw new ThrottlingException({ message: 'slow down', $metadata: {} });
        for (const p of input.RevokePermissions ?? []) permissions.delete(`${p.Principal}|${input.DashboardId}`);
        return {};
      });
    const failed = await remove(USER.email, 'sales');
    expect(failed.status).toBe(502);
    expect(await h.tables.views()).toHaveLength(0);
    expect(permissions.size).toBe(1);

    expect((await remove(USER.email, 'sales')).status).toBe(200);
    expect(permissions.size).toBe(0);
    await expectViewsMatchPermissions();
  });

  it('catalogue delete: stopped after the first user, finished by the retry', async () => {
    const created = await call({
      action: 'CREATE_DASHBOARD_METADATA',
      dashboardId: 'sales',
      dashboardName: 'Sales',
      dashboardLink: 'https://bi.example.com/s',
    });
    const metadataId = (created.body.dashboard as { id: string }).id;
    await invite(USER.email, 'sales');
    await invite(OTHER_USER.email, 'sales');
    let revokes = 0;
    h.quicksight
      .on(UpdateDashboardPermissionsCommand)
      .callsFake((input: { DashboardId: string; RevokePermissions?: { Principal: string }[] }) => {
        revokes += 1;
        if (revokes === 2) throw new ThrottlingException({ message: 'slow down', $metadata: {} });
        for (const p of input.RevokePermissions ?? []) permissions.delete(`${p.Principal}|${input.DashboardId}`);
        return {};
      });
    expect((await call({ action: 'DELETE_DASHBOARD_METADATA', metadataId })).status).toBe(502);
    expect(await h.tables.dashboards()).toHaveLength(1);

    expect((await call({ action: 'DELETE_DASHBOARD_METADATA', metadataId })).status).toBe(200);
    expect(permissions.size).toBe(0);
    await expectViewsMatchPermissions();
    expect(await h.tables.dashboards()).toHaveLength(0);
    const again = await call({
      action: 'CREATE_DASHBOARD_METADATA',
      dashboardId: 'SALES',
      dashboardName: 'Sales',
      dashboardLink: 'https://bi.example.com/s',
    });
    expect(again.status).toBe(200);
  });

  it('account delete: views and QuickSight user gone, account deletion failed', async () => {
    await invite(USER.email, 'sales');
    h.cognito.on(AdminGetUserCommand).resolves({ Username: USER.username });
    h.quicksight
      .on(DeleteUserCommand)
      .resolvesOnce({})
      .rejects(Object.assign(new Error('gone'), { name: 'ResourceNotFoundException' }));
    h.cognito.on(AdminDeleteUserCommand).rejectsOnce(new Error('network')).resolves({});
    expect(
      (await invoke(userAdmin, { token: adminToken, body: { action: 'DELETE_USER', userEmail: USER.email } })).status,
    ).toBe(502);
    expect(await h.tables.views()).toHaveLength(0);

    const retry = await invoke(userAdmin, {
      token: adminToken,
      body: { action: 'DELETE_USER', userEmail: USER.email },
    });
    expect(retry).toMatchObject({ status: 200, body: { quicksightUser: 'absent' } });
    expect(h.cognito.commandCalls(AdminDeleteUserCommand)).toHaveLength(2);
  });
});
