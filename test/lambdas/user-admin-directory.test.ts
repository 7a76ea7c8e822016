import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminDisableUserCommand,
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  AdminUserGlobalSignOutCommand,
  ListUsersCommand,
  ListUsersInGroupCommand,
  UserNotFoundException,
  type UserType,
} from '@aws-sdk/client-cognito-identity-provider';
import { DeleteUserCommand } from '@aws-sdk/client-quicksight';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN,
  directoryUser,
  type Handler,
  type Harness,
  invoke,
  loadHandler,
  OTHER_ADMIN,
  startHarness,
  USER,
} from './support/harness.ts';

/**
 * The admin pages' user list reads the portal's copy of the directory (State table) and
 * corrects it from small live lists; a full Cognito listing rebuilds it. Cognito here is a
 * small fake pool answering as the API reference says: ListUsers with a `cognito:user_status`
 * filter returns the accounts in that status
 * (https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_ListUsers.html).
 */

interface FakeAccount {
  user: UserType;
  groups: string[];
}

let h: Harness;
let handler: Handler;
let adminToken: string;
let pool: Map<string, FakeAccount>;

const emailOf = (user: UserType) => user.Attributes?.find((a) => a.Name === 'email')?.Value ?? '';

const fakeAccount = (
  email: string,
  username: string,
  groups: string[],
  extra: Partial<UserType> = {},
): FakeAccount => ({
  user: directoryUser(
    { username, email, groups },
    { UserLastModifiedDate: new Date('2025-01-02T03:04:05Z'), ...extra },
  ),
  groups,
});

const find = (name: string | undefined) =>
  [...pool.values()].find((a) => a.user.Username === name || emailOf(a.user) === name);

/** Filters the fake pool as ListUsers' `Filter` does for `cognito:user_status = "..."`. */
const fakeCognito = () => {
  h.cognito.on(ListUsersCommand).callsFake((input: { Filter?: string }) => {
    const status = /^cognito:user_status = "(\w+)"$/.exec(input.Filter ?? '')?.[1];
    if (input.Filter !== undefined && status === undefined) throw new Error(`unexpected filter ${input.Filter}`);
    return {
      Users: [...pool.values()].filter((a) => status === undefined || a.user.UserStatus === status).map((a) => a.user),
    };
  });
  h.cognito.on(ListUsersInGroupCommand).callsFake((input: { GroupName?: string }) => ({
    Users: [...pool.values()].filter((a) => a.groups.includes(input.GroupName ?? '')).map((a) => a.user),
  }));
  h.cognito.on(AdminGetUserCommand).callsFake((input: { Username?: string }) => {
    const found = find(input.Username);
    if (!found) throw new UserNotFoundException({ message: 'User does not exist.', $metadata: {} });
    const { Attributes, ...rest } = found.user;
    return { ...rest, UserAttributes: Attributes };
  });
  h.cognito.on(AdminListGroupsForUserCommand).callsFake((input: { Username?: string }) => {
    const found = find(input.Username);
    if (!found) throw new UserNotFoundException({ message: 'User does not exist.', $metadata: {} });
    return { Groups: found.groups.map((GroupName) => ({ GroupName })) };
  });
};

beforeAll(async () => {
  h = await startHarness();
  handler = await loadHandler('user-admin');
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  adminToken = await h.token(ADMIN);
  pool = new Map([
    [ADMIN.email, fakeAccount(ADMIN.email, ADMIN.username, ['Admins', 'Users'])],
    [USER.email, fakeAccount(USER.email, USER.username, ['Users'])],
    [
      'invited@example.com',
      fakeAccount('invited@example.com', 'invited-sub', ['Users'], { UserStatus: 'FORCE_CHANGE_PASSWORD' }),
    ],
  ]);
  fakeCognito();
});

const call = (body: unknown) => invoke(handler, { token: adminToken, body });
const listUsers = async (body: Record<string, unknown> = {}) => {
  const res = await call({ action: 'GET_USERS', ...body });
  expect(res.status).toBe(200);
  return res.body.users as { email: string; enabled: boolean; status: string; cognitoGroup: string | null }[];
};
/** ListUsers calls without a filter: the pages of a full listing. */
const fullListingCalls = () =>
  h.cognito.commandCalls(ListUsersCommand).filter((c) => c.args[0].input.Filter === undefined).length;
const directoryItems = async () => (await h.tables.state()).filter((item) => item.pk === 'DIRECTORY');

