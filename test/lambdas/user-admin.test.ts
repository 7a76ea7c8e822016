import { seedCompany, seedMembership } from './support/companies.ts';
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteSoftwareTokenCommand,
  AdminDeleteUserCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminForgetDeviceCommand,
  AdminGetUserCommand,
  AdminListDevicesCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  AdminUserGlobalSignOutCommand,
  AliasExistsException,
  ListUsersCommand,
  NotAuthorizedException,
  UserNotFoundException,
  UsernameExistsException,
} from '@aws-sdk/client-cognito-identity-provider';
import { AccessDeniedException, DeleteUserCommand } from '@aws-sdk/client-quicksight';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '#contracts/fields.ts';
import {
  OWN_PASSWORD_SUGGESTION,
  PROMOTE_MESSAGES,
  RESET_MFA_MESSAGE,
  UPDATE_USER_MESSAGES,
} from '#contracts/user-admin.ts';
import {
  ADMIN,
  directoryUser,
  type Handler,
  type Harness,
  invoke,
  loadHandler,
  OTHER_ADMIN,
  OTHER_USER,
  POOL_ID_FOR_TESTS,
  startHarness,
  USER,
} from './support/harness.ts';

let h: Harness;
let handler: Handler;
let adminToken: string;

beforeAll(async () => {
  h = await startHarness();
  handler = await loadHandler('user-admin');
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  adminToken = await h.token(ADMIN);
  h.groupMembers('Admins', [ADMIN, OTHER_ADMIN]);
  h.groupMembers('Users', [USER, OTHER_USER]);
  h.cognito.on(AdminGetUserCommand).resolves({ Username: USER.username, UserStatus: 'CONFIRMED' });
});

const call = (body: unknown) => invoke(handler, { token: adminToken, body });
const STRONG = 'Str0ng!Pass';

describe('GET_USERS', () => {
  it('lists every account with its group, creation date and companies, without per-user calls', async () => {
    await seedCompany(h, 'c-north', 'Northwind Manufacturing');
    await seedCompany(h, 'c-contoso', 'Contoso Distribution', 'distributor');
    await seedMembership(h, USER.email, ['c-north']);
    await seedMembership(h, OTHER_USER.email, ['c-north', 'c-contoso'], true);
    h.cognito
      .on(ListUsersCommand)
      .resolvesOnce({ Users: [directoryUser(ADMIN), directoryUser(USER)], PaginationToken: 't2' })
      .resolvesOnce({
        Users: [
          directoryUser(OTHER_USER, { Enabled: false, UserCreateDate: undefined }),
          directoryUser({ ...USER, username: 'lonely', email: 'nogroup@example.com' }),
        ],
      });
    const res = await call({ action: 'GET_USERS' });
    expect(res.status).toBe(200);
    // By email, whatever order Cognito's pages come in.
    expect(res.body.users).toEqual([
      {
        username: ADMIN.username,
        email: ADMIN.email,
        enabled: true,
        status: 'CONFIRMED',
        cognitoGroup: 'Admins',
        created: '2025-01-02T03:04:05.000Z',
        companies: [],
        owner: false,
      },
      expect.objectContaining({ email: 'nogroup@example.com', cognitoGroup: null }),
      expect.objectContaining({
        email: OTHER_USER.email,
        enabled: false,
        created: null,
        companies: ['Contoso Distribution', 'Northwind Manufacturing'],
        owner: true,
      }),
      expect.objectContaining({
        email: USER.email,
        cognitoGroup: 'Users',
        companies: ['Northwind Manufacturing'],
        owner: false,
      }),
    ]);
    expect(h.cognito.commandCalls(AdminGetUserCommand)).toHaveLength(0);
    // Pages of 60 (ListUsers' maximum) carrying only the email, the one attribute the list reads.
    expect(h.cognito.commandCalls(ListUsersCommand).map((c) => c.args[0].input)).toEqual([
      expect.objectContaining({ Limit: 60, AttributesToGet: ['email'] }),
      expect.objectContaining({ Limit: 60, AttributesToGet: ['email'], PaginationToken: 't2' }),
    ]);
  });
});

