import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { groupArn, userArn, type AccountScope } from './arns.ts';
import { QuickSightError, groupNotFound, invalidParameter, resourceExists, userNotFound } from './errors.ts';
import { paginate, parseBody, requireAccount, requireNamespace, requireParam } from './input.ts';
import type { StoredGroup } from './state-groups.ts';
import type { ApiContext, ApiOperation, ApiRequest } from './api-types.ts';

/**
 * Groups of a namespace and their members: CreateGroup, DescribeGroup, ListGroups, DeleteGroup,
 * CreateGroupMembership, ListGroupMemberships, DeleteGroupMembership, and ListUserGroups (the
 * groups one user is a member of). Members are registered users of the same namespace.
 */

/** CreateGroup: "You can create up to 10,000 groups in a namespace." */
const MAX_GROUPS_PER_NAMESPACE = 10_000;

// GroupName and MemberName: pattern [\u0020-\u00FF]+ in the API reference.
const LATIN1 = /^[\u0020-\u00FF]+$/;
const MAX_MEMBER_NAME_LENGTH = 256;

const createGroupSchema = z.object({
  GroupName: z.string({ error: 'is required' }).min(1).regex(LATIN1, 'must be printable Latin-1 characters'),
  Description: z.string().min(1).max(512).optional(),
});

function requireGroupName(value: string): string {
  if (!LATIN1.test(value)) throw invalidParameter('GroupName must be printable Latin-1 characters');
  return value;
}

function requireMemberName(value: string): string {
  if (value.length > MAX_MEMBER_NAME_LENGTH || !LATIN1.test(value)) {
    throw invalidParameter(`MemberName must be 1-${MAX_MEMBER_NAME_LENGTH} printable Latin-1 characters`);
  }
  return value;
}

function groupView(scope: AccountScope, group: StoredGroup) {
  return {
    Arn: groupArn(scope, group.namespace, group.groupName),
    GroupName: group.groupName,
    Description: group.description,
    PrincipalId: group.principalId,
  };
}

const memberView = (scope: AccountScope, namespace: string, userName: string) => ({
  Arn: userArn(scope, namespace, userName),
  MemberName: userName,
});

/** Account, namespace and the existing group of the group-scoped routes. */
function targetGroup(request: ApiRequest, context: ApiContext, operation: string): StoredGroup {
  requireAccount(context.scope, request.params.AwsAccountId, operation);
  const namespace = requireNamespace(request.params.Namespace);
  const groupName = requireGroupName(requireParam(request.params, 'GroupName'));
  const group = context.store.state.groups.group(namespace, groupName);
  if (!group) throw groupNotFound(groupArn(context.scope, namespace, groupName));
  return group;
}

/** The group and a registered user of its namespace, for the membership routes. */
function targetMembership(request: ApiRequest, context: ApiContext, operation: string) {
  const group = targetGroup(request, context, operation);
  const memberName = requireMemberName(requireParam(request.params, 'MemberName'));
  if (!context.store.state.user(group.namespace, memberName))
    throw userNotFound(userArn(context.scope, group.namespace, memberName));
  return { group, memberName };
}

