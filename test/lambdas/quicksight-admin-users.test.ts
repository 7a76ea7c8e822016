import {
  AdminGetUserCommand,
  ListUsersCommand as ListCognitoUsersCommand,
  UserNotFoundException,
} from '@aws-sdk/client-cognito-identity-provider';
import {
  AccessDeniedException,
  DeleteUserCommand,
  DescribeUserCommand,
  ListUsersCommand as ListQuickSightUsersCommand,
  QuickSightUserNotFoundException,
  RegisterUserCommand,
  ResourceExistsException,
  ResourceNotFoundException,
  UpdateDashboardPermissionsCommand,
} from '@aws-sdk/client-quicksight';
import { Logger } from '@aws-lambda-powertools/logger';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ACCOUNT_ID,
  ADMIN,
  directoryUser,
  type Harness,
  invoke,
  OTHER_ADMIN,
  OTHER_USER,
  quicksightUser,
  startHarness,
  type Handler,
  loadHandler,
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
  h.groupMembers('Admins', [ADMIN, OTHER_ADMIN]);
});
afterEach(() => {
  process.env.QUICKSIGHT_ACCOUNT_ID = ACCOUNT_ID;
});

const call = (body: unknown) => invoke(handler, { token: adminToken, body });

describe('LIST_COGNITO_USERS_WITH_QUICKSIGHT_STATUS', () => {
  it('joins every Cognito user with their group and QuickSight registration, page by page', async () => {
    h.cognito
      .on(ListCognitoUsersCommand)
      .resolvesOnce({ Users: [directoryUser(ADMIN), directoryUser(USER)], PaginationToken: 'page-2' })
      .resolvesOnce({ Users: [directoryUser(OTHER_USER, { Enabled: false })] });
    h.groupMembers('Users', [USER, OTHER_USER]);
    h.quicksight
      .on(ListQuickSightUsersCommand)
      .resolvesOnce({ UserList: [quicksightUser(ADMIN.email, 'ADMIN')], NextToken: 'qs-2' })
      .resolvesOnce({ UserList: [quicksightUser(USER.email)] });

    const res = await call({ action: 'LIST_COGNITO_USERS_WITH_QUICKSIGHT_STATUS' });

    expect(res.status).toBe(200);
    expect(res.body.users).toEqual([
      expect.objectContaining({
        email: ADMIN.email,
        existsInQuickSight: true,
        cognito: { cognitoGroup: 'Admins' },
        quicksight: expect.objectContaining({ role: 'ADMIN' }),
      }),
      expect.objectContaining({
        email: OTHER_USER.email,
        enabled: false,
        existsInQuickSight: false,
        quicksight: null,
        cognito: { cognitoGroup: 'Users' },
      }),
      expect.objectContaining({
        email: USER.email,
        existsInQuickSight: true,
        cognito: { cognitoGroup: 'Users' },
        quicksight: expect.objectContaining({ role: 'READER' }),
      }),
    ]);
    expect(h.cognito.commandCalls(ListCognitoUsersCommand).map((c) => c.args[0].input)).toEqual([
      expect.objectContaining({ Limit: 60, PaginationToken: undefined }),
      expect.objectContaining({ Limit: 60, PaginationToken: 'page-2' }),
    ]);
    expect(h.quicksight.commandCalls(ListQuickSightUsersCommand).map((c) => c.args[0].input.MaxResults)).toEqual([
      100, 100,
    ]);
    expect(h.cognito.commandCalls(AdminGetUserCommand)).toHaveLength(0);
    expect(h.quicksight.commandCalls(DescribeUserCommand)).toHaveLength(0);
  });

  it('names the missing configuration when the QuickSight account is not set', async () => {
    delete process.env.QUICKSIGHT_ACCOUNT_ID;
    const res = await call({ action: 'LIST_COGNITO_USERS_WITH_QUICKSIGHT_STATUS' });
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ missing: ['QUICKSIGHT_ACCOUNT_ID'] });
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts/);
  });
});

