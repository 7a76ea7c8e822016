import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { userArn, type AccountScope } from './arns.ts';
import { QuickSightError, invalidParameter, userNotFound } from './errors.ts';
import { paginate, parseBody, requireAccount, requireNamespace, requireParam } from './input.ts';
import { QUICKSIGHT_USER_ROLES, type StoredUser } from './state.ts';
import type { ApiOperation, ApiRequest, ApiContext } from './api-types.ts';

/** RegisterUser, DescribeUser, ListUsers and DeleteUser for QUICKSIGHT-identity users. */

const MAX_USER_NAME_LENGTH = 256;
// QuickSight's user-name pattern: printable Latin-1, no slash (it separates ARN parts here).
const USER_NAME = /^[\u0020-\u002E\u0030-\u00FF]+$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const registerUserSchema = z.object({
  IdentityType: z.enum(['IAM', 'QUICKSIGHT', 'IAM_IDENTITY_CENTER'], {
    error: 'must be IAM, QUICKSIGHT or IAM_IDENTITY_CENTER',
  }),
  Email: z.string({ error: 'is required' }).max(254).regex(EMAIL, 'must be an email address'),
  UserRole: z.enum(QUICKSIGHT_USER_ROLES, { error: `must be one of ${QUICKSIGHT_USER_ROLES.join(', ')}` }),
  UserName: z.string().optional(),
  IamArn: z.string().optional(),
  SessionName: z.string().optional(),
});

function requireUserName(value: string): string {
  if (value.length > MAX_USER_NAME_LENGTH || !USER_NAME.test(value)) {
    throw invalidParameter(`UserName must be 1-${MAX_USER_NAME_LENGTH} printable characters without '/'`);
  }
  return value;
}

function userView(scope: AccountScope, user: StoredUser) {
  return {
    Arn: userArn(scope, user.namespace, user.userName),
    UserName: user.userName,
    Email: user.email,
    Role: user.role,
    IdentityType: user.identityType,
    Active: user.active,
    PrincipalId: user.principalId,
  };
}

/**
 * RegisterUser's UserInvitationUrl: "The URL the user visits to complete registration and
 * provide a password. This is returned only for users with an identity type of QUICKSIGHT"
 * (https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RegisterUser.html), and
 * QuickSight sends no registration email for users registered through the API. Locally the
 * user is active at once and has no password to set, so each registration's link (a fresh,
 * unguessable token) leads to the emulator's start page.
 */
function invitationUrl(context: ApiContext): string {
  return `${context.baseUrl}/?invitation=${randomUUID()}`;
}

/** Account, namespace and user name of the user-scoped routes. */
function userTarget(request: ApiRequest, context: ApiContext, operation: string) {
  requireAccount(context.scope, request.params.AwsAccountId, operation);
  const namespace = requireNamespace(request.params.Namespace);
  const userName = requireUserName(requireParam(request.params, 'UserName'));
  const user = context.store.state.user(namespace, userName);
  if (!user) throw userNotFound(userArn(context.scope, namespace, userName));
  return user;
}

export const userOperations: readonly ApiOperation[] = [
  {
    name: 'RegisterUser',
    method: 'POST',
    path: '/accounts/{AwsAccountId}/namespaces/{Namespace}/users',
    async handle(request, context) {
      requireAccount(context.scope, request.params.AwsAccountId, 'RegisterUser');
      const namespace = requireNamespace(request.params.Namespace);
      const input = parseBody(registerUserSchema, request.body);
      if (input.IdentityType !== 'QUICKSIGHT') {
        throw invalidParameter('This account registers users with IdentityType QUICKSIGHT only');
      }
      if (input.UserName === undefined) throw invalidParameter('UserName is required for IdentityType QUICKSIGHT');
      const userName = requireUserName(input.UserName);
      if (context.store.state.user(namespace, userName)) {
        throw new QuickSightError(
          'ResourceExistsException',
          `The user with the name ${userName} already exists in namespace ${namespace}`,
          'USER',
        );
      }
      // Active at once: there is no invitation mailbox to accept an invitation from.
      const user: StoredUser = {
        namespace,
        userName,
        email: input.Email,
        role: input.UserRole,
        identityType: 'QUICKSIGHT',
        active: true,
        principalId: `federated/quicksight/${randomUUID()}`,
      };
      await context.store.commit({ type: 'putUser', user });
      return { status: 201, body: { User: userView(context.scope, user), UserInvitationUrl: invitationUrl(context) } };
    },
  },
  {
    name: 'DescribeUser',
    method: 'GET',
    path: '/accounts/{AwsAccountId}/namespaces/{Namespace}/users/{UserName}',
    handle(request, context) {
      return { body: { User: userView(context.scope, userTarget(request, context, 'DescribeUser')) } };
    },
  },
  {
    name: 'ListUsers',
    method: 'GET',
    path: '/accounts/{AwsAccountId}/namespaces/{Namespace}/users',
    handle(request, context) {
      requireAccount(context.scope, request.params.AwsAccountId, 'ListUsers');
      const namespace = requireNamespace(request.params.Namespace);
      const page = paginate(context.store.state.usersOf(namespace), request.query, 'users');
      return { body: { UserList: page.items.map((u) => userView(context.scope, u)), NextToken: page.nextToken } };
    },
  },
  {
    name: 'DeleteUser',
    method: 'DELETE',
    path: '/accounts/{AwsAccountId}/namespaces/{Namespace}/users/{UserName}',
    async handle(request, context) {
      const user = userTarget(request, context, 'DeleteUser');
      await context.store.commit({
        type: 'deleteUser',
        namespace: user.namespace,
        userName: user.userName,
        userArn: userArn(context.scope, user.namespace, user.userName),
      });
      return { body: {} };
    },
  },
];