describe('CREATE_USER', () => {
  it('creates a confirmed account with the password, without an email, in the Users group', async () => {
    h.cognito.on(AdminCreateUserCommand).resolves({ User: { Username: 'new-sub' } });
    const res = await call({ action: 'CREATE_USER', userEmail: 'New.Person@Example.com', password: STRONG });
    expect(res.status).toBe(200);
    expect(h.cognito.commandCalls(AdminCreateUserCommand)[0]?.args[0].input).toMatchObject({
      Username: 'new.person@example.com',
      MessageAction: 'SUPPRESS',
      UserAttributes: [
        { Name: 'email', Value: 'new.person@example.com' },
        { Name: 'email_verified', Value: 'true' },
      ],
    });
    expect(h.cognito.commandCalls(AdminSetUserPasswordCommand)[0]?.args[0].input).toMatchObject({
      Password: STRONG,
      Permanent: true,
    });
    expect(h.cognito.commandCalls(AdminAddUserToGroupCommand)[0]?.args[0].input).toMatchObject({
      GroupName: 'Users',
      Username: 'new.person@example.com',
    });
    const audit = await h.tables.audit();
    expect(audit).toEqual([
      expect.objectContaining({ action: 'CREATE_USER', target: 'new.person@example.com', outcome: 'success' }),
    ]);
    expect(JSON.stringify(audit)).not.toContain(STRONG);
  });

  it("answers 409 'User already exists' for an existing account", async () => {
    h.cognito.on(AdminCreateUserCommand).rejects(new UsernameExistsException({ message: 'exists', $metadata: {} }));
    const res = await call({ action: 'CREATE_USER', userEmail: USER.email, password: STRONG });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'User already exists', userEmail: USER.email });
    expect(h.cognito.commandCalls(AdminSetUserPasswordCommand)).toHaveLength(0);
  });

  it('finishes a creation that stopped before the password was set', async () => {
    h.cognito.on(AdminCreateUserCommand).rejects(new UsernameExistsException({ message: 'exists', $metadata: {} }));
    h.cognito.on(AdminGetUserCommand).resolves({ Username: 'half-sub', UserStatus: 'FORCE_CHANGE_PASSWORD' });
    const res = await call({ action: 'CREATE_USER', userEmail: 'half@example.com', password: STRONG });
    expect(res.status).toBe(200);
    expect(h.cognito.commandCalls(AdminAddUserToGroupCommand)).toHaveLength(1);
  });

  it.each([
    [{ password: STRONG }, MESSAGES.userEmailRequired],
    [{ userEmail: 'nope', password: STRONG }, MESSAGES.adminEmailInvalid],
    [{ userEmail: 'a@b.co' }, MESSAGES.adminPasswordRequired],
    [{ userEmail: 'a@b.co', password: 'Sh0rt!' }, MESSAGES.adminPasswordMin],
    [{ userEmail: 'a@b.co', password: 'NOLOWER1!' }, MESSAGES.adminPasswordLower],
    [{ userEmail: 'a@b.co', password: 'noupper1!' }, MESSAGES.adminPasswordUpper],
    [{ userEmail: 'a@b.co', password: 'NoNumber!' }, MESSAGES.adminPasswordNumber],
    [{ userEmail: 'a@b.co', password: 'NoSpecial1' }, MESSAGES.adminPasswordSpecial],
  ])('refuses %j with the spec message', async (fields, message) => {
    const res = await call({ action: 'CREATE_USER', ...fields });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
    expect(h.cognito.commandCalls(AdminCreateUserCommand)).toHaveLength(0);
  });
});

