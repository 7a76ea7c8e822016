import {
  DeleteUserCommand,
  QuickSightClient,
  RegisterUserCommand,
  UpdateDashboardPermissionsCommand,
} from '@aws-sdk/client-quicksight';
import { ACCOUNT_ID as LOCAL_ACCOUNT_ID, startTestEmulator } from '../../local/quicksight-support.ts';
import { REGION, awsSetting, onAws, scratchName } from './target.ts';

/**
 * QuickSight for the conformance suite. Locally: the emulator on a free port with a
 * temporary data directory. On AWS: the account named by CONFORMANCE_QUICKSIGHT_ACCOUNT_ID
 * (no STS call needed) and an existing dashboard CONFORMANCE_DASHBOARD_ID to embed; scratch
 * users are registered in namespace `default` and deleted, with any permission granted to
 * them, in `close()`.
 */

export const NAMESPACE = 'default';

/** The viewer permission the product grants on assignment. */
export const VIEWER_ACTIONS = ['quicksight:DescribeDashboard', 'quicksight:ListDashboardVersions', 'quicksight:QueryDashboard'];

export interface QuickSightTarget {
  readonly accountId: string;
  /** Client in the dashboards' region (permissions, embed URLs). */
  readonly client: QuickSightClient;
  /** Client in the identity region (user management), as the product's handlers use it. */
  readonly identityClient: QuickSightClient;
  /** A dashboard that exists in the account. */
  readonly dashboardId: string;
  userArn(userName: string): string;
  /** Registers a scratch READER named by its (example.com) email, as the product does. */
  registerUser(): Promise<string>;
  /** A user name of this run that is not registered. */
  unregisteredUserName(): string;
  grantViewer(userName: string, dashboardId?: string): Promise<void>;
  close(): Promise<void>;
}

interface Backend {
  readonly accountId: string;
  readonly identityRegion: string;
  readonly client: QuickSightClient;
  readonly identityClient: QuickSightClient;
  readonly dashboardId: string;
  stop(): Promise<void>;
}

async function localBackend(): Promise<Backend> {
  const test = await startTestEmulator();
  return {
    accountId: LOCAL_ACCOUNT_ID,
    identityRegion: REGION,
    client: test.client,
    identityClient: test.client,
    dashboardId: 'sales-performance',
    stop: () => test.close(),
  };
}

function awsBackend(): Backend {
  const accountId = awsSetting('CONFORMANCE_QUICKSIGHT_ACCOUNT_ID', 'the 12-digit ID of the account with a QuickSight Enterprise subscription');
  const dashboardId = awsSetting('CONFORMANCE_DASHBOARD_ID', `the ID of a published dashboard in ${REGION} to test embedding with`);
  // Users live in the account's identity region, which may differ from the dashboards' region.
  const identityRegion = process.env.CONFORMANCE_QUICKSIGHT_IDENTITY_REGION?.trim() || REGION;
  const client = new QuickSightClient({ region: REGION });
  const identityClient = identityRegion === REGION ? client : new QuickSightClient({ region: identityRegion });
  return {
    accountId,
    identityRegion,
    client,
    identityClient,
    dashboardId,
    async stop() {
      client.destroy();
      identityClient.destroy();
    },
  };
}

export async function startQuickSightTarget(): Promise<QuickSightTarget> {
  const backend = onAws ? awsBackend() : await localBackend();
  const { accountId, client, identityClient } = backend;
  const registered = new Set<string>();
  const grants: { userName: string; dashboardId: string }[] = [];
  const userArn = (userName: string) => `arn:aws:quicksight:${backend.identityRegion}:${accountId}:user/${NAMESPACE}/${userName}`;
  const permissionChange = (userName: string, dashboardId: string, change: 'GrantPermissions' | 'RevokePermissions') =>
    client.send(
      new UpdateDashboardPermissionsCommand({
        AwsAccountId: accountId,
        DashboardId: dashboardId,
        [change]: [{ Principal: userArn(userName), Actions: VIEWER_ACTIONS }],
      }),
    );

  return {
    accountId,
    client,
    identityClient,
    dashboardId: backend.dashboardId,
    userArn,
    unregisteredUserName: () => `${scratchName('qs-absent')}@example.com`,
    async registerUser() {
      const userName = `${scratchName('qs')}@example.com`;
      await identityClient.send(
        new RegisterUserCommand({
          AwsAccountId: accountId,
          Namespace: NAMESPACE,
          IdentityType: 'QUICKSIGHT',
          Email: userName,
          UserName: userName,
          UserRole: 'READER',
        }),
      );
      registered.add(userName);
      return userName;
    },
    async grantViewer(userName, dashboardId = backend.dashboardId) {
      await permissionChange(userName, dashboardId, 'GrantPermissions');
      grants.push({ userName, dashboardId });
    },
    async close() {
      // Permissions first (a deleted user's grant would linger on the dashboard), then users;
      // every step is tried so one failure does not leave the rest behind.
      const steps = [
        ...grants.map(({ userName, dashboardId }) => () => permissionChange(userName, dashboardId, 'RevokePermissions')),
        ...[...registered].map(
          (userName) => () => identityClient.send(new DeleteUserCommand({ AwsAccountId: accountId, Namespace: NAMESPACE, UserName: userName })),
        ),
      ];
      const failures: unknown[] = [];
      for (const step of steps) await step().catch((error: unknown) => failures.push(error));
      await backend.stop();
      if (failures.length > 0) throw new AggregateError(failures, `QuickSight conformance cleanup failed ${failures.length} time(s)`);
    },
  };
}

export { sdkError } from '../../local/quicksight-support.ts';