describe('REGISTER_USER', () => {
  it('registers the user as a QuickSight READER named by their lowercased email', async () => {
    h.cognito.on(AdminGetUserCommand).resolves({ Username: USER.username });
    h.quicksight.on(RegisterUserCommand).resolves({ User: quicksightUser(USER.email) });

    const res = await call({ action: 'REGISTER_USER', userEmail: 'User@Example.com' });

    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ userName: USER.email, role: 'READER' });
    expect(h.quicksight.commandCalls(RegisterUserCommand)[0]?.args[0].input).toEqual({
      AwsAccountId: ACCOUNT_ID,
      Namespace: 'default',
      IdentityType: 'QUICKSIGHT',
      Email: USER.email,
      UserName: USER.email,
      UserRole: 'READER',
    });
    expect(await h.tables.audit()).toEqual([
      expect.objectContaining({ actor: ADMIN.email, action: 'REGISTER_USER', target: USER.email, outcome: 'success' }),
    ]);
  });

  // RegisterUser answers a QUICKSIGHT identity with a UserInvitationUrl, "the URL the user visits
  // to complete registration and provide a password"
  // (https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RegisterUser.html). Portal
  // users see dashboards embedded in the portal, and whoever holds the link could set the
  // user's QuickSight password: it is neither returned nor logged.
  it("keeps RegisterUser's UserInvitationUrl out of the answer, the audit trail and every log call", async () => {
    const invitation = 'https://us-east-2.quicksight.aws.amazon.com/sn/invitation/secret-invitation-token-4711';
    h.cognito.on(AdminGetUserCommand).resolves({ Username: USER.username });
    h.quicksight
      .on(RegisterUserCommand)
      .resolves({ Status: 201, User: quicksightUser(USER.email), UserInvitationUrl: invitation });
    // Every log call, whatever the level lets through.
    const logged = (['debug', 'info', 'warn', 'error', 'critical'] as const).map((level) =>
      vi.spyOn(Logger.prototype, level),
    );
    try {
      const res = await call({ action: 'REGISTER_USER', userEmail: USER.email });
      expect(res).toMatchObject({ status: 200, body: { user: { userName: USER.email, role: 'READER' } } });
      const logCalls = logged.flatMap((spy) => spy.mock.calls);
      expect(logCalls.length).toBeGreaterThan(0);
      for (const text of [JSON.stringify(res), JSON.stringify(await h.tables.audit()), JSON.stringify(logCalls)]) {
        expect(text).not.toContain('secret-invitation-token');
      }
    } finally {
      for (const spy of logged) spy.mockRestore();
    }
  });

  it('accepts another role', async () => {
    h.cognito.on(AdminGetUserCommand).resolves({ Username: USER.username });
    h.quicksight.on(RegisterUserCommand).resolves({ User: quicksightUser(USER.email, 'AUTHOR') });
    const res = await call({ action: 'REGISTER_USER', userEmail: USER.email, userRole: 'AUTHOR' });
    expect(res.status).toBe(200);
    expect(h.quicksight.commandCalls(RegisterUserCommand)[0]?.args[0].input.UserRole).toBe('AUTHOR');
  });

  it.each([
    [{}, 'Please select a user to register.', 'userEmail'],
    [{ userEmail: '' }, 'Please select a user to register.', 'userEmail'],
    [{ userEmail: 'not-an-email' }, 'Please enter a valid email address', 'userEmail'],
    [{ userEmail: USER.email, userRole: 'OWNER' }, expect.any(String), 'userRole'],
  ])('refuses %j with 400', async (fields, message, field) => {
    const res = await call({ action: 'REGISTER_USER', ...fields });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: message, fields: [field] });
    expect(h.quicksight.calls()).toHaveLength(0);
  });

  it('answers 404 User not found for an account Cognito does not know', async () => {
    h.cognito
      .on(AdminGetUserCommand)
      .rejects(new UserNotFoundException({ message: 'User does not exist.', $metadata: {} }));
    const res = await call({ action: 'REGISTER_USER', userEmail: 'ghost@example.com' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'User not found', userEmail: 'ghost@example.com' });
    expect(h.quicksight.commandCalls(RegisterUserCommand)).toHaveLength(0);
  });

  it('answers 409 for a user QuickSight already has', async () => {
    h.cognito.on(AdminGetUserCommand).resolves({ Username: USER.username });
    h.quicksight.on(RegisterUserCommand).rejects(new ResourceExistsException({ message: 'exists', $metadata: {} }));
    const res = await call({ action: 'REGISTER_USER', userEmail: USER.email });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      error: 'User is already registered in QuickSight',
      userEmail: USER.email,
      suggestion: expect.any(String),
    });
  });

  it('reports reason, suggestion, user and missing variables when QuickSight is not configured', async () => {
    delete process.env.QUICKSIGHT_ACCOUNT_ID;
    const res = await call({ action: 'REGISTER_USER', userEmail: USER.email });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      error: 'The function is not fully configured',
      reason: 'Missing environment variables: QUICKSIGHT_ACCOUNT_ID',
      suggestion: expect.any(String),
      userEmail: USER.email,
      missing: ['QUICKSIGHT_ACCOUNT_ID'],
    });
    expect(h.quicksight.calls()).toHaveLength(0);
    expect(await h.tables.audit()).toEqual([expect.objectContaining({ action: 'REGISTER_USER', outcome: 'failure' })]);
  });

  it('passes QuickSight refusals on as 502 with the reason and a suggestion', async () => {
    h.cognito.on(AdminGetUserCommand).resolves({ Username: USER.username });
    h.quicksight.on(RegisterUserCommand).rejects(new AccessDeniedException({ message: 'not allowed', $metadata: {} }));
    const res = await call({ action: 'REGISTER_USER', userEmail: USER.email });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({
      error: 'Failed to register user',
      reason: 'AccessDeniedException: not allowed',
      suggestion: expect.any(String),
      userEmail: USER.email,
    });
  });
});

