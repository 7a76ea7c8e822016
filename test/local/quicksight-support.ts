import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  CreateDataSetCommand,
  CreateDataSourceCommand,
  type CreateDataSourceCommandInput,
  DescribeDataSourceCommand,
  GenerateEmbedUrlForRegisteredUserCommand,
  QuickSightClient,
  RegisterUserCommand,
  type RegisterUserCommandOutput,
  UpdateDashboardPermissionsCommand,
} from '@aws-sdk/client-quicksight';
import {
  startQuickSightEmulator,
  type QuickSightEmulator,
  type QuickSightEmulatorOptions,
  type SampleRowLevelSecurity,
} from '#emulators/quicksight/index.ts';
import { ObjectAccessDenied } from '#emulators/quicksight/ingest.ts';

/** Starts emulators on free ports with a temporary data directory and a clock tests can move. */

export const ACCOUNT_ID = '123456789012';
export const REGION = 'us-east-2';
export const NAMESPACE = 'default';
export const VIEWER_ACTIONS = [
  'quicksight:DescribeDashboard',
  'quicksight:ListDashboardVersions',
  'quicksight:QueryDashboard',
];

export const userArn = (userName: string) => `arn:aws:quicksight:${REGION}:${ACCOUNT_ID}:user/${NAMESPACE}/${userName}`;

export class TestClock {
  constructor(private current = Date.UTC(2026, 1, 2, 9, 0, 0)) {}
  readonly now = () => this.current;
  advance(ms: number): void {
    this.current += ms;
  }
}

export interface TestEmulator {
  readonly emulator: QuickSightEmulator;
  readonly client: QuickSightClient;
  readonly clock: TestClock;
  readonly dataDir: string;
  /** A READER registered by email; `overrides` replace any request member, invalid values included. */
  register(userName: string, overrides?: Record<string, unknown>): Promise<RegisterUserCommandOutput>;
  grantViewer(dashboardId: string, userName: string): Promise<void>;
  /** Stops the emulator and starts a new one on the same data directory (with `changes` to its options). */
  restart(changes?: TestEmulatorOptions): Promise<TestEmulator>;
  /** Stops the emulator and keeps its data directory (for reading or changing its state on disk). */
  stop(): Promise<void>;
  close(): Promise<void>;
}

export function clientFor(url: string): QuickSightClient {
  return new QuickSightClient({
    region: REGION,
    endpoint: url,
    credentials: { accessKeyId: 'AKIDLOCAL', secretAccessKey: 'local-secret' },
    maxAttempts: 1,
  });
}

/**
 * An S3 stand-in in memory, for data sources and ingestions: objects by bucket and key. Reads as
 * a role in `deniedRoles` are refused, as S3 refuses a role whose policy does not allow them.
 */
export class MemoryObjects {
  private readonly objects = new Map<string, string>();
  readonly deniedRoles = new Set<string>();

  put(bucket: string, key: string, text: string): void {
    this.objects.set(`${bucket}/${key}`, text);
  }

  delete(bucket: string, key: string): void {
    this.objects.delete(`${bucket}/${key}`);
  }

  private refuse(roleArn: string | undefined): void {
    if (roleArn !== undefined && this.deniedRoles.has(roleArn)) throw new ObjectAccessDenied('Access Denied');
  }

  readonly readObject = async (bucket: string, key: string, roleArn?: string): Promise<string | undefined> => {
    this.refuse(roleArn);
    return this.objects.get(`${bucket}/${key}`);
  };

  readonly listObjects = async (bucket: string, prefix: string, roleArn?: string): Promise<string[]> => {
    this.refuse(roleArn);
    return [...this.objects.keys()]
      .filter((path) => path.startsWith(`${bucket}/${prefix}`))
      .map((path) => path.slice(bucket.length + 1));
  };
}

