import {
  CreateGroupCommand,
  CreateGroupMembershipCommand,
  DeleteGroupCommand,
  DeleteGroupMembershipCommand,
  DeleteUserCommand,
  DescribeDashboardPermissionsCommand,
  DescribeGroupCommand,
  ListGroupMembershipsCommand,
  ListGroupsCommand,
  ListUserGroupsCommand,
  UpdateDashboardPermissionsCommand,
} from '@aws-sdk/client-quicksight';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStateStore } from '#emulators/quicksight/persistence.ts';
import {
  ACCOUNT_ID,
  NAMESPACE,
  VIEWER_ACTIONS,
  embeddedPage,
  groupArn,
  sdkError,
  startTestEmulator,
  userArn,
  type TestEmulator,
} from './quicksight-support.ts';

/**
 * Groups and memberships as the QuickSight API Reference documents them: CreateGroup, DeleteGroup,
 * DescribeGroup, ListGroups, CreateGroupMembership, DeleteGroupMembership, ListGroupMemberships,
 * ListUserGroups (https://docs.aws.amazon.com/quicksight/latest/APIReference/API_CreateGroup.html and the pages
 * of the same name), with their documented errors.
 */

const NORTHWIND = 'company-northwind';
const CONTOSO = 'company-contoso';
const ANNA = 'anna@example.com';
const BEN = 'ben@example.com';

let t: TestEmulator;
beforeEach(async () => {
  t = await startTestEmulator();
});
afterEach(async () => {
  await t.close();
});

const scope = { AwsAccountId: ACCOUNT_ID, Namespace: NAMESPACE };
const createGroup = (GroupName: string, Description?: string) =>
  t.client.send(new CreateGroupCommand({ ...scope, GroupName, Description }));
const addMember = (GroupName: string, MemberName: string) =>
  t.client.send(new CreateGroupMembershipCommand({ ...scope, GroupName, MemberName }));
const removeMember = (GroupName: string, MemberName: string) =>
  t.client.send(new DeleteGroupMembershipCommand({ ...scope, GroupName, MemberName }));
const members = async (GroupName: string) =>
  (await t.client.send(new ListGroupMembershipsCommand({ ...scope, GroupName }))).GroupMemberList?.map(
    (m) => m.MemberName,
  );
const groupNames = async () => (await t.client.send(new ListGroupsCommand(scope))).GroupList?.map((g) => g.GroupName);

describe('groups', () => {
  it('creates a group with its ARN in the namespace, and describes and lists it', async () => {
    const created = await createGroup(NORTHWIND, 'Portal company: Northwind Manufacturing');
    expect(created.Status).toBe(200);
    expect(created.Group).toMatchObject({
      Arn: groupArn(NORTHWIND),
      GroupName: NORTHWIND,
      Description: 'Portal company: Northwind Manufacturing',
    });
    expect(created.Group?.PrincipalId).toMatch(/\S/);
    const described = await t.client.send(new DescribeGroupCommand({ ...scope, GroupName: NORTHWIND }));
    expect(described.Group).toEqual(created.Group);
    expect(await groupNames()).toEqual([NORTHWIND]);
  });

  it('refuses an existing group name with ResourceExistsException and keeps the group as it was', async () => {
    await createGroup(NORTHWIND, 'first');
    expect(await sdkError(createGroup(NORTHWIND, 'second'))).toMatchObject({
      name: 'ResourceExistsException',
      status: 409,
    });
    const described = await t.client.send(new DescribeGroupCommand({ ...scope, GroupName: NORTHWIND }));
    expect(described.Group?.Description).toBe('first');
  });

  it.each([
    ['a name outside Latin-1', { GroupName: 'Fabrikam \u2603' }],
    ['an empty name', { GroupName: '' }],
    ['a description over 512 characters', { GroupName: 'g', Description: 'x'.repeat(513) }],
  ])('refuses %s with InvalidParameterValueException and creates nothing', async (_case, input) => {
    expect(await sdkError(t.client.send(new CreateGroupCommand({ ...scope, ...input })))).toMatchObject({
      name: 'InvalidParameterValueException',
      status: 400,
    });
    expect(await groupNames()).toEqual([]);
  });

  it('answers ResourceNotFoundException for another namespace and AccessDeniedException for another account', async () => {
    expect(
      await sdkError(t.client.send(new CreateGroupCommand({ ...scope, Namespace: 'partners', GroupName: 'g' }))),
    ).toMatchObject({
      name: 'ResourceNotFoundException',
      status: 404,
    });
    expect(
      await sdkError(t.client.send(new ListGroupsCommand({ ...scope, AwsAccountId: '210987654321' }))),
    ).toMatchObject({
      name: 'AccessDeniedException',
    });
  });

  it('answers ResourceNotFoundException for a group that does not exist', async () => {
    for (const call of [
      t.client.send(new DescribeGroupCommand({ ...scope, GroupName: 'absent' })),
      t.client.send(new DeleteGroupCommand({ ...scope, GroupName: 'absent' })),
      t.client.send(new ListGroupMembershipsCommand({ ...scope, GroupName: 'absent' })),
    ]) {
      expect(await sdkError(call)).toMatchObject({ name: 'ResourceNotFoundException', status: 404 });
    }
  });

  it('lists groups in pages with NextToken and refuses a token of another list', async () => {
    for (const name of ['g1', 'g2', 'g3']) await createGroup(name);
    const first = await t.client.send(new ListGroupsCommand({ ...scope, MaxResults: 2 }));
    expect(first.GroupList?.map((g) => g.GroupName)).toEqual(['g1', 'g2']);
    expect(first.NextToken).toBeTruthy();
    const second = await t.client.send(new ListGroupsCommand({ ...scope, MaxResults: 2, NextToken: first.NextToken }));
    expect(second.GroupList?.map((g) => g.GroupName)).toEqual(['g3']);
    expect(second.NextToken).toBeUndefined();
    expect(
      await sdkError(t.client.send(new ListGroupsCommand({ ...scope, NextToken: 'bm90LWEtdG9rZW4' }))),
    ).toMatchObject({
      name: 'InvalidNextTokenException',
      status: 400,
    });
    expect(await sdkError(t.client.send(new ListGroupsCommand({ ...scope, MaxResults: 101 })))).toMatchObject({
      name: 'InvalidParameterValueException',
    });
  });

  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_CreateGroup.html:
  // "You can create up to 10,000 groups in a namespace."
  it('refuses more than 10,000 groups in a namespace with LimitExceededException', async () => {
    await t.stop();
    const store = await openStateStore({ dataDir: t.dataDir, accountId: ACCOUNT_ID, now: Date.now });
    for (let i = 0; i < 10_000; i += 1) {
      await store.commit({
        type: 'putGroup',
        group: { namespace: NAMESPACE, groupName: `bulk-${i}`, principalId: `group/bulk/${i}` },
      });
    }
    await store.close();
    t = await t.restart();
    expect(await sdkError(createGroup('one-too-many'))).toMatchObject({ name: 'LimitExceededException', status: 409 });
    expect(
      await sdkError(t.client.send(new DescribeGroupCommand({ ...scope, GroupName: 'one-too-many' }))),
    ).toMatchObject({
      name: 'ResourceNotFoundException',
    });
  });
});

