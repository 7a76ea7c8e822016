import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  AdminRemoveUserFromGroupCommand,
  AdminResetUserPasswordCommand,
  AdminSetUserMFAPreferenceCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  CreateGroupCommand,
  ListGroupsCommand,
  ListUsersCommand,
  ListUsersInGroupCommand,
  type AttributeType,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate, confirmPassword, userFor } from './support/cognito-client.ts';
import {
  createEnrolledUser,
  createUser,
  lastMailTo,
  startHarness,
  type CognitoHarness,
} from './support/cognito-harness.ts';

let harness: CognitoHarness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

const pool = () => harness.emulator.userPoolId;
const attributeMap = (attributes: AttributeType[] | undefined) =>
  Object.fromEntries((attributes ?? []).map(({ Name, Value }) => [Name, Value]));
const getUser = (Username: string) => harness.admin.send(new AdminGetUserCommand({ UserPoolId: pool(), Username }));
const notFound = { name: 'UserNotFoundException', message: 'User does not exist.' };

describe('AdminCreateUser', () => {
  it('creates a UUID-named account with the email as attribute and emails a temporary password', async () => {
    const { User } = await harness.admin.send(
      new AdminCreateUserCommand({ UserPoolId: pool(), Username: 'invitee@example.com' }),
    );
    expect(User).toMatchObject({ Enabled: true, UserStatus: 'FORCE_CHANGE_PASSWORD' });
    expect(User!.Username).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(attributeMap(User!.Attributes)).toEqual({
      sub: User!.Username,
      email: 'invitee@example.com',
      email_verified: 'false',
    });
    expect(User!.UserCreateDate).toBeInstanceOf(Date);
    const invitation = lastMailTo(harness, 'invitee@example.com');
    expect(invitation.subject).toBe('Your temporary password');
    expect(invitation.text).toMatch(/^Your username is invitee@example.com and temporary password is \S{12}\.$/);
  });

  it('sends nothing when suppressed, resends on request and refuses duplicates, non-emails and weak passwords', async () => {
    const create = (Username: string, extra: Partial<ConstructorParameters<typeof AdminCreateUserCommand>[0]> = {}) =>
      harness.admin.send(
        new AdminCreateUserCommand({ UserPoolId: pool(), Username, MessageAction: 'SUPPRESS', ...extra }),
      );
    const sent = harness.mail.length;
    await create('quiet@example.com');
    expect(harness.mail.length).toBe(sent);
    await create('quiet@example.com', { MessageAction: 'RESEND' });
    expect(lastMailTo(harness, 'quiet@example.com').subject).toBe('Your temporary password');
    await expect(create('QUIET@example.com')).rejects.toMatchObject({
      name: 'UsernameExistsException',
      message: 'An account with the given email already exists.',
    });
    await expect(create('no-at-sign')).rejects.toMatchObject({
      name: 'InvalidParameterException',
      message: 'Username should be an email.',
    });
    await expect(create('weak.temp@example.com', { TemporaryPassword: 'password' })).rejects.toMatchObject({
      name: 'InvalidPasswordException',
    });
    await createUser(harness, 'settled@example.com', 'Settled#12');
    await expect(create('settled@example.com', { MessageAction: 'RESEND' })).rejects.toMatchObject({
      name: 'UnsupportedUserStateException',
    });
  });
});