describe('UPDATE_USER', () => {
  it('sets a new password, then signs the user out everywhere', async () => {
    const res = await call({ action: 'UPDATE_USER', userEmail: USER.email, newPassword: STRONG });
    expect(res.status).toBe(200);
    const writes = h.cognito
      .calls()
      .map((c) => c.args[0])
      .filter((c) => /^Admin(SetUserPassword|UserGlobalSignOut)/.test(c.constructor.name));
    expect(writes.map((c) => [c.constructor.name, c.input])).toEqual([
      [
        'AdminSetUserPasswordCommand',
        { UserPoolId: POOL_ID_FOR_TESTS, Username: USER.email, Password: STRONG, Permanent: true },
      ],
      ['AdminUserGlobalSignOutCommand', { UserPoolId: POOL_ID_FOR_TESTS, Username: USER.email }],
    ]);
    // Cognito's sign-out cannot reach tokens from a refresh (no admin scope): the record ends them.
    const ended = (await h.tables.state()).find((item) => item.pk === 'SESSIONS_ENDED');
    expect(ended).toMatchObject({ sk: USER.username, endedAt: expect.any(Number) });
  });

  it.each([
    [OTHER_ADMIN.email, { newPassword: STRONG }, 'Cannot update other admin accounts'],
    [OTHER_ADMIN.email, { newEmail: 'hijack@example.com' }, 'Cannot update other admin accounts'],
    [ADMIN.email, { newPassword: STRONG }, 'Cannot change the password or email of your own account'],
    [ADMIN.email, { newEmail: 'hijack@example.com' }, 'Cannot change the password or email of your own account'],
  ])('refuses to update %s (%j) with 403 and changes nothing', async (userEmail, fields, message) => {
    h.cognito.on(ListUsersCommand).resolves({ Users: [] });
    const res = await call({ action: 'UPDATE_USER', userEmail, ...fields });
    expect([res.status, res.body.error]).toEqual([403, message]);
    if (userEmail === ADMIN.email) expect(res.body.suggestion).toBe(OWN_PASSWORD_SUGGESTION);
    const writes = h.cognito
      .calls()
      .filter((c) => /^Admin(SetUserPassword|UpdateUserAttributes|UserGlobalSignOut)/.test(c.args[0].constructor.name));
    expect(writes).toHaveLength(0);
    expect(await h.tables.audit()).toEqual([
      expect.objectContaining({ action: 'UPDATE_USER', target: userEmail, outcome: 'failure', detail: message }),
    ]);
  });

  it('changes the email of a user without dashboards (no sign-out)', async () => {
    h.cognito.on(ListUsersCommand).resolves({ Users: [] });
    const res = await call({ action: 'UPDATE_USER', userEmail: USER.email, newEmail: 'Renamed@Example.com' });
    expect(res.status).toBe(200);
    expect(h.cognito.commandCalls(AdminUserGlobalSignOutCommand)).toHaveLength(0);
    expect(h.cognito.commandCalls(AdminUpdateUserAttributesCommand)[0]?.args[0].input.UserAttributes).toEqual([
      { Name: 'email', Value: 'renamed@example.com' },
      { Name: 'email_verified', Value: 'true' },
    ]);
  });

  it("answers 409 'Email already exists' before changing anything", async () => {
    h.cognito.on(ListUsersCommand).resolves({ Users: [directoryUser(OTHER_USER)] });
    const res = await call({
      action: 'UPDATE_USER',
      userEmail: USER.email,
      newEmail: OTHER_USER.email,
      newPassword: STRONG,
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('Email already exists');
    expect(h.cognito.commandCalls(AdminSetUserPasswordCommand)).toHaveLength(0);
  });

  it("maps Cognito's alias clash to 'Email already exists'", async () => {
    h.cognito.on(ListUsersCommand).resolves({ Users: [] });
    h.cognito
      .on(AdminUpdateUserAttributesCommand)
      .rejects(new AliasExistsException({ message: 'alias', $metadata: {} }));
    const res = await call({ action: 'UPDATE_USER', userEmail: USER.email, newEmail: 'taken@example.com' });
    expect([res.status, res.body.error]).toEqual([409, 'Email already exists']);
  });

  it('refuses an email change while dashboards are assigned under the current email', async () => {
    h.cognito.on(ListUsersCommand).resolves({ Users: [] });
    await h.tables.put('VIEWS_TABLE', {
      id: 'v1',
      userEmail: USER.email,
      quicksightDashboardId: 'sales',
      name: 'Sales',
      createdAt: 'x',
      updatedAt: 'x',
    });
    const res = await call({ action: 'UPDATE_USER', userEmail: USER.email, newEmail: 'renamed@example.com' });
    expect(res.status).toBe(409);
    expect(h.cognito.commandCalls(AdminUpdateUserAttributesCommand)).toHaveLength(0);
  });

  it("answers 404 'User not found' for an unknown account", async () => {
    h.cognito
      .on(AdminGetUserCommand)
      .rejects(new UserNotFoundException({ message: 'User does not exist.', $metadata: {} }));
    const res = await call({ action: 'UPDATE_USER', userEmail: 'ghost@example.com', newPassword: STRONG });
    expect([res.status, res.body.error]).toEqual([404, 'User not found']);
  });

  it.each([
    [{}, UPDATE_USER_MESSAGES.emailRequired, 'userEmail'],
    [{ userEmail: USER.email }, UPDATE_USER_MESSAGES.atLeastOneField, 'newEmail'],
    [{ userEmail: USER.email, newEmail: ' ', newPassword: '' }, UPDATE_USER_MESSAGES.noValidFields, 'newEmail'],
    [{ userEmail: USER.email, newEmail: 'bad' }, UPDATE_USER_MESSAGES.invalidNewEmail, 'newEmail'],
    [{ userEmail: USER.email, newEmail: 'USER@example.com' }, UPDATE_USER_MESSAGES.sameEmail, 'newEmail'],
    [{ userEmail: USER.email, newPassword: 'weakpassword' }, 'Invalid password', 'newPassword'],
  ])('refuses %j with the spec message', async (fields, message, field) => {
    const res = await call({ action: 'UPDATE_USER', ...fields });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
    expect(res.body.fields).toContain(field);
    expect(h.cognito.commandCalls(AdminSetUserPasswordCommand)).toHaveLength(0);
    expect(h.cognito.commandCalls(AdminUpdateUserAttributesCommand)).toHaveLength(0);
  });
});

describe('ENABLE_USER, DISABLE_USER, DELETE_USER, RESET_USER_MFA', () => {
  it('enables an account', async () => {
    const res = await call({ action: 'ENABLE_USER', userEmail: USER.email });
    expect(res.status).toBe(200);
    expect(h.cognito.commandCalls(AdminEnableUserCommand)).toHaveLength(1);
  });

  it('disables an account and signs it out everywhere', async () => {
    const res = await call({ action: 'DISABLE_USER', userEmail: USER.email });
    expect(res.status).toBe(200);
    expect(h.cognito.commandCalls(AdminDisableUserCommand)[0]?.args[0].input.Username).toBe(USER.email);
    expect(h.cognito.commandCalls(AdminUserGlobalSignOutCommand)[0]?.args[0].input.Username).toBe(USER.email);
  });

  it('deletes views, then the QuickSight user, then the account', async () => {
    h.quicksight.on(DeleteUserCommand).resolves({});
    const res = await call({ action: 'DELETE_USER', userEmail: USER.email });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ quicksightUser: 'deleted', removedViews: 0 });
    expect(h.cognito.commandCalls(AdminDeleteUserCommand)[0]?.args[0].input.Username).toBe(USER.email);
  });

  it('still deletes the account when QuickSight refuses (tolerated and reported)', async () => {
    h.quicksight.on(DeleteUserCommand).rejects(new AccessDeniedException({ message: 'denied', $metadata: {} }));
    const res = await call({ action: 'DELETE_USER', userEmail: USER.email });
    expect(res.status).toBe(200);
    expect(res.body.quicksightUser).toMatch(/^not removed: /);
    expect(h.cognito.commandCalls(AdminDeleteUserCommand)).toHaveLength(1);
  });

  it('disables an already disabled account again: the sign-out refusal for a disabled user counts as done', async () => {
    h.cognito
      .on(AdminUserGlobalSignOutCommand)
      .rejects(new NotAuthorizedException({ message: 'User is disabled.', $metadata: {} }));
    const res = await call({ action: 'DISABLE_USER', userEmail: USER.email });
    expect([res.status, res.body.message]).toEqual([200, 'User disabled successfully']);
    expect(h.cognito.commandCalls(AdminDisableUserCommand)).toHaveLength(1);
    expect(h.cognito.commandCalls(AdminUserGlobalSignOutCommand)).toHaveLength(1);
  });

  it('cancels the subscriptions of a disabled or deleted account in the same step, and says so in the audit entry', async () => {
    const { createSubscription, subscriptionsOf } = await import('#lambdas/shared/data/subscriptions.ts');
    const input = {
      dashboardId: 'sales',
      format: 'CSV',
      frequency: 'DAILY',
      time: '08:00',
      timeZone: 'Europe/London',
    } as const;
    await createSubscription(USER.email, input, 'Sales');
    await createSubscription(USER.email, { ...input, format: 'PDF' }, 'Sales');
    await createSubscription(OTHER_USER.email, input, 'Sales');

    expect((await call({ action: 'DISABLE_USER', userEmail: USER.email })).status).toBe(200);
    expect(await subscriptionsOf(USER.email)).toEqual([]);
    expect(await subscriptionsOf(OTHER_USER.email)).toHaveLength(1);
    const [disabled] = await h.tables.audit();
    expect([disabled?.action, disabled?.target, disabled?.detail]).toEqual([
      'DISABLE_USER',
      USER.email,
      'subscriptions canceled: 2',
    ]);

    h.quicksight.on(DeleteUserCommand).resolves({});
    await createSubscription(OTHER_USER.email, { ...input, format: 'PDF' }, 'Sales');
    const res = await call({ action: 'DELETE_USER', userEmail: OTHER_USER.email });
    expect(res.body).toMatchObject({ canceledSubscriptions: 2 });
    expect(await subscriptionsOf(OTHER_USER.email)).toEqual([]);
    expect(String((await h.tables.audit())[0]?.detail)).toContain('subscriptions canceled: 2');
  });

  it('still reports any other sign-out refusal', async () => {
    h.cognito
      .on(AdminUserGlobalSignOutCommand)
      .rejects(new NotAuthorizedException({ message: 'Not authorized', $metadata: {} }));
    const res = await call({ action: 'DISABLE_USER', userEmail: USER.email });
    expect([res.status, res.body.error]).toEqual([502, 'Failed to sign the user out']);
  });

  it('resets MFA: deletes the software token, takes passkeys out of MFA, then ends every session (the TOTP preference untouched)', async () => {
    const res = await call({ action: 'RESET_USER_MFA', userEmail: USER.email });
    expect([res.status, res.body.message]).toEqual([200, RESET_MFA_MESSAGE]);
    const sent = h.cognito
      .calls()
      .map((c) => c.args[0])
      .filter((c) => /^Admin(DeleteSoftwareToken|UserGlobalSignOut|SetUserMFAPreference)/.test(c.constructor.name));
    expect(sent.map((c) => [c.constructor.name, c.input])).toEqual([
      ['AdminDeleteSoftwareTokenCommand', { UserPoolId: POOL_ID_FOR_TESTS, Username: USER.email }],
      [
        'AdminSetUserMFAPreferenceCommand',
        { UserPoolId: POOL_ID_FOR_TESTS, Username: USER.email, WebAuthnMfaSettings: { Enabled: false } },
      ],
      ['AdminUserGlobalSignOutCommand', { UserPoolId: POOL_ID_FOR_TESTS, Username: USER.email }],
    ]);
  });

  it('resets the MFA of a disabled account too', async () => {
    h.cognito
      .on(AdminUserGlobalSignOutCommand)
      .rejects(new NotAuthorizedException({ message: 'User is disabled.', $metadata: {} }));
    const res = await call({ action: 'RESET_USER_MFA', userEmail: USER.email });
    expect(res.status).toBe(200);
    expect(h.cognito.commandCalls(AdminDeleteSoftwareTokenCommand)).toHaveLength(1);
  });

  describe('where the pool tracks devices (rememberDevices)', () => {
    beforeEach(() => {
      process.env.REMEMBER_DEVICES = 'true';
      h.cognito
        .on(AdminListDevicesCommand)
        .resolvesOnce({
          Devices: [{ DeviceKey: 'us-east-2_a1' }, { DeviceKey: 'us-east-2_b2' }],
          PaginationToken: 'page-2',
        })
        .resolvesOnce({ Devices: [{ DeviceKey: 'us-east-2_c3' }] });
    });
    afterEach(() => {
      delete process.env.REMEMBER_DEVICES;
    });
    const forgotten = () => h.cognito.commandCalls(AdminForgetDeviceCommand).map((c) => c.args[0].input);

    it('resets MFA and forgets every remembered device of the user, page after page', async () => {
      const res = await call({ action: 'RESET_USER_MFA', userEmail: USER.email });
      expect(res.status).toBe(200);
      expect(h.cognito.commandCalls(AdminListDevicesCommand).map((c) => c.args[0].input.PaginationToken)).toEqual([
        undefined,
        'page-2',
      ]);
      expect(forgotten()).toEqual(
        ['us-east-2_a1', 'us-east-2_b2', 'us-east-2_c3'].map((DeviceKey) => ({
          UserPoolId: POOL_ID_FOR_TESTS,
          Username: USER.email,
          DeviceKey,
        })),
      );
    });

    it('disables an account and forgets its remembered devices', async () => {
      const res = await call({ action: 'DISABLE_USER', userEmail: USER.email });
      expect(res.status).toBe(200);
      expect(forgotten()).toHaveLength(3);
    });

    it('reports a device that cannot be forgotten', async () => {
      h.cognito
        .on(AdminForgetDeviceCommand)
        .rejects(new NotAuthorizedException({ message: 'Not authorized', $metadata: {} }));
      const res = await call({ action: 'RESET_USER_MFA', userEmail: USER.email });
      expect([res.status, res.body.error]).toEqual([502, 'Failed to reset MFA']);
    });
  });

  it('does not list devices where the pool tracks none', async () => {
    await call({ action: 'RESET_USER_MFA', userEmail: USER.email });
    await call({ action: 'DISABLE_USER', userEmail: USER.email });
    expect(h.cognito.commandCalls(AdminListDevicesCommand)).toHaveLength(0);
  });

  it('does not sign out when the token cannot be deleted', async () => {
    h.cognito
      .on(AdminDeleteSoftwareTokenCommand)
      .rejects(new UserNotFoundException({ message: 'User does not exist.', $metadata: {} }));
    const res = await call({ action: 'RESET_USER_MFA', userEmail: USER.email });
    expect([res.status, res.body.error]).toEqual([404, 'User not found']);
    expect(h.cognito.commandCalls(AdminUserGlobalSignOutCommand)).toHaveLength(0);
  });

  it.each([
    ['ENABLE_USER', ADMIN.email, 'Cannot disable your own account'],
    ['ENABLE_USER', OTHER_ADMIN.email, 'Cannot disable other admin accounts'],
    ['DISABLE_USER', ADMIN.email, 'Cannot disable your own account'],
    ['DISABLE_USER', OTHER_ADMIN.email, 'Cannot disable other admin accounts'],
    ['DELETE_USER', ADMIN.email, 'Cannot delete your own account'],
    ['DELETE_USER', OTHER_ADMIN.email, 'Cannot delete other admin accounts'],
    ['RESET_USER_MFA', ADMIN.email, 'Cannot reset MFA for your own account'],
    ['RESET_USER_MFA', OTHER_ADMIN.email, 'Cannot reset MFA for other admin accounts'],
  ])('%s on %s answers 403 and changes nothing', async (action, userEmail, message) => {
    const res = await call({ action, userEmail });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe(message);
    for (const command of [
      AdminEnableUserCommand,
      AdminDisableUserCommand,
      AdminDeleteUserCommand,
      AdminDeleteSoftwareTokenCommand,
      AdminUserGlobalSignOutCommand,
    ]) {
      expect(h.cognito.commandCalls(command)).toHaveLength(0);
    }
    expect(await h.tables.audit()).toEqual([
      expect.objectContaining({ action, target: userEmail, outcome: 'failure', detail: message }),
    ]);
  });

  it.each(['ENABLE_USER', 'DISABLE_USER', 'DELETE_USER', 'RESET_USER_MFA'])(
    "%s requires 'User email is required.'",
    async (action) => {
      const res = await call({ action });
      expect([res.status, res.body.error]).toEqual([400, MESSAGES.userEmailRequired]);
    },
  );

  it("answers 404 'User not found' for an unknown account", async () => {
    h.cognito
      .on(AdminEnableUserCommand)
      .rejects(new UserNotFoundException({ message: 'User does not exist.', $metadata: {} }));
    const res = await call({ action: 'ENABLE_USER', userEmail: 'ghost@example.com' });
    expect([res.status, res.body.error, res.body.userEmail]).toEqual([404, 'User not found', 'ghost@example.com']);
  });
});

