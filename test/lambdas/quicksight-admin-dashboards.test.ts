import { ListUsersInGroupCommand } from '@aws-sdk/client-cognito-identity-provider';
import {
  DescribeUserCommand,
  QuickSightUserNotFoundException,
  ResourceNotFoundException,
  UpdateDashboardPermissionsCommand,
} from '@aws-sdk/client-quicksight';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dashboardIdExistsMessage } from '#contracts/fields.ts';
import { seedCompany, seedMembership } from './support/companies.ts';
import {
  ACCOUNT_ID,
  ADMIN,
  directoryUser,
  type Handler,
  type Harness,
  invoke,
  loadHandler,
  OTHER_USER,
  quicksightUser,
  startHarness,
  USER,
} from './support/harness.ts';

let h: Harness;
let handler: Handler;
let adminToken: string;

beforeAll(async () => {
  h = await startHarness();
  handler = await loadHandler('quicksight-admin');
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  adminToken = await h.token(ADMIN);
  h.cognito.on(ListUsersInGroupCommand).resolves({ Users: [directoryUser(ADMIN)] });
  h.quicksight
    .on(DescribeUserCommand)
    .callsFake((input: { UserName?: string }) => ({ User: quicksightUser(input.UserName ?? '') }));
  h.quicksight.on(UpdateDashboardPermissionsCommand).resolves({});
});

const call = (body: unknown) => invoke(handler, { token: adminToken, body });
const invite = (dashboardId: string, extra: Record<string, unknown> = {}) =>
  call({
    action: 'INVITE_TO_DASHBOARD',
    userEmail: USER.email,
    dashboardId,
    dashboardName: `Dashboard ${dashboardId}`,
    dashboardLink: `https://bi.example.com/${dashboardId}`,
    ...extra,
  });
const dashboardsOf = async (userEmail: string) =>
  (await call({ action: 'GET_USER_DASHBOARDS', userEmail })).body.dashboards as Record<string, unknown>[];
const permissionChanges = () =>
  h.quicksight.commandCalls(UpdateDashboardPermissionsCommand).map((c) => {
    const input = c.args[0].input;
    return { dashboardId: input.DashboardId, grant: input.GrantPermissions, revoke: input.RevokePermissions };
  });
const viewer = (email: string) => [
  {
    Principal: `arn:aws:quicksight:us-east-2:${ACCOUNT_ID}:user/default/${email}`,
    Actions: ['quicksight:DescribeDashboard', 'quicksight:ListDashboardVersions', 'quicksight:QueryDashboard'],
  },
];

