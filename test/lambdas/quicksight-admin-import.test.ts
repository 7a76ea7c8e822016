import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  UserNotFoundException,
  UsernameExistsException,
} from '@aws-sdk/client-cognito-identity-provider';
import {
  AccessDeniedException,
  CreateGroupMembershipCommand,
  DeleteGroupMembershipCommand,
  DeleteUserCommand,
  DescribeUserCommand,
  ListUserGroupsCommand,
  RegisterUserCommand,
  ResourceNotFoundException,
  UpdateDashboardPermissionsCommand,
} from '@aws-sdk/client-quicksight';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COMPANY_MESSAGES } from '#contracts/companies.ts';
import { IMPORT_MESSAGES } from '#contracts/user-import.ts';
import { groupNameOf, seedCompany } from './support/companies.ts';
import {
  ADMIN,
  type Handler,
  type Harness,
  invoke,
  loadHandler,
  OTHER_ADMIN,
  quicksightUser,
  startHarness,
  USER,
} from './support/harness.ts';

let h: Harness;
let handler: Handler;
let adminToken: string;
/** Accounts the mocked Cognito holds (by email) and users the mocked QuickSight has registered. */
let accounts: Set<string>;
let registered: Set<string>;
/** QuickSight group memberships, as `group member`. */
let memberships: Set<string>;

const NEW = 'new.person@example.com';