describe('group memberships', () => {
  beforeEach(async () => {
    await createGroup(NORTHWIND);
    await createGroup(CONTOSO);
    await t.register(ANNA);
    await t.register(BEN);
  });

  it('adds registered users, answering the member, and adding again changes nothing', async () => {
    const added = await addMember(NORTHWIND, ANNA);
    expect(added.GroupMember).toEqual({ Arn: userArn(ANNA), MemberName: ANNA });
    await addMember(NORTHWIND, BEN);
    const again = await addMember(NORTHWIND, ANNA);
    expect(again.GroupMember).toEqual({ Arn: userArn(ANNA), MemberName: ANNA });
    expect(await members(NORTHWIND)).toEqual([ANNA, BEN]);
    expect(await members(CONTOSO)).toEqual([]);
  });

  it('refuses a user who is not registered, or a missing group, with ResourceNotFoundException', async () => {
    expect(await sdkError(addMember(NORTHWIND, 'nobody@example.com'))).toMatchObject({
      name: 'ResourceNotFoundException',
      status: 404,
    });
    expect(await sdkError(addMember('absent', ANNA))).toMatchObject({ name: 'ResourceNotFoundException', status: 404 });
    expect(await sdkError(addMember(NORTHWIND, 'bad\u2603name'))).toMatchObject({
      name: 'InvalidParameterValueException',
    });
    expect(await members(NORTHWIND)).toEqual([]);
  });

  it('removes a member; removing one who is not a member is ResourceNotFoundException', async () => {
    await addMember(NORTHWIND, ANNA);
    await addMember(NORTHWIND, BEN);
    await removeMember(NORTHWIND, ANNA);
    expect(await members(NORTHWIND)).toEqual([BEN]);
    expect(await sdkError(removeMember(NORTHWIND, ANNA))).toMatchObject({
      name: 'ResourceNotFoundException',
      status: 404,
    });
    expect(await sdkError(removeMember(NORTHWIND, 'nobody@example.com'))).toMatchObject({
      name: 'ResourceNotFoundException',
    });
    expect(await members(NORTHWIND)).toEqual([BEN]);
  });

  it('lists members in pages with NextToken', async () => {
    for (const user of ['c@example.com', 'd@example.com']) await t.register(user);
    for (const user of [ANNA, BEN, 'c@example.com', 'd@example.com']) await addMember(CONTOSO, user);
    const first = await t.client.send(new ListGroupMembershipsCommand({ ...scope, GroupName: CONTOSO, MaxResults: 3 }));
    expect(first.GroupMemberList?.map((m) => m.MemberName)).toEqual([ANNA, BEN, 'c@example.com']);
    expect(first.GroupMemberList?.[0]?.Arn).toBe(userArn(ANNA));
    const second = await t.client.send(
      new ListGroupMembershipsCommand({ ...scope, GroupName: CONTOSO, MaxResults: 3, NextToken: first.NextToken }),
    );
    expect(second.GroupMemberList?.map((m) => m.MemberName)).toEqual(['d@example.com']);
    expect(second.NextToken).toBeUndefined();
    expect(
      await sdkError(
        t.client.send(new ListGroupMembershipsCommand({ ...scope, GroupName: CONTOSO, NextToken: 'garbage' })),
      ),
    ).toMatchObject({ name: 'InvalidNextTokenException' });
  });

  it("lists a user's groups (ListUserGroups) in pages, with their ARNs; an unknown user is ResourceNotFoundException", async () => {
    const userGroups = (UserName: string, MaxResults?: number, NextToken?: string) =>
      t.client.send(new ListUserGroupsCommand({ ...scope, UserName, MaxResults, NextToken }));
    expect((await userGroups(ANNA)).GroupList).toEqual([]);
    await addMember(NORTHWIND, ANNA);
    await addMember(CONTOSO, ANNA);
    await addMember(CONTOSO, BEN);
    const first = await userGroups(ANNA, 1);
    expect(first.GroupList).toEqual([
      expect.objectContaining({ GroupName: NORTHWIND, Arn: groupArn(NORTHWIND), PrincipalId: expect.any(String) }),
    ]);
    const second = await userGroups(ANNA, 1, first.NextToken);
    expect(second.GroupList?.map((g) => g.GroupName)).toEqual([CONTOSO]);
    expect(second.NextToken).toBeUndefined();
    expect((await userGroups(BEN)).GroupList?.map((g) => g.GroupName)).toEqual([CONTOSO]);
    await removeMember(NORTHWIND, ANNA);
    expect((await userGroups(ANNA)).GroupList?.map((g) => g.GroupName)).toEqual([CONTOSO]);
    expect(await sdkError(userGroups('nobody@example.com'))).toMatchObject({
      name: 'ResourceNotFoundException',
      status: 404,
    });
    expect(await sdkError(userGroups(ANNA, undefined, 'garbage'))).toMatchObject({
      name: 'InvalidNextTokenException',
    });
  });

  it('drops a deleted user from every group', async () => {
    await addMember(NORTHWIND, ANNA);
    await addMember(CONTOSO, ANNA);
    await addMember(CONTOSO, BEN);
    await t.client.send(new DeleteUserCommand({ ...scope, UserName: ANNA }));
    expect(await members(NORTHWIND)).toEqual([]);
    expect(await members(CONTOSO)).toEqual([BEN]);
    // Registered again, the user starts with no group.
    await t.register(ANNA);
    expect(await members(NORTHWIND)).toEqual([]);
  });

  it('deletes a group with its memberships: a group made again under the name starts empty', async () => {
    await addMember(NORTHWIND, ANNA);
    await t.client.send(new DeleteGroupCommand({ ...scope, GroupName: NORTHWIND }));
    expect(await groupNames()).toEqual([CONTOSO]);
    await createGroup(NORTHWIND);
    expect(await members(NORTHWIND)).toEqual([]);
  });

  it('keeps groups and memberships across a restart', async () => {
    await addMember(NORTHWIND, ANNA);
    await addMember(CONTOSO, BEN);
    await addMember(CONTOSO, ANNA);
    t = await t.restart();
    expect(await groupNames()).toEqual([NORTHWIND, CONTOSO]);
    expect(await members(NORTHWIND)).toEqual([ANNA]);
    expect(await members(CONTOSO)).toEqual([BEN, ANNA]);
  });
});