export interface TestEmulatorOptions {
  /** Host name of the embed URLs (see the emulator's `pageHost`). */
  readonly pageHost?: string;
  readonly rowLevelSecurity?: SampleRowLevelSecurity;
  /** Where ingestions read S3 objects; none when absent. */
  readonly objects?: MemoryObjects;
  /** Serve the embed pages over https, as the embedding SDK needs. */
  readonly embedPages?: QuickSightEmulatorOptions['embedPages'];
  /** How long a data source's creation takes. @default 50 */
  readonly dataSourceCreationMs?: number;
}

async function start(
  dataDir: string,
  clock: TestClock,
  ownsDataDir: boolean,
  options: TestEmulatorOptions,
): Promise<TestEmulator> {
  const emulator = await startQuickSightEmulator({
    port: 0,
    dataDir,
    accountId: ACCOUNT_ID,
    region: REGION,
    now: clock.now,
    pageHost: options.pageHost,
    rowLevelSecurity: options.rowLevelSecurity,
    readObject: options.objects?.readObject,
    listObjects: options.objects?.listObjects,
    embedPages: options.embedPages,
    dataSourceCreationMs: options.dataSourceCreationMs ?? 50,
  });
  const client = clientFor(emulator.url);
  let closed = false;
  const stop = async () => {
    if (closed) return;
    closed = true;
    client.destroy();
    await emulator.close();
  };
  return {
    emulator,
    client,
    clock,
    dataDir,
    register(userName, overrides = {}) {
      return client.send(
        new RegisterUserCommand({
          AwsAccountId: ACCOUNT_ID,
          Namespace: NAMESPACE,
          IdentityType: 'QUICKSIGHT',
          UserName: userName,
          Email: userName,
          UserRole: 'READER',
          ...overrides,
        }),
      );
    },
    async grantViewer(dashboardId, userName) {
      await client.send(
        new UpdateDashboardPermissionsCommand({
          AwsAccountId: ACCOUNT_ID,
          DashboardId: dashboardId,
          GrantPermissions: [{ Principal: userArn(userName), Actions: VIEWER_ACTIONS }],
        }),
      );
    },
    stop,
    async restart(changes = {}) {
      await stop();
      return start(dataDir, clock, ownsDataDir, { ...options, ...changes });
    },
    async close() {
      await stop();
      if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function startTestEmulator(
  clock = new TestClock(),
  options: TestEmulatorOptions = {},
): Promise<TestEmulator> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'quicksight-emulator-'));
  return start(dataDir, clock, true, options);
}

/** The error name and HTTP status an SDK call failed with. */
export async function sdkError(promise: Promise<unknown>): Promise<{ name: string; status?: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { name: string; message: string; $metadata?: { httpStatusCode?: number } };
    return { name: e.name, status: e.$metadata?.httpStatusCode, message: e.message };
  }
  throw new Error('Expected the call to fail');
}

export const RULES_BUCKET = 'portal-private';
export const RULES_MANIFEST_KEY = 'company-rules/manifest.json';
export const RULES_FILE_KEY = 'company-rules/rules.csv';
export const RULES_DATA_SOURCE_ID = 'company-rules-source';
export const RULES_DATA_SET_ID = 'company-rules';

export const groupArn = (groupName: string) =>
  `arn:aws:quicksight:${REGION}:${ACCOUNT_ID}:group/${NAMESPACE}/${groupName}`;
export const dataSourceArn = (id: string) => `arn:aws:quicksight:${REGION}:${ACCOUNT_ID}:datasource/${id}`;
export const dataSetArn = (id: string) => `arn:aws:quicksight:${REGION}:${ACCOUNT_ID}:dataset/${id}`;

/** A QuickSight manifest naming one CSV file with a header, as the portal writes it. */
export const manifestFor = (bucket: string, key: string) =>
  JSON.stringify({
    fileLocations: [{ URIs: [`s3://${bucket}/${key}`] }],
    globalUploadSettings: { format: 'CSV', delimiter: ',', textqualifier: '"', containsHeader: 'true' },
  });

export const RULES_ROLE_ARN = `arn:aws:iam::${ACCOUNT_ID}:role/quicksight-rules-reader`;