const catalogueEntry = (dashboardId: string, name: string, isActive = true) => ({
  id: `record-${dashboardId}`,
  dashboardId,
  dashboardName: name,
  dashboardLink: `https://bi.example.com/${dashboardId}`,
  isActive,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

beforeAll(async () => {
  h = await startHarness();
  handler = await loadHandler('quicksight-admin');
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  adminToken = await h.token(ADMIN);
  accounts = new Set([ADMIN.email, USER.email]);
  registered = new Set();
  memberships = new Set();
  await seedCompany(h, 'c-acme', 'Acme Components');
  h.quicksight.on(CreateGroupMembershipCommand).callsFake((input: { GroupName: string; MemberName: string }) => {
    if (!registered.has(input.MemberName))
      throw new ResourceNotFoundException({ message: 'user not found', $metadata: {} });
    memberships.add(`${input.GroupName} ${input.MemberName}`);
    return {};
  });
  h.quicksight.on(ListUserGroupsCommand).callsFake((input: { UserName: string }) => {
    if (!registered.has(input.UserName)) throw new ResourceNotFoundException({ message: 'not found', $metadata: {} });
    const groups = [...memberships].flatMap((entry) => {
      const [group, member] = entry.split(' ');
      return member === input.UserName ? [{ GroupName: group }] : [];
    });
    return { GroupList: groups };
  });
  h.quicksight.on(DeleteGroupMembershipCommand).callsFake((input: { GroupName: string; MemberName: string }) => {
    if (!memberships.delete(`${input.GroupName} ${input.MemberName}`))
      throw new ResourceNotFoundException({ message: 'not a member', $metadata: {} });
    return {};
  });
  h.groupMembers('Admins', [ADMIN, OTHER_ADMIN]);
  h.cognito.on(AdminGetUserCommand).callsFake((input: { Username: string }) => {
    if (!accounts.has(input.Username))
      throw new UserNotFoundException({ message: 'User does not exist.', $metadata: {} });
    return { Username: input.Username, UserStatus: 'CONFIRMED' };
  });
  h.cognito.on(AdminCreateUserCommand).callsFake((input: { Username: string; MessageAction?: string }) => {
    if (input.MessageAction === 'RESEND') return { User: { Username: input.Username } };
    if (accounts.has(input.Username)) throw new UsernameExistsException({ message: 'exists', $metadata: {} });
    accounts.add(input.Username);
    return { User: { Username: `sub-${input.Username}`, UserStatus: 'FORCE_CHANGE_PASSWORD' } };
  });
  h.cognito.on(AdminDeleteUserCommand).callsFake((input: { Username: string }) => {
    accounts.delete(input.Username);
    return {};
  });
  h.quicksight.on(DescribeUserCommand).callsFake((input: { UserName: string }) => {
    if (!registered.has(input.UserName)) throw new ResourceNotFoundException({ message: 'not found', $metadata: {} });
    return { User: quicksightUser(input.UserName) };
  });
  h.quicksight.on(RegisterUserCommand).callsFake((input: { UserName: string }) => {
    registered.add(input.UserName);
    return { User: quicksightUser(input.UserName) };
  });
  h.quicksight.on(DeleteUserCommand).callsFake((input: { UserName: string }) => {
    registered.delete(input.UserName);
    return {};
  });
  h.quicksight.on(UpdateDashboardPermissionsCommand).resolves({});
  for (const entry of [
    catalogueEntry('sales-performance', 'Sales'),
    catalogueEntry('inventory-margins', 'Inventory'),
    catalogueEntry('retired', 'Old', false),
  ]) {
    await h.tables.put('DASHBOARDS_TABLE', entry);
  }
});

const call = (body: unknown, token = adminToken) => invoke(handler, { token, body });
const row = (fields: Record<string, unknown> = {}) => ({
  action: 'IMPORT_USER',
  userEmail: NEW,
  companyName: 'Acme Components',
  dashboards: ['sales-performance', 'Inventory-Margins'],
  defaultDashboard: 'inventory-margins',
  ...fields,
});

const cognitoCommands = () => h.cognito.calls().map((c) => c.args[0].constructor.name.replace(/Command$/, ''));
const stateOf = async () => ({
  views: await h.tables.views(),
  state: await h.tables.state(),
  accounts: [...accounts].sort(),
  registered: [...registered],
  memberships: [...memberships],
});

describe('IMPORT_USER', () => {
  it('creates the account, groups it, registers it as READER, assigns the dashboards with the default, then sends the invitation', async () => {
    const res = await call(row());
    expect(res).toMatchObject({
      status: 200,
      body: { outcome: 'created', message: IMPORT_MESSAGES.created, userEmail: NEW },
    });
    const creates = h.cognito.commandCalls(AdminCreateUserCommand).map((c) => c.args[0].input);
    expect(creates).toEqual([
      expect.objectContaining({ Username: NEW, MessageAction: 'SUPPRESS', DesiredDeliveryMediums: ['EMAIL'] }),
      expect.objectContaining({ Username: NEW, MessageAction: 'RESEND' }),
    ]);
    expect(creates[0]).not.toHaveProperty('TemporaryPassword');
    expect(h.cognito.commandCalls(AdminAddUserToGroupCommand).map((c) => c.args[0].input.GroupName)).toEqual(['Users']);
    expect(h.quicksight.commandCalls(RegisterUserCommand)[0]?.args[0].input).toMatchObject({
      UserName: NEW,
      UserRole: 'READER',
      IdentityType: 'QUICKSIGHT',
    });
    const views = await h.tables.views();
    expect(views.map((view) => [view.quicksightDashboardId, view.name]).sort()).toEqual([
      ['inventory-margins', 'Inventory'],
      ['sales-performance', 'Sales'],
    ]);
    // The views hold no company: the user's membership does, and the assignments show its name.
    expect(views.filter((view) => 'companyName' in view)).toEqual([]);
    const shown = await call({ action: 'GET_USER_DASHBOARDS', userEmail: NEW });
    expect((shown.body.dashboards as { companyName: string | null }[]).map((view) => view.companyName)).toEqual([
      'Acme Components',
      'Acme Components',
    ]);
    const defaultPointer = (await h.tables.state()).find((item) => item.sk === 'DEFAULT');
    expect(defaultPointer?.viewId).toBe(views.find((view) => view.quicksightDashboardId === 'inventory-margins')?.id);
    expect(await h.tables.audit()).toEqual([
      expect.objectContaining({
        action: 'IMPORT_USER',
        target: NEW,
        outcome: 'success',
        detail:
          'bulk import: role Users; dashboards sales-performance, Inventory-Margins; default inventory-margins; company Acme Components; invitation sent',
      }),
    ]);
  });

  it("puts the new QuickSight user in the company's group and records the company", async () => {
    const res = await call(row({ companyName: 'acme COMPONENTS' }));
    expect(res.body.outcome).toBe('created');
    expect([...memberships]).toEqual([`${groupNameOf('c-acme')} ${NEW}`]);
    expect((await h.tables.state()).find((item) => item.pk === 'MEMBERSHIP' && item.sk === NEW)).toMatchObject({
      companyIds: ['c-acme'],
      owner: false,
    });
    // The assignments show the company's own spelling.
    const shown = await call({ action: 'GET_USER_DASHBOARDS', userEmail: NEW });
    expect((shown.body.dashboards as { companyName: string | null }[]).map((view) => view.companyName)).toEqual([
      'Acme Components',
      'Acme Components',
    ]);
  });

  it('refuses a company the portal does not have with 400 naming it, before anything is written', async () => {
    const before = await stateOf();
    const res = await call(row({ companyName: 'Globex' }));
    expect(res).toMatchObject({ status: 400, body: { error: COMPANY_MESSAGES.unknownCompany('Globex') } });
    expect(h.cognito.commandCalls(AdminCreateUserCommand)).toHaveLength(0);
    expect(await stateOf()).toEqual(before);
  });

  it('takes the user out of the company group again when a later step fails', async () => {
    h.quicksight
      .on(UpdateDashboardPermissionsCommand)
      .rejects(new AccessDeniedException({ message: 'denied', $metadata: {} }));
    const before = await stateOf();
    const res = await call(row());
    expect(res.status).toBe(502);
    expect(h.quicksight.commandCalls(CreateGroupMembershipCommand)).toHaveLength(1);
    expect(await stateOf()).toEqual(before);
  });

  it('puts an Admins row in Admins besides Users, as a promotion does', async () => {
    await call(row({ role: 'Admins' }));
    expect(h.cognito.commandCalls(AdminAddUserToGroupCommand).map((c) => c.args[0].input.GroupName)).toEqual([
      'Users',
      'Admins',
    ]);
  });

  it('makes the first dashboard the default when the row names none', async () => {
    await call(row({ defaultDashboard: '' }));
    const views = await h.tables.views();
    const defaultPointer = (await h.tables.state()).find((item) => item.sk === 'DEFAULT');
    expect(defaultPointer?.viewId).toBe(views.find((view) => view.quicksightDashboardId === 'sales-performance')?.id);
  });

  it('is idempotent: the same row again answers exists and changes nothing', async () => {
    expect((await call(row())).body.outcome).toBe('created');
    const before = await stateOf();
    h.cognito.resetHistory();
    h.quicksight.resetHistory();
    const again = await call(row());
    expect(again).toMatchObject({ status: 200, body: { outcome: 'exists', message: IMPORT_MESSAGES.exists } });
    expect(await stateOf()).toEqual(before);
    expect(
      cognitoCommands().filter((name) => !['GetUser', 'AdminListGroupsForUser', 'AdminGetUser'].includes(name)),
    ).toEqual([]);
    expect(h.quicksight.calls()).toHaveLength(0);
  });

  it('answers exists when the account appears between the check and the creation, without touching it', async () => {
    h.cognito
      .on(AdminGetUserCommand)
      .rejects(new UserNotFoundException({ message: 'User does not exist.', $metadata: {} }));
    const res = await call(row({ userEmail: USER.email }));
    expect(res.body.outcome).toBe('exists');
    expect(h.cognito.commandCalls(AdminDeleteUserCommand)).toHaveLength(0);
    expect(h.cognito.commandCalls(AdminAddUserToGroupCommand)).toHaveLength(0);
  });

  it('undoes the row when QuickSight refuses the registration: no account, no views, no email', async () => {
    h.quicksight.on(RegisterUserCommand).rejects(new AccessDeniedException({ message: 'not allowed', $metadata: {} }));
    const before = await stateOf();
    const res = await call(row());
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ error: 'Failed to register the user in QuickSight', userEmail: NEW });
    expect(await stateOf()).toEqual(before);
    expect(h.cognito.commandCalls(AdminDeleteUserCommand).map((c) => c.args[0].input.Username)).toEqual([NEW]);
    expect(
      h.cognito.commandCalls(AdminCreateUserCommand).filter((c) => c.args[0].input.MessageAction === 'RESEND'),
    ).toHaveLength(0);
    expect(await h.tables.audit()).toEqual([
      expect.objectContaining({ action: 'IMPORT_USER', target: NEW, outcome: 'failure' }),
    ]);
  });

  it('undoes assignments, the QuickSight user and the account when a later dashboard fails', async () => {
    h.quicksight
      .on(UpdateDashboardPermissionsCommand)
      .callsFake((input: { DashboardId: string; GrantPermissions?: unknown }) => {
        if (input.DashboardId === 'inventory-margins' && input.GrantPermissions)
          throw new ResourceNotFoundException({ message: 'gone', $metadata: {} });
        return {};
      });
    const before = await stateOf();
    const res = await call(row());
    expect(res.status).toBe(404);
    expect(await stateOf()).toEqual(before);
    expect(h.quicksight.commandCalls(DeleteUserCommand).map((c) => c.args[0].input.UserName)).toEqual([NEW]);
  });

  it('keeps a QuickSight user that existed before the row when undoing', async () => {
    registered.add(NEW);
    h.cognito.on(AdminAddUserToGroupCommand).rejects(new AccessDeniedException({ message: 'denied', $metadata: {} }));
    const res = await call(row());
    expect(res.status).toBe(502);
    expect(h.quicksight.commandCalls(DeleteUserCommand)).toHaveLength(0);
    expect(registered.has(NEW)).toBe(true);
    expect(accounts.has(NEW)).toBe(false);
  });

  it.each([
    [
      'an unknown dashboard',
      { dashboards: ['sales-performance', 'nope'], defaultDashboard: '' },
      IMPORT_MESSAGES.unknownDashboard('nope'),
    ],
    [
      'an inactive dashboard',
      { dashboards: ['retired'], defaultDashboard: '' },
      IMPORT_MESSAGES.unknownDashboard('retired'),
    ],
  ])('refuses %s with 400 before anything is written', async (_label, fields, message) => {
    const res = await call(row(fields));
    expect(res).toMatchObject({ status: 400, body: { error: message } });
    expect(h.cognito.commandCalls(AdminCreateUserCommand)).toHaveLength(0);
    expect(await h.tables.views()).toEqual([]);
  });

  it.each([
    ['a bad email', { userEmail: 'not-an-email' }, 'Please enter a valid email address'],
    ['a formula email', { userEmail: '=cmd@example.com' }, IMPORT_MESSAGES.formula('email')],
    ['a formula company', { companyName: '@SUM(A1)' }, IMPORT_MESSAGES.formula('companyName')],
    ['a formula dashboard', { dashboards: ['-sales'] }, IMPORT_MESSAGES.formula('dashboards')],
    ['no dashboards', { dashboards: [], defaultDashboard: '' }, IMPORT_MESSAGES.noDashboards],
    ['a default not listed', { defaultDashboard: 'other' }, IMPORT_MESSAGES.defaultNotListed('other')],
    [
      'a dashboard twice',
      { dashboards: ['sales-performance', 'SALES-performance'], defaultDashboard: '' },
      IMPORT_MESSAGES.duplicateDashboard('SALES-performance'),
    ],
    ['a bad role', { role: 'Owners' }, undefined],
    ['a dashboard list as text', { dashboards: 'sales-performance' }, undefined],
  ])('refuses %s with 400 and no call', async (_label, fields, message) => {
    const res = await call(row(fields));
    expect(res.status).toBe(400);
    if (message !== undefined) expect(res.body.error).toBe(message);
    expect(h.cognito.commandCalls(AdminCreateUserCommand)).toHaveLength(0);
    expect(h.quicksight.calls()).toHaveLength(0);
  });

  it('refuses a Users caller with 403 and no effect', async () => {
    const res = await call(row(), await h.token(USER));
    expect(res.status).toBe(403);
    expect(h.cognito.commandCalls(AdminCreateUserCommand)).toHaveLength(0);
  });
});
