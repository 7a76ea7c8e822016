import {
  CreateGroupCommand,
  CreateGroupMembershipCommand,
  DeleteGroupMembershipCommand,
  ListUserGroupsCommand,
} from '@aws-sdk/client-quicksight';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAMESPACE, sdkError, startQuickSightTarget, type QuickSightTarget } from './support/quicksight-target.ts';

/**
 * The groups QuickSight has one user in, which a company change works its removals out from
 * (lambdas/shared/companies/groups.ts, companyGroupsOfUser). Named after the API reference page
 * it follows; runs against the local emulator, or unchanged against AWS (`npm run conformance -- --aws`).
 */

const API = 'https://docs.aws.amazon.com/quicksight/latest/APIReference';

let qs: QuickSightTarget;
let member: string;
beforeAll(async () => {
  qs = await startQuickSightTarget();
  member = await qs.registerUser();
}, 300_000);
afterAll(async () => {
  await qs?.close();
});

const scope = () => ({ AwsAccountId: qs.accountId, Namespace: NAMESPACE });

describe('the groups of one user', () => {
  it(`ListUserGroups (${API}/API_ListUserGroups.html): lists the groups the user is a member of, page by page`, async () => {
    const [first, second] = [qs.scratchGroupName(), qs.scratchGroupName()];
    for (const GroupName of [first, second]) {
      await qs.identityClient.send(new CreateGroupCommand({ ...scope(), GroupName }));
      await qs.identityClient.send(new CreateGroupMembershipCommand({ ...scope(), GroupName, MemberName: member }));
    }
    const names: string[] = [];
    let NextToken: string | undefined;
    let pages = 0;
    do {
      const page = await qs.identityClient.send(
        new ListUserGroupsCommand({ ...scope(), UserName: member, MaxResults: 1, NextToken }),
      );
      expect(page.Status).toBe(200);
      expect(page.GroupList?.length).toBeLessThanOrEqual(1);
      for (const group of page.GroupList ?? []) {
        expect(group.Arn).toBe(qs.groupArn(group.GroupName ?? ''));
        names.push(group.GroupName ?? '');
      }
      NextToken = page.NextToken;
      pages += 1;
    } while (NextToken);
    expect(names.sort()).toEqual([first, second].sort());
    expect(pages).toBeGreaterThanOrEqual(2);

    await qs.identityClient.send(
      new DeleteGroupMembershipCommand({ ...scope(), GroupName: first, MemberName: member }),
    );
    const after = await qs.identityClient.send(new ListUserGroupsCommand({ ...scope(), UserName: member }));
    expect(after.GroupList?.map((group) => group.GroupName)).toEqual([second]);
  });

  it(`ListUserGroups (${API}/API_ListUserGroups.html): answers ResourceNotFoundException for a user QuickSight does not have`, async () => {
    const absent = qs.identityClient.send(
      new ListUserGroupsCommand({ ...scope(), UserName: qs.unregisteredUserName() }),
    );
    expect(await sdkError(absent)).toMatchObject({ name: 'ResourceNotFoundException', status: 404 });
  });
});
