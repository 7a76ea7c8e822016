import { namespaceArn } from './arns.ts';
import { requireAccount, requireNamespace } from './input.ts';
import type { ApiOperation } from './api-types.ts';

/**
 * DescribeAccountSubscription and DescribeNamespace: the read operations a preflight uses to
 * see that the account is subscribed (Enterprise edition) and the portal's namespace exists.
 * The emulated account is an Enterprise subscription with QuickSight-managed users and only
 * the `default` namespace, in the emulator's region (its identity region).
 */

/** What the emulated subscription reports; AccountName is the name chosen at sign-up. */
const ACCOUNT_INFO = {
  AccountName: 'local-portal',
  Edition: 'ENTERPRISE',
  NotificationEmail: 'quicksight-admin@example.com',
  AuthenticationType: 'IDENTITY_POOL',
  AccountSubscriptionStatus: 'ACCOUNT_CREATED',
} as const;

export const accountOperations: readonly ApiOperation[] = [
  {
    name: 'DescribeAccountSubscription',
    method: 'GET',
    // The one QuickSight route under /account/ rather than /accounts/ (API reference).
    path: '/account/{AwsAccountId}',
    handle(request, context) {
      requireAccount(context.scope, request.params.AwsAccountId, 'DescribeAccountSubscription');
      return { body: { AccountInfo: { ...ACCOUNT_INFO } } };
    },
  },
  {
    name: 'DescribeNamespace',
    method: 'GET',
    path: '/accounts/{AwsAccountId}/namespaces/{Namespace}',
    handle(request, context) {
      requireAccount(context.scope, request.params.AwsAccountId, 'DescribeNamespace');
      const namespace = requireNamespace(request.params.Namespace);
      return {
        body: {
          Namespace: {
            Name: namespace,
            Arn: namespaceArn(context.scope, namespace),
            CapacityRegion: context.scope.region,
            CreationStatus: 'CREATED',
            IdentityStore: 'QUICKSIGHT',
          },
        },
      };
    },
  },
];