describe('DELETE_USER (QuickSight)', () => {
  it("removes the user's views and their QuickSight user", async () => {
    h.quicksight.on(DescribeUserCommand).resolves({ User: quicksightUser(USER.email) });
    h.quicksight.on(UpdateDashboardPermissionsCommand).resolves({});
    h.quicksight.on(DeleteUserCommand).resolves({});
    for (const dashboardId of ['sales', 'inventory']) {
      const invite = await call({
        action: 'INVITE_TO_DASHBOARD',
        userEmail: USER.email,
        dashboardId,
        dashboardName: dashboardId,
        dashboardLink: `https://bi.example.com/${dashboardId}`,
        makeDefault: true,
      });
      expect(invite.status).toBe(200);
    }

    const res = await call({ action: 'DELETE_USER', userEmail: USER.email });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ removedViews: 2, quicksightUser: 'deleted' });
    expect(await h.tables.views()).toEqual([]);
    expect((await h.tables.state()).filter((item) => item.sk === 'DEFAULT')).toEqual([]);
    expect(h.quicksight.commandCalls(DeleteUserCommand)[0]?.args[0].input).toEqual({
      AwsAccountId: ACCOUNT_ID,
      Namespace: 'default',
      UserName: USER.email,
    });
  });

  it.each([
    ['ResourceNotFoundException', () => new ResourceNotFoundException({ message: 'gone', $metadata: {} })],
    ['QuickSightUserNotFoundException', () => new QuickSightUserNotFoundException({ message: 'gone', $metadata: {} })],
  ])('succeeds again when the QuickSight user is already gone (a retry finishes; %s)', async (_name, notFound) => {
    h.quicksight.on(DeleteUserCommand).rejects(notFound());
    const res = await call({ action: 'DELETE_USER', userEmail: USER.email });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ quicksightUser: 'absent' });
  });

  it.each([
    [ADMIN.email, 'Cannot delete your own account'],
    [OTHER_ADMIN.email.toUpperCase(), 'Cannot delete other admin accounts'],
  ])('refuses to delete %s with 403', async (userEmail, message) => {
    const res = await call({ action: 'DELETE_USER', userEmail });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe(message);
    expect(h.quicksight.commandCalls(DeleteUserCommand)).toHaveLength(0);
    expect(await h.tables.audit()).toEqual([
      expect.objectContaining({ action: 'DELETE_USER', outcome: 'failure', detail: message }),
    ]);
  });

  it('requires the user email', async () => {
    const res = await call({ action: 'DELETE_USER' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'User email is required.', fields: ['userEmail'] });
  });
});