describe('single-user administration', () => {
  it('gets a user by email (any case) or by username, and reports unknown ones', async () => {
    const username = await createUser(harness, 'lookup@example.com', 'Look#Up1234');
    const byEmail = await getUser('LookUp@Example.com');
    const byName = await getUser(username);
    expect(byEmail).toMatchObject({ Username: username, Enabled: true, UserStatus: 'CONFIRMED' });
    expect(byName.Username).toBe(username);
    expect(byEmail.UserMFASettingList).toBeUndefined();
    await expect(getUser('ghost@example.com')).rejects.toMatchObject(notFound);
    await expect(
      harness.admin.send(new AdminGetUserCommand({ UserPoolId: 'us-east-2_Missing99', Username: username })),
    ).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
      message: 'User pool us-east-2_Missing99 does not exist.',
    });
  });

  it('updates attributes, keeping emails unique and sub immutable', async () => {
    const username = await createUser(harness, 'attrs@example.com', 'Attr#S12345');
    await createUser(harness, 'other.attrs@example.com', 'Attr#S12345');
    const update = (UserAttributes: AttributeType[]) =>
      harness.admin.send(
        new AdminUpdateUserAttributesCommand({ UserPoolId: pool(), Username: 'attrs@example.com', UserAttributes }),
      );
    await update([{ Name: 'name', Value: 'Ada Attrs' }]);
    await expect(update([{ Name: 'email', Value: 'other.attrs@example.com' }])).rejects.toMatchObject({
      name: 'AliasExistsException',
    });
    await expect(update([{ Name: 'sub', Value: 'mine' }])).rejects.toMatchObject({ name: 'InvalidParameterException' });
    await update([
      { Name: 'email', Value: 'renamed@example.com' },
      { Name: 'email_verified', Value: 'true' },
    ]);
    expect(attributeMap((await getUser(username)).UserAttributes)).toEqual({
      sub: username,
      name: 'Ada Attrs',
      email: 'renamed@example.com',
      email_verified: 'true',
    });
    await expect(getUser('attrs@example.com')).rejects.toMatchObject(notFound);
  });

  it('sets temporary and permanent passwords, enables, disables and deletes', async () => {
    const username = await createUser(harness, 'lifecycle@example.com', 'Life#Cycle1');
    const target = { UserPoolId: pool(), Username: 'lifecycle@example.com' };
    await harness.admin.send(new AdminSetUserPasswordCommand({ ...target, Password: 'Temp#Orary1', Permanent: false }));
    expect((await getUser(username)).UserStatus).toBe('FORCE_CHANGE_PASSWORD');
    await expect(
      harness.admin.send(new AdminSetUserPasswordCommand({ ...target, Password: 'short', Permanent: true })),
    ).rejects.toMatchObject({
      name: 'InvalidPasswordException',
    });
    await harness.admin.send(new AdminSetUserPasswordCommand({ ...target, Password: 'Perm#Anent1', Permanent: true }));
    expect((await getUser(username)).UserStatus).toBe('CONFIRMED');
    await harness.admin.send(new AdminDisableUserCommand(target));
    expect((await getUser(username)).Enabled).toBe(false);
    await harness.admin.send(new AdminEnableUserCommand(target));
    expect((await getUser(username)).Enabled).toBe(true);
    await harness.admin.send(new AdminDeleteUserCommand(target));
    await expect(getUser(username)).rejects.toMatchObject(notFound);
    await expect(harness.admin.send(new AdminDeleteUserCommand(target))).rejects.toMatchObject(notFound);
    const again = await createUser(harness, 'lifecycle@example.com', 'Life#Cycle1');
    expect(again).not.toBe(username);
  });

  it('forces a password reset: the old password stops working until the emailed code sets a new one', async () => {
    const username = await createUser(harness, 'forced.reset@example.com', 'Forced#Re1');
    await harness.admin.send(
      new AdminResetUserPasswordCommand({ UserPoolId: pool(), Username: 'forced.reset@example.com' }),
    );
    expect((await getUser(username)).UserStatus).toBe('RESET_REQUIRED');
    const code = /Your password reset code is (\d{6})/.exec(lastMailTo(harness, 'forced.reset@example.com').text)![1]!;
    const user = userFor(harness.pool, 'forced.reset@example.com');
    await expect(authenticate(user, 'forced.reset@example.com', 'Forced#Re1')).rejects.toMatchObject({
      code: 'PasswordResetRequiredException',
      message: 'Password reset required for the user',
    });
    await confirmPassword(user, code, 'Renewed#Pw1');
    expect((await getUser(username)).UserStatus).toBe('CONFIRMED');
    expect(
      (await authenticate(userFor(harness.pool, 'forced.reset@example.com'), 'forced.reset@example.com', 'Renewed#Pw1'))
        .step,
    ).toBe('MFA_SETUP');
  });

  it('sets MFA preferences only for a verified authenticator and only for TOTP', async () => {
    await createUser(harness, 'no.token@example.com', 'No#Token123');
    const set = (
      Username: string,
      settings: Partial<ConstructorParameters<typeof AdminSetUserMFAPreferenceCommand>[0]>,
    ) => harness.admin.send(new AdminSetUserMFAPreferenceCommand({ UserPoolId: pool(), Username, ...settings }));
    await expect(set('no.token@example.com', { SoftwareTokenMfaSettings: { Enabled: true } })).rejects.toMatchObject({
      name: 'InvalidParameterException',
      message: 'User has not verified software token mfa',
    });
    await expect(set('no.token@example.com', { SMSMfaSettings: { Enabled: true } })).rejects.toMatchObject({
      name: 'InvalidParameterException',
    });
    await createEnrolledUser(harness, 'has.token@example.com', 'Has#Token12');
    expect((await getUser('has.token@example.com')).UserMFASettingList).toEqual(['SOFTWARE_TOKEN_MFA']);
    await set('has.token@example.com', { SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false } });
    const after = await getUser('has.token@example.com');
    expect(after.UserMFASettingList).toBeUndefined();
    expect(after.PreferredMfaSetting).toBeUndefined();
  });
});