describe('INVITE_TO_DASHBOARD', () => {
  it("grants viewer permission on the dashboard, then creates the view, shown with the user's company and storing none", async () => {
    await seedCompany(h, 'c-acme', 'Acme');
    await seedMembership(h, USER.email, ['c-acme']);
    const res = await invoke(handler, {
      token: adminToken,
      body: {
        action: 'INVITE_TO_DASHBOARD',
        userEmail: 'USER@example.com',
        dashboardId: 'sales',
        dashboardName: 'Sales',
        dashboardLink: 'https://bi.example.com/sales',
        companyName: 'Someone Else',
        makeDefault: false,
        viewId: 'ignored',
      },
    });

    expect(res.status).toBe(200);
    expect(res.body.dashboard).toMatchObject({
      name: 'Sales',
      companyName: 'Acme',
      quicksightDashboardId: 'sales',
      isDefault: false,
    });
    expect(permissionChanges()).toEqual([{ dashboardId: 'sales', grant: viewer(USER.email), revoke: undefined }]);
    expect(await h.tables.views()).toEqual([
      expect.objectContaining({
        userEmail: USER.email,
        quicksightDashboardId: 'sales',
        name: 'Sales',
        createdBy: ADMIN.email,
      }),
    ]);
    // The company is the user's membership (its id): the view holds no copy of its name.
    expect((await h.tables.views())[0]).not.toHaveProperty('companyName');
  });

  it('leaves one view when the same dashboard is invited twice, keeping the first creation time', async () => {
    await invite('sales');
    const [first] = await h.tables.views();
    await invite('sales', { dashboardName: 'Sales (renamed)' });
    const views = await h.tables.views();
    expect(views).toHaveLength(1);
    expect(views[0]).toMatchObject({ name: 'Sales (renamed)', createdAt: first?.createdAt });
  });

  it('makes the invited dashboard the only default', async () => {
    await invite('sales', { makeDefault: true });
    await invite('inventory', { makeDefault: true });
    const dashboards = await dashboardsOf(USER.email);
    expect(dashboards.filter((d) => d.isDefault).map((d) => d.quicksightDashboardId)).toEqual(['inventory']);
  });

  it.each([
    ['ResourceNotFoundException', () => new ResourceNotFoundException({ message: 'no user', $metadata: {} })],
    [
      'QuickSightUserNotFoundException',
      () => new QuickSightUserNotFoundException({ message: 'no user', $metadata: {} }),
    ],
  ])('answers 404 and grants nothing for a user not registered in QuickSight (%s)', async (_name, notFound) => {
    h.quicksight.on(DescribeUserCommand).rejects(notFound());
    const res = await invite('sales');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      error: `User ${USER.email} is not registered in QuickSight`,
      userEmail: USER.email,
    });
    expect(permissionChanges()).toEqual([]);
    expect(await h.tables.views()).toEqual([]);
  });

  it('answers not registered when the user disappears from QuickSight before the grant, and creates no view', async () => {
    h.quicksight
      .on(UpdateDashboardPermissionsCommand)
      .rejects(new QuickSightUserNotFoundException({ message: 'no user', $metadata: {} }));
    const res = await invite('sales');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      error: `User ${USER.email} is not registered in QuickSight`,
      userEmail: USER.email,
    });
    expect(await h.tables.views()).toEqual([]);
  });

  it('answers 404 for a dashboard QuickSight does not have, and creates no view', async () => {
    h.quicksight
      .on(UpdateDashboardPermissionsCommand)
      .rejects(new ResourceNotFoundException({ message: 'no dashboard', $metadata: {} }));
    const res = await invite('missing');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Dashboard missing was not found in QuickSight');
    expect(await h.tables.views()).toEqual([]);
  });

  it.each([
    [{ dashboardId: undefined }, 'Dashboard ID is required', 'dashboardId'],
    [
      { dashboardId: 'has space' },
      'Dashboard ID may contain only letters, digits, hyphens and underscores',
      'dashboardId',
    ],
    [{ dashboardName: ' ' }, 'Dashboard Name is required', 'dashboardName'],
    [{ dashboardLink: 'javascript:alert(1)' }, 'Dashboard Link must be an http(s) URL', 'dashboardLink'],
    [{ userEmail: undefined }, 'User email is required.', 'userEmail'],
    [{ makeDefault: 'yes' }, expect.any(String), 'makeDefault'],
  ])('refuses %j with 400 and changes nothing', async (override, message, field) => {
    const res = await invite('sales', override);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: message, fields: [field] });
    expect(h.quicksight.calls()).toHaveLength(0);
    expect(await h.tables.views()).toEqual([]);
  });
});

describe('REMOVE_FROM_DASHBOARD and SET_DASHBOARD_AS_DEFAULT', () => {
  it('deletes the view, clears the default it held, then revokes the permission', async () => {
    await invite('sales', { makeDefault: true });
    const res = await call({
      action: 'REMOVE_FROM_DASHBOARD',
      userEmail: USER.email,
      dashboardId: 'sales',
      viewId: 'any',
    });
    expect(res.status).toBe(200);
    expect(await h.tables.views()).toEqual([]);
    expect((await h.tables.state()).filter((item) => item.sk === 'DEFAULT')).toEqual([]);
    expect(permissionChanges().at(-1)).toEqual({ dashboardId: 'sales', grant: undefined, revoke: viewer(USER.email) });
  });

  it('moves the default to another assigned dashboard', async () => {
    await invite('sales', { makeDefault: true });
    await invite('inventory');
    const res = await call({ action: 'SET_DASHBOARD_AS_DEFAULT', userEmail: USER.email, dashboardId: 'inventory' });
    expect(res.status).toBe(200);
    const dashboards = await dashboardsOf(USER.email);
    expect(dashboards.map((d) => [d.quicksightDashboardId, d.isDefault])).toEqual([
      ['inventory', true],
      ['sales', false],
    ]);
  });

  it('answers 404 when the dashboard is not assigned to the user', async () => {
    const res = await call({ action: 'SET_DASHBOARD_AS_DEFAULT', userEmail: OTHER_USER.email, dashboardId: 'sales' });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('This dashboard is not assigned to the user');
  });
});