describe('PROMOTE_TO_ADMIN', () => {
  it('adds an enabled user to Admins and records it', async () => {
    h.cognito.on(AdminGetUserCommand).resolves({ Username: USER.username, UserStatus: 'CONFIRMED', Enabled: true });
    const res = await call({ action: 'PROMOTE_TO_ADMIN', userEmail: USER.email });
    expect([res.status, res.body.message]).toEqual([200, PROMOTE_MESSAGES.promoted]);
    expect(h.cognito.commandCalls(AdminAddUserToGroupCommand).map((c) => c.args[0].input)).toEqual([
      { UserPoolId: POOL_ID_FOR_TESTS, Username: USER.email, GroupName: 'Admins' },
    ]);
    expect(await h.tables.audit()).toEqual([
      expect.objectContaining({
        actor: ADMIN.email,
        action: 'PROMOTE_TO_ADMIN',
        target: USER.email,
        outcome: 'success',
      }),
    ]);
  });

  it.each([
    ['oneself', ADMIN.email, 409, PROMOTE_MESSAGES.alreadyAdmin],
    ['an admin', OTHER_ADMIN.email, 409, PROMOTE_MESSAGES.alreadyAdmin],
    ['a disabled account', USER.email, 409, PROMOTE_MESSAGES.disabled],
    ['an unknown account', 'ghost@example.com', 404, 'User not found'],
  ])('refuses %s and changes nothing', async (_label, userEmail, status, message) => {
    if (userEmail === USER.email)
      h.cognito.on(AdminGetUserCommand).resolves({ Username: USER.username, Enabled: false });
    if (userEmail === 'ghost@example.com')
      h.cognito
        .on(AdminGetUserCommand)
        .rejects(new UserNotFoundException({ message: 'User does not exist.', $metadata: {} }));
    const res = await call({ action: 'PROMOTE_TO_ADMIN', userEmail });
    expect([res.status, res.body.error]).toEqual([status, message]);
    expect(h.cognito.commandCalls(AdminAddUserToGroupCommand)).toHaveLength(0);
    expect(await h.tables.audit()).toEqual([
      expect.objectContaining({ action: 'PROMOTE_TO_ADMIN', outcome: 'failure', detail: message }),
    ]);
  });
});

