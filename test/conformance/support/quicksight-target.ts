import {
  DeleteDataSetCommand,
  DeleteDataSourceCommand,
  DeleteGroupCommand,
  DeleteUserCommand,
  QuickSightClient,
  RegisterUserCommand,
  UpdateDashboardPermissionsCommand,
} from '@aws-sdk/client-quicksight';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { LOCAL_ACCOUNT_ID } from '#clients/local-stack.ts';
import { quicksightRules } from '#local/iam/quicksight-rules.ts';
import { startQuickSightEmulator } from '#emulators/quicksight/index.ts';
import { MemoryObjects } from '#test/local/quicksight-support.ts';
import { recordResponses } from './evidence.ts';
import { startFrontDoor } from './front-door.ts';
import { REGION, awsSetting, onAws, scratchName } from './target.ts';

/**
 * QuickSight for the conformance suite. Locally: the emulator on a free port with a
 * temporary data directory and an in-memory S3 for its ingestions. On AWS: the account named
 * by CONFORMANCE_QUICKSIGHT_ACCOUNT_ID (no STS call needed) and an existing dashboard
 * CONFORMANCE_DASHBOARD_ID to embed; the data-source tests also need a bucket QuickSight may
 * read (CONFORMANCE_QUICKSIGHT_BUCKET, optionally the role CONFORMANCE_QUICKSIGHT_S3_ROLE_ARN
 * it reads with). Scratch users are registered in namespace `default`; they, any permission
 * granted to them, and the scratch groups, data sources, datasets and S3 objects the tests
 * record are deleted in `close()`.
 */

export const NAMESPACE = 'default';

/** The viewer permission the product grants on assignment. */
export const VIEWER_ACTIONS = [
  'quicksight:DescribeDashboard',
  'quicksight:ListDashboardVersions',
  'quicksight:QueryDashboard',
];

export interface QuickSightTarget {
  readonly accountId: string;
  /** Client in the dashboards' region (permissions, embed URLs). */
  readonly client: QuickSightClient;
  /** Client in the identity region (user management), as the product's handlers use it. */
  readonly identityClient: QuickSightClient;
  /**
   * The operator's clients for calls no function makes (locally the administrator; on AWS `client` and
   * `identityClient`).
   */
  readonly operator: QuickSightClient;
  readonly identityOperator: QuickSightClient;
  /**
   * The IDs of the row-level security data source and dataset: the product's locally (its role names them), scratch
   * IDs on AWS.
   */
  rulesDataSourceId(): string;
  rulesDataSetId(): string;
  /** A dashboard that exists in the account. */
  readonly dashboardId: string;
  userArn(userName: string): string;
  /** Registers a scratch READER named by its (example.com) email, as the product does. */
  registerUser(): Promise<string>;
  /** A user name of this run that is not registered. */
  unregisteredUserName(): string;
  grantViewer(userName: string, dashboardId?: string): Promise<void>;
  /** Group ARNs carry the identity region. */
  groupArn(groupName: string): string;
  /** A group name of this run; the group is deleted at `close()` if a test made it. */
  scratchGroupName(): string;
  /** S3 that QuickSight reads data sources from; its objects written here are deleted at `close()`. */
  s3(): ScratchS3;
  /** Records a data source or dataset a test made, to delete at `close()`. */
  created(kind: 'dataSource' | 'dataSet', id: string): void;
  close(): Promise<void>;
}

export interface ScratchS3 {
  readonly bucket: string;
  /** The role QuickSight reads the bucket with (S3Parameters.RoleArn), when one is given. */
  readonly roleArn: string | undefined;
  put(key: string, text: string): Promise<void>;
}

