import { z } from 'zod';
import type { Operation, PoolContext } from '../context.ts';
import { ERRORS } from '../errors.ts';
import type { GroupRecord, UserRecord } from '../state.ts';
import { nextTokenPaging, parseInput, shapes } from '../validation.ts';
import { epochSeconds, pageToken, readPageToken, requirePool, requireUser } from './common.ts';

/** Groups and membership. */

function groupType(context: PoolContext, group: GroupRecord) {
  return {
    GroupName: group.name,
    UserPoolId: context.userPoolId,
    ...(group.description !== undefined ? { Description: group.description } : {}),
    ...(group.precedence !== undefined ? { Precedence: group.precedence } : {}),
    LastModifiedDate: epochSeconds(group.updatedAt),
    CreationDate: epochSeconds(group.createdAt),
  };
}

export function requireGroup(context: PoolContext, name: string): GroupRecord {
  const group = context.store.getGroup(name);
  if (!group) throw ERRORS.groupNotFound();
  return group;
}

/** A page of groups: the list is short, so offset tokens are enough. */
function groupsPage(
  context: PoolContext,
  groups: readonly GroupRecord[],
  limit: number | undefined,
  token: string | undefined,
) {
  const start = readPageToken('o', token);
  const end = start + (limit || 60);
  return {
    Groups: groups.slice(start, end).map((group) => groupType(context, group)),
    ...(end < groups.length ? { NextToken: pageToken('o', end) } : {}),
  };
}

const byPrecedence = (a: GroupRecord, b: GroupRecord) =>
  (a.precedence ?? Number.MAX_SAFE_INTEGER) - (b.precedence ?? Number.MAX_SAFE_INTEGER) || a.name.localeCompare(b.name);

const createGroup: Operation = {
  admin: true,
  run(context, body) {
    const input = parseInput(
      z.object({
        UserPoolId: shapes.userPoolId,
        GroupName: shapes.groupName,
        Description: z.string().max(2048).optional(),
        Precedence: z.number().int().min(0).max(2147483647).optional(),
        RoleArn: z.string().min(20).max(2048).optional(),
      }),
      body,
    );
    requirePool(context, input.UserPoolId);
    if (context.store.getGroup(input.GroupName)) throw ERRORS.groupExists(input.GroupName);
    const now = context.now();
    const group: GroupRecord = {
      name: input.GroupName,
      ...(input.Description !== undefined ? { description: input.Description } : {}),
      ...(input.Precedence !== undefined ? { precedence: input.Precedence } : {}),
      createdAt: now,
      updatedAt: now,
    };
    context.store.saveGroup(group);
    return { Group: groupType(context, group) };
  },
};

const listGroups: Operation = {
  admin: true,
  run(context, body) {
    const input = parseInput(z.object({ UserPoolId: shapes.userPoolId, ...nextTokenPaging }), body);
    requirePool(context, input.UserPoolId);
    return groupsPage(context, context.store.listGroups(), input.Limit, input.NextToken);
  },
};

/** AdminAddUserToGroup / AdminRemoveUserFromGroup: both idempotent. */
function membershipChange(change: (context: PoolContext, user: UserRecord, group: string) => void): Operation {
  return {
    admin: true,
    run(context, body) {
      const input = parseInput(
        z.object({ UserPoolId: shapes.userPoolId, Username: shapes.username, GroupName: shapes.groupName }),
        body,
      );
      requirePool(context, input.UserPoolId);
      const group = requireGroup(context, input.GroupName);
      change(context, requireUser(context, input.Username), group.name);
      return {};
    },
  };
}

const adminListGroupsForUser: Operation = {
  admin: true,
  run(context, body) {
    const input = parseInput(
      z.object({ UserPoolId: shapes.userPoolId, Username: shapes.username, ...nextTokenPaging }),
      body,
    );
    requirePool(context, input.UserPoolId);
    const user = requireUser(context, input.Username);
    const groups = user.groups
      .map((name) => context.store.getGroup(name))
      .filter((group): group is GroupRecord => group !== undefined)
      .sort(byPrecedence);
    return groupsPage(context, groups, input.Limit, input.NextToken);
  },
};

export const groupOperations = {
  CreateGroup: createGroup,
  ListGroups: listGroups,
  AdminAddUserToGroup: membershipChange((context, user, group) => context.store.addToGroup(user, group)),
  AdminRemoveUserFromGroup: membershipChange((context, user, group) => context.store.removeFromGroup(user, group)),
  AdminListGroupsForUser: adminListGroupsForUser,
};