describe('GET_AUDIT_LOG', () => {
  it('pages through the trail newest first with an opaque token', async () => {
    for (const action of ['ENABLE_USER', 'DISABLE_USER', 'ENABLE_USER']) await call({ action, userEmail: USER.email });
    const first = await call({ action: 'GET_AUDIT_LOG', limit: 2 });
    expect(first.status).toBe(200);
    expect((first.body.entries as { action: string }[]).map((e) => e.action)).toEqual(['ENABLE_USER', 'DISABLE_USER']);
    expect(first.body.entries).toEqual([
      expect.objectContaining({
        actor: ADMIN.email,
        target: USER.email,
        outcome: 'success',
        at: expect.any(String),
        id: expect.any(String),
      }),
      expect.anything(),
    ]);
    const second = await call({ action: 'GET_AUDIT_LOG', limit: 2, nextToken: first.body.nextToken });
    expect((second.body.entries as unknown[]).length).toBe(1);
    expect(second.body.nextToken).toBeNull();
  });

  it('refuses a forged token and a bad limit', async () => {
    const forged = Buffer.from(JSON.stringify({ pk: 'USER#x', sk: 'DEFAULT' })).toString('base64url');
    const res = await call({ action: 'GET_AUDIT_LOG', nextToken: forged });
    expect([res.status, res.body.error]).toEqual([400, 'Invalid nextToken']);
    expect((await call({ action: 'GET_AUDIT_LOG', limit: 1000 })).status).toBe(400);
  });
});