interface Backend {
  readonly accountId: string;
  readonly identityRegion: string;
  readonly client: QuickSightClient;
  readonly identityClient: QuickSightClient;
  readonly operator: QuickSightClient;
  readonly identityOperator: QuickSightClient;
  readonly rulesIds: { readonly dataSource: () => string; readonly dataSet: () => string };
  readonly dashboardId: string;
  /** Only AWS needs scratch data sources and datasets deleted: the emulator's go with its data directory. */
  readonly deletesDataResources: boolean;
  s3(): {
    bucket: string;
    roleArn: string | undefined;
    put(key: string, text: string): Promise<void>;
    remove(key: string): Promise<void>;
  };
  stop(): Promise<void>;
}

/**
 * Locally: the emulator in local mode's account, reached through local mode's IAM gate with
 * the functions' role credentials (support/front-door.ts), as the product's functions reach it.
 */
async function localBackend(): Promise<Backend> {
  const objects = new MemoryObjects();
  const dataDir = await mkdtemp(join(tmpdir(), 'portal-conformance-quicksight-'));
  const emulator = await startQuickSightEmulator({
    port: 0,
    dataDir,
    accountId: LOCAL_ACCOUNT_ID,
    region: REGION,
    readObject: objects.readObject,
    listObjects: objects.listObjects,
  });
  const door = await startFrontDoor({ rules: quicksightRules, upstream: emulator.url }).catch(
    async (error: unknown) => {
      await emulator.close();
      await rm(dataDir, { recursive: true, force: true });
      throw error;
    },
  );
  const client = new QuickSightClient({
    endpoint: door.url,
    region: REGION,
    credentials: door.functions,
    maxAttempts: 1,
  });
  const operator = new QuickSightClient({
    endpoint: door.url,
    region: REGION,
    credentials: door.administrator,
    maxAttempts: 1,
  });
  const bucket = 'conformance-bucket';
  return {
    accountId: LOCAL_ACCOUNT_ID,
    identityRegion: REGION,
    client,
    identityClient: client,
    operator,
    identityOperator: operator,
    // The names the quicksight-admin role is allowed (lib: CompanyRules), in an emulator of their own.
    rulesIds: { dataSource: () => 'TVIQ-portal-company-rules', dataSet: () => 'TVIQ-portal-company-rules' },
    dashboardId: 'sales-performance',
    deletesDataResources: false,
    s3: () => ({
      bucket,
      roleArn: `arn:aws:iam::${LOCAL_ACCOUNT_ID}:role/conformance-quicksight-reader`,
      put: async (key, text) => objects.put(bucket, key, text),
      remove: async (key) => objects.delete(bucket, key),
    }),
    async stop() {
      client.destroy();
      operator.destroy();
      await door.close();
      await emulator.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

function awsBackend(): Backend {
  const accountId = awsSetting(
    'CONFORMANCE_QUICKSIGHT_ACCOUNT_ID',
    'the 12-digit ID of the account with a QuickSight Enterprise subscription',
  );
  const dashboardId = awsSetting(
    'CONFORMANCE_DASHBOARD_ID',
    `the ID of a published dashboard in ${REGION} to test embedding with`,
  );
  // Users live in the account's identity region, which may differ from the dashboards' region.
  const identityRegion = process.env.CONFORMANCE_QUICKSIGHT_IDENTITY_REGION?.trim() || REGION;
  const client = recordResponses(new QuickSightClient({ region: REGION }));
  const identityClient =
    identityRegion === REGION ? client : recordResponses(new QuickSightClient({ region: identityRegion }));
  let s3Client: S3Client | undefined;
  return {
    accountId,
    identityRegion,
    client,
    identityClient,
    operator: client,
    identityOperator: identityClient,
    rulesIds: { dataSource: () => scratchName('qs-rules-source'), dataSet: () => scratchName('qs-rules') },
    dashboardId,
    deletesDataResources: true,
    s3() {
      const bucket = awsSetting(
        'CONFORMANCE_QUICKSIGHT_BUCKET',
        'a bucket in the account that QuickSight has access to, for the S3 data-source tests',
      );
      s3Client ??= recordResponses(new S3Client({ region: REGION }));
      const s3 = s3Client;
      return {
        bucket,
        roleArn: process.env.CONFORMANCE_QUICKSIGHT_S3_ROLE_ARN?.trim() || undefined,
        put: async (key, text) => {
          await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: text }));
        },
        remove: async (key) => {
          await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
        },
      };
    },
    async stop() {
      client.destroy();
      identityClient.destroy();
      s3Client?.destroy();
    },
  };
}