describe('GET_USERS from the directory copy', () => {
  it('lists everyone fully the first time, then from the copy with only the small live lists', async () => {
    const first = await listUsers();
    expect(first.map((u) => [u.email, u.cognitoGroup, u.status])).toEqual([
      [ADMIN.email, 'Admins', 'CONFIRMED'],
      ['invited@example.com', 'Users', 'FORCE_CHANGE_PASSWORD'],
      [USER.email, 'Users', 'CONFIRMED'],
    ]);
    expect(fullListingCalls()).toBe(1);
    expect(await directoryItems()).toHaveLength(3);

    h.cognito.resetHistory();
    expect(await listUsers()).toEqual(first);
    expect(fullListingCalls()).toBe(0);
    // The live lists: the Admins group and the three statuses an account leaves outside the portal.
    expect(
      h.cognito
        .commandCalls(ListUsersCommand)
        .map((c) => c.args[0].input.Filter)
        .sort(),
    ).toEqual([
      'cognito:user_status = "FORCE_CHANGE_PASSWORD"',
      'cognito:user_status = "RESET_REQUIRED"',
      'cognito:user_status = "UNCONFIRMED"',
    ]);
    expect(h.cognito.commandCalls(ListUsersInGroupCommand).map((c) => c.args[0].input.GroupName)).toEqual(['Admins']);
    expect(
      h.cognito.commandCalls(AdminGetUserCommand).filter((c) => c.args[0].input.Username !== ADMIN.username),
    ).toHaveLength(0);
  });

  it('shows a first sign-in made since (invitation pending → confirmed) and writes it back', async () => {
    await listUsers();
    pool.get('invited@example.com')!.user.UserStatus = 'CONFIRMED';
    const users = await listUsers();
    expect(users.find((u) => u.email === 'invited@example.com')?.status).toBe('CONFIRMED');
    expect((await directoryItems()).find((item) => item.sk === 'invited@example.com')?.status).toBe('CONFIRMED');
    h.cognito.resetHistory();
    await listUsers();
    expect(
      h.cognito.commandCalls(AdminGetUserCommand).filter((c) => c.args[0].input.Username === 'invited@example.com'),
    ).toHaveLength(0);
  });

  it('shows an admin made outside the portal, and an account that left Admins outside it', async () => {
    pool.set(OTHER_ADMIN.email, fakeAccount(OTHER_ADMIN.email, OTHER_ADMIN.username, ['Admins', 'Users']));
    await listUsers();
    pool.get(USER.email)!.groups.push('Admins');
    pool.get(OTHER_ADMIN.email)!.groups = ['Users'];
    const users = await listUsers();
    expect(users.find((u) => u.email === USER.email)?.cognitoGroup).toBe('Admins');
    expect(users.find((u) => u.email === OTHER_ADMIN.email)?.cognitoGroup).toBe('Users');
    expect(fullListingCalls()).toBe(1);
  });

  it('writes the portal’s own changes into the copy: disable, delete and a new account', async () => {
    await listUsers();
    h.cognito.on(AdminDisableUserCommand).resolves({});
    h.cognito.on(AdminUserGlobalSignOutCommand).resolves({});
    expect((await call({ action: 'DISABLE_USER', userEmail: USER.email })).status).toBe(200);
    h.cognito
      .on(AdminDeleteUserCommand)
      .callsFake((input: { Username?: string }) => pool.delete(input.Username ?? '') && {});
    h.quicksight.on(DeleteUserCommand).resolves({});
    expect((await call({ action: 'DELETE_USER', userEmail: 'invited@example.com' })).status).toBe(200);
    h.cognito.on(AdminCreateUserCommand).resolves({
      User: {
        Username: 'new-sub',
        Attributes: [{ Name: 'email', Value: 'new@example.com' }],
        UserCreateDate: new Date('2026-01-01T00:00:00Z'),
      },
    });
    h.cognito.on(AdminAddUserToGroupCommand).resolves({});
    expect((await call({ action: 'CREATE_USER', userEmail: 'new@example.com', password: 'Str0ng!Pass' })).status).toBe(
      200,
    );

    // The fake pool lost the deleted account but kept the other two as they were: the list
    // shows the disabled account and the new one from the copy.
    const users = await listUsers();
    expect(fullListingCalls()).toBe(1);
    expect(users.map((u) => [u.email, u.enabled, u.status, u.cognitoGroup])).toEqual([
      [ADMIN.email, true, 'CONFIRMED', 'Admins'],
      ['new@example.com', true, 'CONFIRMED', 'Users'],
      [USER.email, false, 'CONFIRMED', 'Users'],
    ]);
  });

  it('lists everyone again on Refresh (fullListing), bringing in changes made in the Cognito console', async () => {
    await listUsers();
    pool.delete(USER.email);
    pool.set('console@example.com', fakeAccount('console@example.com', 'console-sub', []));
    expect((await listUsers()).map((u) => u.email)).toContain(USER.email);
    const refreshed = await listUsers({ fullListing: true });
    expect(refreshed.map((u) => u.email)).toEqual([ADMIN.email, 'console@example.com', 'invited@example.com']);
    expect(fullListingCalls()).toBe(2);
    expect((await directoryItems()).map((item) => item.sk).sort()).toEqual([
      ADMIN.email,
      'console@example.com',
      'invited@example.com',
    ]);
  });

  it('looks up a few accounts one by one, but lists everyone again for more than 60', async () => {
    await listUsers();
    const invite = (n: number) =>
      pool.set(
        `console${n}@example.com`,
        fakeAccount(`console${n}@example.com`, `console-${n}`, [], { UserStatus: 'FORCE_CHANGE_PASSWORD' }),
      );
    for (let n = 0; n < 60; n += 1) invite(n);
    expect(await listUsers()).toHaveLength(63);
    expect(fullListingCalls()).toBe(1);
    expect(
      h.cognito
        .commandCalls(AdminListGroupsForUserCommand)
        .filter((c) => String(c.args[0].input.Username).startsWith('console-')),
    ).toHaveLength(60);
    for (let n = 60; n < 121; n += 1) invite(n);
    expect(await listUsers()).toHaveLength(124);
    expect(fullListingCalls()).toBe(2);
  });

  it('lists everyone again when the last full listing is more than 24 hours old', async () => {
    await listUsers();
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000).toISOString();
    await h.tables.put('STATE_TABLE', { pk: 'DIRECTORY_LISTED', sk: 'LAST', at: hoursAgo(23) });
    await listUsers();
    expect(fullListingCalls()).toBe(1);
    await h.tables.put('STATE_TABLE', { pk: 'DIRECTORY_LISTED', sk: 'LAST', at: hoursAgo(24.1) });
    await listUsers();
    expect(fullListingCalls()).toBe(2);
  });

  it('refuses a fullListing that is not a boolean, and lists nothing', async () => {
    const res = await call({ action: 'GET_USERS', fullListing: 'yes' });
    expect(res.status).toBe(400);
    expect(h.cognito.commandCalls(ListUsersCommand)).toHaveLength(0);
  });
});