export const groupOperations: readonly ApiOperation[] = [
  {
    name: 'CreateGroup',
    method: 'POST',
    path: '/accounts/{AwsAccountId}/namespaces/{Namespace}/groups',
    async handle(request, context) {
      requireAccount(context.scope, request.params.AwsAccountId, 'CreateGroup');
      const namespace = requireNamespace(request.params.Namespace);
      const input = parseBody(createGroupSchema, request.body);
      const groups = context.store.state.groups;
      if (groups.group(namespace, input.GroupName)) {
        throw resourceExists(`The group ${input.GroupName} in namespace ${namespace}`, 'GROUP');
      }
      if (groups.groupsOf(namespace).length >= MAX_GROUPS_PER_NAMESPACE) {
        throw new QuickSightError(
          'LimitExceededException',
          `A namespace holds at most ${MAX_GROUPS_PER_NAMESPACE} groups`,
          'GROUP',
        );
      }
      const group: StoredGroup = {
        namespace,
        groupName: input.GroupName,
        description: input.Description,
        principalId: `group/quicksight/${randomUUID()}`,
      };
      await context.store.commit({ type: 'putGroup', group });
      return { body: { Group: groupView(context.scope, group) } };
    },
  },
  {
    name: 'DescribeGroup',
    method: 'GET',
    path: '/accounts/{AwsAccountId}/namespaces/{Namespace}/groups/{GroupName}',
    handle(request, context) {
      return { body: { Group: groupView(context.scope, targetGroup(request, context, 'DescribeGroup')) } };
    },
  },
  {
    name: 'ListGroups',
    method: 'GET',
    path: '/accounts/{AwsAccountId}/namespaces/{Namespace}/groups',
    handle(request, context) {
      requireAccount(context.scope, request.params.AwsAccountId, 'ListGroups');
      const namespace = requireNamespace(request.params.Namespace);
      const page = paginate(context.store.state.groups.groupsOf(namespace), request.query, 'groups');
      return { body: { GroupList: page.items.map((g) => groupView(context.scope, g)), NextToken: page.nextToken } };
    },
  },
  {
    name: 'DeleteGroup',
    method: 'DELETE',
    path: '/accounts/{AwsAccountId}/namespaces/{Namespace}/groups/{GroupName}',
    async handle(request, context) {
      const group = targetGroup(request, context, 'DeleteGroup');
      await context.store.commit({
        type: 'deleteGroup',
        namespace: group.namespace,
        groupName: group.groupName,
        groupArn: groupArn(context.scope, group.namespace, group.groupName),
      });
      return { body: {} };
    },
  },
  {
    name: 'CreateGroupMembership',
    method: 'PUT',
    path: '/accounts/{AwsAccountId}/namespaces/{Namespace}/groups/{GroupName}/members/{MemberName}',
    async handle(request, context) {
      const { group, memberName } = targetMembership(request, context, 'CreateGroupMembership');
      // Adding a member again changes nothing and answers the same (no ResourceExistsException is documented).
      if (!context.store.state.groups.isMember(group.namespace, group.groupName, memberName)) {
        await context.store.commit({
          type: 'addGroupMember',
          namespace: group.namespace,
          groupName: group.groupName,
          userName: memberName,
        });
      }
      return { body: { GroupMember: memberView(context.scope, group.namespace, memberName) } };
    },
  },
  {
    name: 'ListGroupMemberships',
    method: 'GET',
    path: '/accounts/{AwsAccountId}/namespaces/{Namespace}/groups/{GroupName}/members',
    handle(request, context) {
      const group = targetGroup(request, context, 'ListGroupMemberships');
      const members = context.store.state.groups.members(group.namespace, group.groupName);
      const page = paginate(members, request.query, 'group-members');
      return {
        body: {
          GroupMemberList: page.items.map((name) => memberView(context.scope, group.namespace, name)),
          NextToken: page.nextToken,
        },
      };
    },
  },
  {
    // ListUserGroups: "Lists the Amazon QuickSight groups that an Amazon QuickSight user is a member of", paged
    // (MaxResults 1-100); an unknown user is ResourceNotFoundException, as DescribeUser answers.
    name: 'ListUserGroups',
    method: 'GET',
    path: '/accounts/{AwsAccountId}/namespaces/{Namespace}/users/{UserName}/groups',
    handle(request, context) {
      requireAccount(context.scope, request.params.AwsAccountId, 'ListUserGroups');
      const namespace = requireNamespace(request.params.Namespace);
      const userName = requireMemberName(requireParam(request.params, 'UserName'));
      if (!context.store.state.user(namespace, userName))
        throw userNotFound(userArn(context.scope, namespace, userName));
      const groups = context.store.state.groups.groupsOfUser(namespace, userName);
      const page = paginate(groups, request.query, 'user-groups');
      return { body: { GroupList: page.items.map((g) => groupView(context.scope, g)), NextToken: page.nextToken } };
    },
  },
  {
    name: 'DeleteGroupMembership',
    method: 'DELETE',
    path: '/accounts/{AwsAccountId}/namespaces/{Namespace}/groups/{GroupName}/members/{MemberName}',
    async handle(request, context) {
      const { group, memberName } = targetMembership(request, context, 'DeleteGroupMembership');
      if (!context.store.state.groups.isMember(group.namespace, group.groupName, memberName)) {
        throw new QuickSightError(
          'ResourceNotFoundException',
          `${memberName} is not a member of group ${groupArn(context.scope, group.namespace, group.groupName)}`,
          'GROUP',
        );
      }
      await context.store.commit({
        type: 'removeGroupMember',
        namespace: group.namespace,
        groupName: group.groupName,
        userName: memberName,
      });
      return { body: {} };
    },
  },
];