describe('dashboard catalogue', () => {
  const create = (dashboardId: string, extra: Record<string, unknown> = {}) =>
    call({
      action: 'CREATE_DASHBOARD_METADATA',
      dashboardId,
      dashboardName: `Name ${dashboardId}`,
      dashboardLink: `https://bi.example.com/${dashboardId}`,
      ...extra,
    });

  it('creates and lists catalogue entries', async () => {
    const res = await create('sales', { description: 'Monthly sales' });
    expect(res.status).toBe(200);
    expect(res.body.dashboard).toMatchObject({
      dashboardId: 'sales',
      description: 'Monthly sales',
      isActive: true,
      createdBy: ADMIN.email,
    });
    const list = await call({ action: 'LIST_DASHBOARD_METADATA' });
    expect(list.body.dashboards).toEqual([
      expect.objectContaining({ dashboardId: 'sales', dashboardName: 'Name sales' }),
    ]);
  });

  it('lists each entry with the users it is assigned to', async () => {
    await create('sales');
    await create('margins');
    await invite('sales');
    await call({
      action: 'INVITE_TO_DASHBOARD',
      userEmail: OTHER_USER.email,
      dashboardId: 'sales',
      dashboardName: 'Sales',
      dashboardLink: 'https://bi.example.com/sales',
    });

    const list = await call({ action: 'LIST_DASHBOARD_METADATA' });

    expect(list.status).toBe(200);
    const byId = Object.fromEntries((list.body.dashboards as { dashboardId: string }[]).map((d) => [d.dashboardId, d]));
    expect(byId.sales).toMatchObject({ assignedUsers: 2, assignedUserEmails: [OTHER_USER.email, USER.email].sort() });
    expect(byId.margins).toMatchObject({ assignedUsers: 0, assignedUserEmails: [] });
  });

  it('refuses a dashboard ID that differs only in case with the spec message (409)', async () => {
    await create('Sales');
    const res = await create('sales');
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(dashboardIdExistsMessage('sales'));
    expect(await h.tables.dashboards()).toHaveLength(1);
  });

  it('carries a new name and link to every assigned view and counts the users', async () => {
    const created = await create('sales');
    const metadataId = (created.body.dashboard as { id: string }).id;
    await invite('sales');
    await call({
      action: 'INVITE_TO_DASHBOARD',
      userEmail: OTHER_USER.email,
      dashboardId: 'sales',
      dashboardName: 'old',
      dashboardLink: 'https://bi.example.com/old',
    });

    const res = await call({
      action: 'UPDATE_DASHBOARD_METADATA',
      metadataId,
      dashboardId: 'sales',
      dashboardName: 'Sales 2026',
      dashboardLink: 'https://bi.example.com/sales-2026',
      isActive: false,
    });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      updatedUserAssignments: 2,
      dashboard: { dashboardName: 'Sales 2026', isActive: false },
    });
    expect((await h.tables.views()).map((v) => [v.name, v.link])).toEqual([
      ['Sales 2026', 'https://bi.example.com/sales-2026'],
      ['Sales 2026', 'https://bi.example.com/sales-2026'],
    ]);
  });

  it('renames an unassigned entry and frees its old ID', async () => {
    const metadataId = ((await create('sales')).body.dashboard as { id: string }).id;
    const res = await call({
      action: 'UPDATE_DASHBOARD_METADATA',
      metadataId,
      dashboardId: 'revenue',
      dashboardName: 'Revenue',
      dashboardLink: 'https://bi.example.com/revenue',
    });
    expect(res.status).toBe(200);
    expect((await create('SALES')).status).toBe(200);
    expect((await create('Revenue')).status).toBe(409);
  });

  it('refuses to change the ID of a dashboard users have', async () => {
    const metadataId = ((await create('sales')).body.dashboard as { id: string }).id;
    await invite('sales');
    const res = await call({
      action: 'UPDATE_DASHBOARD_METADATA',
      metadataId,
      dashboardId: 'revenue',
      dashboardName: 'Revenue',
      dashboardLink: 'https://bi.example.com/revenue',
    });
    expect(res.status).toBe(409);
    expect((await h.tables.dashboards())[0]).toMatchObject({ dashboardId: 'sales' });
  });

  it('answers 404 for an unknown record', async () => {
    const update = await call({
      action: 'UPDATE_DASHBOARD_METADATA',
      metadataId: 'nope',
      dashboardId: 'x',
      dashboardName: 'X',
      dashboardLink: 'https://bi.example.com/x',
    });
    const remove = await call({ action: 'DELETE_DASHBOARD_METADATA', metadataId: 'nope' });
    expect([update.status, update.body.error, remove.status, remove.body.error]).toEqual([
      404,
      'Dashboard not found',
      404,
      'Dashboard not found',
    ]);
  });

  it('deletes an entry and removes the dashboard from every user (views, then permissions)', async () => {
    const metadataId = ((await create('sales')).body.dashboard as { id: string }).id;
    await invite('sales', { makeDefault: true });
    await call({
      action: 'INVITE_TO_DASHBOARD',
      userEmail: OTHER_USER.email,
      dashboardId: 'sales',
      dashboardName: 'S',
      dashboardLink: 'https://bi.example.com/s',
    });
    await invite('inventory');

    const res = await call({ action: 'DELETE_DASHBOARD_METADATA', metadataId });

    expect(res.status).toBe(200);
    expect(res.body.removedUserAssignments).toBe(2);
    expect((await h.tables.views()).map((v) => v.quicksightDashboardId)).toEqual(['inventory']);
    expect(await h.tables.dashboards()).toEqual([]);
    const revoked = permissionChanges().filter((change) => change.revoke !== undefined);
    expect(revoked.map((change) => change.revoke?.[0]?.Principal).sort()).toEqual(
      [viewer(OTHER_USER.email)[0]?.Principal, viewer(USER.email)[0]?.Principal].sort(),
    );
    expect((await create('sales')).status).toBe(200);
  });

  it.each([
    [
      { action: 'CREATE_DASHBOARD_METADATA', dashboardName: 'X', dashboardLink: 'https://x.example.com' },
      'Dashboard ID is required',
    ],
    [
      { action: 'CREATE_DASHBOARD_METADATA', dashboardId: 'x', dashboardLink: 'https://x.example.com' },
      'Dashboard Name is required',
    ],
    [{ action: 'CREATE_DASHBOARD_METADATA', dashboardId: 'x', dashboardName: 'X' }, 'Dashboard Link is required'],
    [{ action: 'DELETE_DASHBOARD_METADATA' }, 'Record id is required'],
  ])('refuses %j with the field message', async (body, message) => {
    const res = await call(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
    expect(await h.tables.dashboards()).toEqual([]);
  });

  it('audits each catalogue change with its outcome', async () => {
    await create('sales');
    await create('SALES');
    expect((await h.tables.audit()).map((entry) => [entry.action, entry.target, entry.outcome])).toEqual([
      ['CREATE_DASHBOARD_METADATA', 'SALES', 'failure'],
      ['CREATE_DASHBOARD_METADATA', 'sales', 'success'],
    ]);
  });

  it('names a deleted catalogue entry by its dashboard ID in the trail, and by its record id when the deletion fails', async () => {
    const metadataId = ((await create('sales')).body.dashboard as { id: string }).id;
    await call({ action: 'DELETE_DASHBOARD_METADATA', metadataId });
    await call({ action: 'DELETE_DASHBOARD_METADATA', metadataId });
    const deletions = (await h.tables.audit()).filter((entry) => entry.action === 'DELETE_DASHBOARD_METADATA');
    expect(deletions.map((entry) => [entry.target, entry.outcome])).toEqual([
      [metadataId, 'failure'],
      ['sales', 'success'],
    ]);
    expect(deletions[1]?.detail).toMatch(/removed from 0 user\(s\)$/);
  });
});

describe('request rules', () => {
  it.each([
    [{}, 'action is required'],
    [{ action: 'DROP_TABLES' }, 'Unknown action: DROP_TABLES'],
  ])('refuses %j with 400', async (body, message) => {
    const res = await call(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message, fields: ['action'] });
  });
});