describe('groups', () => {
  it('starts with Admins and Users, creates groups and refuses duplicates', async () => {
    const { Groups } = await harness.admin.send(new ListGroupsCommand({ UserPoolId: pool() }));
    expect(Groups?.map(({ GroupName, Precedence }) => ({ GroupName, Precedence }))).toEqual([
      { GroupName: 'Admins', Precedence: 0 },
      { GroupName: 'Users', Precedence: 1 },
    ]);
    const { Group } = await harness.admin.send(
      new CreateGroupCommand({ UserPoolId: pool(), GroupName: 'Auditors', Precedence: 5, Description: 'Read-only' }),
    );
    expect(Group).toMatchObject({ GroupName: 'Auditors', Precedence: 5, Description: 'Read-only', UserPoolId: pool() });
    await expect(
      harness.admin.send(new CreateGroupCommand({ UserPoolId: pool(), GroupName: 'Auditors' })),
    ).rejects.toMatchObject({
      name: 'GroupExistsException',
      message: 'A group with the name Auditors already exists.',
    });
  });

  it('adds, lists and removes memberships', async () => {
    await createUser(harness, 'member@example.com', 'Mem#Ber1234');
    const membership = { UserPoolId: pool(), Username: 'member@example.com' };
    await harness.admin.send(new AdminAddUserToGroupCommand({ ...membership, GroupName: 'Users' }));
    await harness.admin.send(new AdminAddUserToGroupCommand({ ...membership, GroupName: 'Admins' }));
    await harness.admin.send(new AdminAddUserToGroupCommand({ ...membership, GroupName: 'Admins' }));
    const listed = await harness.admin.send(new AdminListGroupsForUserCommand(membership));
    expect(listed.Groups?.map((group) => group.GroupName)).toEqual(['Admins', 'Users']);
    await harness.admin.send(new AdminRemoveUserFromGroupCommand({ ...membership, GroupName: 'Admins' }));
    const after = await harness.admin.send(new AdminListGroupsForUserCommand(membership));
    expect(after.Groups?.map((group) => group.GroupName)).toEqual(['Users']);
    await expect(
      harness.admin.send(new AdminAddUserToGroupCommand({ ...membership, GroupName: 'Nope' })),
    ).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
      message: 'Group not found.',
    });
    await expect(
      harness.admin.send(
        new AdminAddUserToGroupCommand({ UserPoolId: pool(), Username: 'ghost@example.com', GroupName: 'Users' }),
      ),
    ).rejects.toMatchObject(notFound);
  });
});