describe('dashboard permissions granted to a group', () => {
  const grantGroup = (GroupName: string) =>
    t.client.send(
      new UpdateDashboardPermissionsCommand({
        AwsAccountId: ACCOUNT_ID,
        DashboardId: 'sales-performance',
        GrantPermissions: [{ Principal: groupArn(GroupName), Actions: VIEWER_ACTIONS }],
      }),
    );

  it('lets the members open the dashboard, and goes with the group when it is deleted', async () => {
    await createGroup(NORTHWIND);
    await t.register(ANNA);
    await t.register(BEN);
    await addMember(NORTHWIND, ANNA);
    await grantGroup(NORTHWIND);
    expect(await embeddedPage(t, ANNA, 'sales-performance')).toContain('<h1>Sales Performance</h1>');
    expect(await embeddedPage(t, BEN, 'sales-performance')).toContain('You are not authorized to view this dashboard');

    await t.client.send(new DeleteGroupCommand({ ...scope, GroupName: NORTHWIND }));
    const permissions = await t.client.send(
      new DescribeDashboardPermissionsCommand({ AwsAccountId: ACCOUNT_ID, DashboardId: 'sales-performance' }),
    );
    expect(permissions.Permissions).toEqual([]);
  });

  it('refuses a grant to a group that does not exist with InvalidParameterValueException', async () => {
    expect(await sdkError(grantGroup('absent'))).toMatchObject({ name: 'InvalidParameterValueException', status: 400 });
  });
});