export async function startQuickSightTarget(): Promise<QuickSightTarget> {
  const backend = onAws ? awsBackend() : await localBackend();
  const { accountId, client, identityClient } = backend;
  const registered = new Set<string>();
  const grants: { userName: string; dashboardId: string }[] = [];
  const groups = new Set<string>();
  const objects = new Set<string>();
  const dataSources = new Set<string>();
  const dataSets = new Set<string>();
  const userArn = (userName: string) =>
    `arn:aws:quicksight:${backend.identityRegion}:${accountId}:user/${NAMESPACE}/${userName}`;
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
    operator: backend.operator,
    identityOperator: backend.identityOperator,
    rulesDataSourceId: backend.rulesIds.dataSource,
    rulesDataSetId: backend.rulesIds.dataSet,
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
    groupArn: (groupName) =>
      `arn:aws:quicksight:${backend.identityRegion}:${accountId}:group/${NAMESPACE}/${groupName}`,
    scratchGroupName() {
      // The product's company groups are TVIQ-portal-company-<company>; its role manages only those.
      const name = `TVIQ-portal-company-${scratchName('qs-group')}`;
      groups.add(name);
      return name;
    },
    s3() {
      const s3 = backend.s3();
      return {
        bucket: s3.bucket,
        roleArn: s3.roleArn,
        async put(key, text) {
          await s3.put(key, text);
          objects.add(key);
        },
      };
    },
    created(kind, id) {
      (kind === 'dataSource' ? dataSources : dataSets).add(id);
    },
    async close() {
      // Permissions first (a deleted user's grant would linger on the dashboard), then groups
      // (a group already deleted by its test answers ResourceNotFoundException, which is fine),
      // users, datasets before their data sources, and the objects they read; every step is
      // tried so one failure does not leave the rest behind.
      const ignoreMissing = (error: unknown) => {
        if ((error as { name?: string }).name !== 'ResourceNotFoundException') throw error;
      };
      const steps = [
        ...grants.map(
          ({ userName, dashboardId }) =>
            () =>
              permissionChange(userName, dashboardId, 'RevokePermissions'),
        ),
        ...[...groups].map(
          (GroupName) => () =>
            identityClient
              .send(new DeleteGroupCommand({ AwsAccountId: accountId, Namespace: NAMESPACE, GroupName }))
              .catch(ignoreMissing),
        ),
        ...[...registered].map(
          (userName) => () =>
            identityClient.send(
              new DeleteUserCommand({ AwsAccountId: accountId, Namespace: NAMESPACE, UserName: userName }),
            ),
        ),
        ...(backend.deletesDataResources
          ? [
              ...[...dataSets].map(
                (DataSetId) => () =>
                  client.send(new DeleteDataSetCommand({ AwsAccountId: accountId, DataSetId })).catch(ignoreMissing),
              ),
              ...[...dataSources].map(
                (DataSourceId) => () =>
                  client
                    .send(new DeleteDataSourceCommand({ AwsAccountId: accountId, DataSourceId }))
                    .catch(ignoreMissing),
              ),
            ]
          : []),
        ...[...objects].map((key) => () => backend.s3().remove(key)),
      ];
      const failures: unknown[] = [];
      for (const step of steps) await step().catch((error: unknown) => failures.push(error));
      await backend.stop();
      if (failures.length > 0)
        throw new AggregateError(failures, `QuickSight conformance cleanup failed ${failures.length} time(s)`);
    },
  };
}

export { sdkError } from '#test/local/quicksight-support.ts';