describe('listing users', () => {
  let listing: CognitoHarness;
  const emails = Array.from({ length: 130 }, (_, index) => `list.${String(index).padStart(3, '0')}@example.com`);
  const usernames: string[] = [];

  beforeAll(async () => {
    listing = await startHarness();
    await listing.admin.send(
      new CreateGroupCommand({ UserPoolId: listing.emulator.userPoolId, GroupName: 'Distributors' }),
    );
    for (const [index, email] of emails.entries()) {
      const { User } = await listing.admin.send(
        new AdminCreateUserCommand({
          UserPoolId: listing.emulator.userPoolId,
          Username: email,
          MessageAction: 'SUPPRESS',
        }),
      );
      usernames.push(User!.Username!);
      if (index < 70) {
        await listing.admin.send(
          new AdminAddUserToGroupCommand({
            UserPoolId: listing.emulator.userPoolId,
            Username: email,
            GroupName: 'Distributors',
          }),
        );
      }
    }
    await listing.admin.send(
      new AdminDisableUserCommand({ UserPoolId: listing.emulator.userPoolId, Username: emails[7]! }),
    );
  });
  afterAll(() => listing.close());

  const listUsers = (input: Omit<ConstructorParameters<typeof ListUsersCommand>[0], 'UserPoolId'> = {}) =>
    listing.admin.send(new ListUsersCommand({ UserPoolId: listing.emulator.userPoolId, ...input }));

  it('pages through every user, 60 at most, in a stable order', async () => {
    const pages: number[] = [];
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const page = await listUsers({ Limit: 60, PaginationToken: token });
      pages.push(page.Users!.length);
      seen.push(...page.Users!.map((user) => user.Username!));
      token = page.PaginationToken;
    } while (token);
    expect(pages).toEqual([60, 60, 10]);
    expect(seen).toEqual(usernames);
    expect((await listUsers()).Users).toHaveLength(60);
    await expect(listUsers({ Limit: 61 })).rejects.toMatchObject({
      name: 'InvalidParameterException',
      message:
        "1 validation error detected: Value '61' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 60",
    });
    await expect(listUsers({ PaginationToken: 'bogus' })).rejects.toMatchObject({ name: 'InvalidParameterException' });
  });

  it('filters by email, email prefix, username and status', async () => {
    const byEmail = await listUsers({ Filter: 'email = "LIST.042@example.com"' });
    expect(byEmail.Users?.map((user) => user.Username)).toEqual([usernames[42]]);
    const byPrefix = await listUsers({ Filter: 'email ^= "list.12"', AttributesToGet: ['email'] });
    expect(byPrefix.Users?.map((user) => attributeMap(user.Attributes))).toEqual(
      emails.filter((email) => email.startsWith('list.12')).map((email) => ({ email })),
    );
    expect((await listUsers({ Filter: `username = "${usernames[3]}"` })).Users?.map((user) => user.Username)).toEqual([
      usernames[3],
    ]);
    expect((await listUsers({ Filter: 'status = "Disabled"' })).Users?.map((user) => user.Username)).toEqual([
      usernames[7],
    ]);
    expect((await listUsers({ Filter: 'cognito:user_status = "FORCE_CHANGE_PASSWORD"', Limit: 5 })).Users).toHaveLength(
      5,
    );
    expect((await listUsers({ Filter: 'email = "absent@example.com"' })).Users).toEqual([]);
    for (const Filter of ['email = absent', 'shoe_size = "9"', 'email ~ "x"']) {
      await expect(listUsers({ Filter })).rejects.toMatchObject({
        name: 'InvalidParameterException',
        message: 'Error while parsing filter.',
      });
    }
  });

  it('pages through the members of a group', async () => {
    const listGroup = (NextToken?: string) =>
      listing.admin.send(
        new ListUsersInGroupCommand({ UserPoolId: listing.emulator.userPoolId, GroupName: 'Distributors', NextToken }),
      );
    const first = await listGroup();
    const second = await listGroup(first.NextToken);
    expect(first.Users).toHaveLength(60);
    expect(second.Users).toHaveLength(10);
    expect(second.NextToken).toBeUndefined();
    expect([...first.Users!, ...second.Users!].map((user) => user.Username)).toEqual(usernames.slice(0, 70));
    await expect(
      listing.admin.send(
        new ListUsersInGroupCommand({ UserPoolId: listing.emulator.userPoolId, GroupName: 'Missing' }),
      ),
    ).rejects.toMatchObject({ name: 'ResourceNotFoundException', message: 'Group not found.' });
  });
});
