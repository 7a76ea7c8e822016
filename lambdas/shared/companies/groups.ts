import {
  CreateGroupCommand,
  CreateGroupMembershipCommand,
  DeleteGroupCommand,
  DeleteGroupMembershipCommand,
  ListGroupMembershipsCommand,
  ListGroupsCommand,
  ListUserGroupsCommand,
} from '@aws-sdk/client-quicksight';
import { ENV } from '#contracts/env.ts';
import { isAwsError } from '../aws/config.ts';
import { quicksightIdentity, quicksightIdentityRegion } from '../aws/quicksight.ts';
import { requireEnv } from '../env.ts';
import {
  QUICKSIGHT_PAGE_SIZE,
  QUICKSIGHT_USER_NOT_FOUND,
  quicksightFailure,
  quicksightSettings,
  quicksightUserName,
} from '../quicksight.ts';

/**
 * One QuickSight group per company, in the portal's namespace, named `<prefix><company id>`
 * (QuickSight group names allow only Latin-1 characters; company names may hold any). Groups
 * live with users in the identity region. Every step is idempotent: creating what exists or
 * deleting what is gone counts as done, so a retry or an undo finishes whatever is left.
 */

export const companyGroupPrefix = (): string => requireEnv(ENV.companyGroupPrefix);

export const groupNameOf = (companyId: string): string => `${companyGroupPrefix()}${companyId}`;

export const groupArn = (groupName: string): string => {
  const settings = quicksightSettings();
  return `arn:aws:quicksight:${quicksightIdentityRegion}:${settings.accountId}:group/${settings.namespace}/${groupName}`;
};

const scope = () => {
  const settings = quicksightSettings();
  return { AwsAccountId: settings.accountId, Namespace: settings.namespace };
};

export const createGroup = async (groupName: string, companyName: string): Promise<void> => {
  try {
    await quicksightIdentity.send(
      new CreateGroupCommand({
        ...scope(),
        GroupName: groupName,
        Description: `Portal company: ${companyName}`.slice(0, 512),
      }),
    );
  } catch (error) {
    if (isAwsError(error, 'ResourceExistsException')) return;
    throw quicksightFailure('Failed to create the company group in QuickSight', error);
  }
};

export const deleteGroup = async (groupName: string): Promise<void> => {
  try {
    await quicksightIdentity.send(new DeleteGroupCommand({ ...scope(), GroupName: groupName }));
  } catch (error) {
    if (isAwsError(error, 'ResourceNotFoundException')) return;
    throw quicksightFailure('Failed to delete the company group in QuickSight', error);
  }
};

/** Adds the QuickSight user of `email` to the group. */
export const addMember = async (groupName: string, email: string): Promise<void> => {
  try {
    await quicksightIdentity.send(
      new CreateGroupMembershipCommand({ ...scope(), GroupName: groupName, MemberName: quicksightUserName(email) }),
    );
  } catch (error) {
    if (isAwsError(error, 'ResourceExistsException')) return;
    throw quicksightFailure('Failed to add the user to the company group in QuickSight', error, email);
  }
};

/** Removes the QuickSight user of `email` from the group (absent user or group: nothing to remove). */
export const removeMember = async (groupName: string, email: string): Promise<void> => {
  try {
    await quicksightIdentity.send(
      new DeleteGroupMembershipCommand({ ...scope(), GroupName: groupName, MemberName: quicksightUserName(email) }),
    );
  } catch (error) {
    if (isAwsError(error, 'ResourceNotFoundException', QUICKSIGHT_USER_NOT_FOUND)) return;
    throw quicksightFailure('Failed to remove the user from the company group in QuickSight', error, email);
  }
};

/** The portal's company groups (those named with its prefix), one ListGroups call per 100 groups. */
export const listCompanyGroups = async (): Promise<string[]> => {
  const prefix = companyGroupPrefix();
  const names: string[] = [];
  let token: string | undefined;
  try {
    do {
      const page = await quicksightIdentity.send(
        new ListGroupsCommand({ ...scope(), MaxResults: QUICKSIGHT_PAGE_SIZE, NextToken: token }),
      );
      for (const group of page.GroupList ?? []) if (group.GroupName?.startsWith(prefix)) names.push(group.GroupName);
      token = page.NextToken;
    } while (token);
  } catch (error) {
    throw quicksightFailure('Failed to list the company groups in QuickSight', error);
  }
  return names;
};

/** Members of a group (QuickSight user names, i.e. lowercased emails), one call per 100 members. */
export const listMembers = async (groupName: string): Promise<string[]> => {
  const members: string[] = [];
  let token: string | undefined;
  try {
    do {
      const page = await quicksightIdentity.send(
        new ListGroupMembershipsCommand({
          ...scope(),
          GroupName: groupName,
          MaxResults: QUICKSIGHT_PAGE_SIZE,
          NextToken: token,
        }),
      );
      for (const member of page.GroupMemberList ?? [])
        if (member.MemberName) members.push(member.MemberName.toLowerCase());
      token = page.NextToken;
    } while (token);
  } catch (error) {
    if (isAwsError(error, 'ResourceNotFoundException')) return [];
    throw quicksightFailure('Failed to list the members of a company group in QuickSight', error);
  }
  return members;
};

/**
 * The portal's company groups the QuickSight user of `email` is really in (ListUserGroups, one
 * call per 100 groups), whatever the portal's record says; undefined when QuickSight has no
 * such user.
 */
export const companyGroupsOfUser = async (email: string): Promise<string[] | undefined> => {
  const prefix = companyGroupPrefix();
  const names: string[] = [];
  let token: string | undefined;
  try {
    do {
      // An answer without a list holds no groups.
      const { GroupList = [], NextToken } =
        (await quicksightIdentity.send(
          new ListUserGroupsCommand({
            ...scope(),
            UserName: quicksightUserName(email),
            MaxResults: QUICKSIGHT_PAGE_SIZE,
            NextToken: token,
          }),
        )) ?? {};
      for (const group of GroupList) if (group.GroupName?.startsWith(prefix)) names.push(group.GroupName);
      token = NextToken;
    } while (token);
  } catch (error) {
    if (isAwsError(error, 'ResourceNotFoundException', QUICKSIGHT_USER_NOT_FOUND)) return undefined;
    throw quicksightFailure("Failed to list the user's company groups in QuickSight", error, email);
  }
  return names;
};