/** Asks DescribeDataSource until the source's creation has ended; its final Status and ErrorInfo. */
export async function dataSourceCreated(
  t: Pick<TestEmulator, 'client'>,
  dataSourceId = RULES_DATA_SOURCE_ID,
  accountId = ACCOUNT_ID,
) {
  // Beyond three times the longest creation a test asks for (2 s), on a busy machine.
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { DataSource } = await t.client.send(
      new DescribeDataSourceCommand({ AwsAccountId: accountId, DataSourceId: dataSourceId }),
    );
    if (DataSource?.Status !== 'CREATION_IN_PROGRESS' || Date.now() > deadline) return DataSource;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * CreateDataSource of the rules manifest, read with RULES_ROLE_ARN (`overrides` replace request
 * members); it answers at once, before the creation ends.
 */
export function startRulesDataSource(
  t: Pick<TestEmulator, 'client'>,
  overrides: Partial<CreateDataSourceCommandInput> = {},
) {
  return t.client.send(
    new CreateDataSourceCommand({
      AwsAccountId: ACCOUNT_ID,
      DataSourceId: RULES_DATA_SOURCE_ID,
      Name: 'Portal company rules',
      Type: 'S3',
      DataSourceParameters: {
        S3Parameters: {
          ManifestFileLocation: { Bucket: RULES_BUCKET, Key: RULES_MANIFEST_KEY },
          RoleArn: RULES_ROLE_ARN,
        },
      },
      ...overrides,
    }),
  );
}

/** The S3 data source of the rules manifest, waiting until QuickSight has finished creating it. */
export async function createRulesDataSource(t: TestEmulator, dataSourceId = RULES_DATA_SOURCE_ID) {
  await startRulesDataSource(t, { DataSourceId: dataSourceId });
  return dataSourceCreated(t, dataSourceId);
}

/** The portal's rules columns: VERSION_2's identity columns as the API reference spells them, and the company. */
const RULES_COLUMNS = ['UserARN', 'GroupARN', 'company'];

/** A rules dataset over the rules data source with the given columns, all STRING (SPICE, RLS_RULES). */
export function createRulesDataSet(
  t: TestEmulator,
  columns: readonly string[] = RULES_COLUMNS,
  dataSetId = RULES_DATA_SET_ID,
) {
  return t.client.send(
    new CreateDataSetCommand({
      AwsAccountId: ACCOUNT_ID,
      DataSetId: dataSetId,
      Name: 'Portal company rules',
      ImportMode: 'SPICE',
      UseAs: 'RLS_RULES',
      PhysicalTableMap: {
        'company-rules': {
          S3Source: {
            DataSourceArn: dataSourceArn(RULES_DATA_SOURCE_ID),
            UploadSettings: { Format: 'CSV', ContainsHeader: true, Delimiter: ',', TextQualifier: 'DOUBLE_QUOTE' },
            InputColumns: columns.map((Name) => ({ Name, Type: 'STRING' as const })),
          },
        },
      },
    }),
  );
}

/** Writes the manifest and the rules file (CSV text) to the in-memory S3. */
export function putRules(objects: MemoryObjects, csv: string): void {
  objects.put(RULES_BUCKET, RULES_MANIFEST_KEY, manifestFor(RULES_BUCKET, RULES_FILE_KEY));
  objects.put(RULES_BUCKET, RULES_FILE_KEY, csv);
}

/** The page a user's embed URL opens (the dashboard, or why not), as its HTML text. */
export async function embeddedPage(t: TestEmulator, userName: string, dashboardId: string): Promise<string> {
  const result = await t.client.send(
    new GenerateEmbedUrlForRegisteredUserCommand({
      AwsAccountId: ACCOUNT_ID,
      UserArn: userArn(userName),
      AllowedDomains: ['http://localhost:5173'],
      ExperienceConfiguration: { Dashboard: { InitialDashboardId: dashboardId } },
    }),
  );
  return (await fetch(result.EmbedUrl ?? '')).text();
}

/** The text of "Companies in view: ..." on a page, or undefined when it has none. */
export const companiesInView = (page: string): string | undefined =>
  /<p class="companies">Companies in view: ([^<]*)<\/p>/.exec(page)?.[1];
