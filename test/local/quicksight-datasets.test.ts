import {
  CreateDataSetCommand,
  CreateDataSourceCommand,
  CreateIngestionCommand,
  DescribeDashboardCommand,
  DescribeDataSetCommand,
  DescribeDataSourceCommand,
  DescribeIngestionCommand,
  ListIngestionsCommand,
  type CreateDataSetCommandInput,
} from '@aws-sdk/client-quicksight';
import { afterEach, describe, expect, it } from 'vitest';
import { SAMPLE_DASHBOARDS } from '#emulators/quicksight/index.ts';
import { openStateStore } from '#emulators/quicksight/persistence.ts';
import {
  ACCOUNT_ID,
  MemoryObjects,
  RULES_BUCKET,
  RULES_DATA_SET_ID,
  RULES_DATA_SOURCE_ID,
  RULES_FILE_KEY,
  RULES_MANIFEST_KEY,
  RULES_ROLE_ARN,
  createRulesDataSet,
  createRulesDataSource,
  dataSourceCreated,
  dataSetArn,
  dataSourceArn,
  putRules,
  sdkError,
  startTestEmulator,
  type TestEmulator,
  type TestEmulatorOptions,
} from './quicksight-support.ts';

/**
 * Data sources, datasets and SPICE ingestions as the QuickSight API Reference documents them
 * (https://docs.aws.amazon.com/quicksight/latest/APIReference/API_CreateDataSource.html,
 * API_CreateDataSet.html, API_CreateIngestion.html, API_ListIngestions.html), manifests as in
 * "Supported formats for Amazon S3 manifest files"
 * (https://docs.aws.amazon.com/quicksight/latest/user/supported-manifest-file-format.html).
 */

const RULES_CSV = 'UserARN,GroupARN,company\n,arn:g/1,Northwind Manufacturing\n,arn:g/2,"Contoso Distribution"\n';
const LOADED_ROWS = [
  [null, 'arn:g/1', 'Northwind Manufacturing'],
  [null, 'arn:g/2', 'Contoso Distribution'],
];
const DAY = 24 * 60 * 60_000;

let t: TestEmulator | undefined;
let objects: MemoryObjects;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function emulator(options: TestEmulatorOptions = {}): Promise<TestEmulator> {
  objects = new MemoryObjects();
  t = await startTestEmulator(undefined, { objects, ...options });
  return t;
}

const account = { AwsAccountId: ACCOUNT_ID };
const describeDataSet = (qs: TestEmulator, DataSetId: string) =>
  qs.client.send(new DescribeDataSetCommand({ ...account, DataSetId }));
const ingestions = async (qs: TestEmulator, DataSetId = RULES_DATA_SET_ID) =>
  (await qs.client.send(new ListIngestionsCommand({ ...account, DataSetId }))).Ingestions ?? [];
const refresh = (qs: TestEmulator, IngestionId: string, DataSetId = RULES_DATA_SET_ID) =>
  qs.client.send(new CreateIngestionCommand({ ...account, DataSetId, IngestionId, IngestionType: 'FULL_REFRESH' }));
const describeIngestion = async (qs: TestEmulator, IngestionId: string) =>
  (await qs.client.send(new DescribeIngestionCommand({ ...account, DataSetId: RULES_DATA_SET_ID, IngestionId })))
    .Ingestion;

/** The SPICE rows of a dataset, read from the stopped emulator's state. */
async function spiceRows(qs: TestEmulator, dataSetId = RULES_DATA_SET_ID) {
  await qs.stop();
  const store = await openStateStore({ dataDir: qs.dataDir, accountId: ACCOUNT_ID, now: Date.now });
  const table = store.state.data.spiceTable(dataSetId);
  await store.close();
  return table?.rows;
}

describe('data sources', () => {
  it('creates an S3 data source (202, in progress) that DescribeDataSource shows in progress, then created', async () => {
    // A creation long enough that the describe right after the answer sees it under way on a busy machine.
    const qs = await emulator({ dataSourceCreationMs: 2_000 });
    putRules(objects, RULES_CSV);
    const created = await qs.client.send(
      new CreateDataSourceCommand({
        ...account,
        DataSourceId: RULES_DATA_SOURCE_ID,
        Name: 'Rules',
        Type: 'S3',
        DataSourceParameters: {
          S3Parameters: {
            ManifestFileLocation: { Bucket: RULES_BUCKET, Key: RULES_MANIFEST_KEY },
            RoleArn: RULES_ROLE_ARN,
          },
        },
      }),
    );
    expect(created).toMatchObject({
      Status: 202,
      Arn: dataSourceArn(RULES_DATA_SOURCE_ID),
      DataSourceId: RULES_DATA_SOURCE_ID,
      CreationStatus: 'CREATION_IN_PROGRESS',
    });
    const describe = () =>
      qs.client.send(new DescribeDataSourceCommand({ ...account, DataSourceId: RULES_DATA_SOURCE_ID }));
    expect((await describe()).DataSource?.Status).toBe('CREATION_IN_PROGRESS');
    await dataSourceCreated(qs);
    const described = await describe();
    expect(described.DataSource).toMatchObject({
      Arn: dataSourceArn(RULES_DATA_SOURCE_ID),
      Name: 'Rules',
      Type: 'S3',
      Status: 'CREATION_SUCCESSFUL',
      DataSourceParameters: {
        S3Parameters: {
          ManifestFileLocation: { Bucket: RULES_BUCKET, Key: RULES_MANIFEST_KEY },
          RoleArn: RULES_ROLE_ARN,
        },
      },
    });
    expect(described.DataSource?.ErrorInfo).toBeUndefined();
    expect(described.DataSource?.CreatedTime).toEqual(new Date(qs.clock.now()));
  });

  it.each([
    ['another type', { Type: 'MYSQL' }],
    ['no S3Parameters', { DataSourceParameters: {} }],
    ['a manifest without a key', { DataSourceParameters: { S3Parameters: { ManifestFileLocation: { Bucket: 'b' } } } }],
    [
      'a RoleArn that is no role',
      {
        DataSourceParameters: {
          S3Parameters: { ManifestFileLocation: { Bucket: 'b', Key: 'k' }, RoleArn: 'arn:aws:s3:::bucket-name-here' },
        },
      },
    ],
    ['a name over 128 characters', { Name: 'n'.repeat(129) }],
  ])('refuses %s with InvalidParameterValueException and creates nothing', async (_case, override) => {
    const qs = await emulator();
    const input = {
      ...account,
      DataSourceId: 'source',
      Name: 'Source',
      Type: 'S3',
      DataSourceParameters: { S3Parameters: { ManifestFileLocation: { Bucket: 'b', Key: 'k' } } },
      ...override,
    };
    expect(await sdkError(qs.client.send(new CreateDataSourceCommand(input as never)))).toMatchObject({
      name: 'InvalidParameterValueException',
      status: 400,
    });
    expect(
      await sdkError(qs.client.send(new DescribeDataSourceCommand({ ...account, DataSourceId: 'source' }))),
    ).toMatchObject({
      name: 'ResourceNotFoundException',
      status: 404,
    });
  });

  it('refuses an existing data source ID with ResourceExistsException', async () => {
    const qs = await emulator();
    putRules(objects, RULES_CSV);
    await createRulesDataSource(qs);
    expect(await sdkError(createRulesDataSource(qs))).toMatchObject({ name: 'ResourceExistsException', status: 409 });
  });
});

describe('datasets', () => {
  it('creates an RLS_RULES dataset whose first ingestion loads the manifest’s CSV file', async () => {
    const qs = await emulator();
    putRules(objects, RULES_CSV);
    await createRulesDataSource(qs);
    const created = await createRulesDataSet(qs);
    expect(created).toMatchObject({ Status: 201, Arn: dataSetArn(RULES_DATA_SET_ID), DataSetId: RULES_DATA_SET_ID });
    expect(created.IngestionArn).toBe(`${dataSetArn(RULES_DATA_SET_ID)}/ingestion/${created.IngestionId}`);

    const described = (await describeDataSet(qs, RULES_DATA_SET_ID)).DataSet;
    expect(described).toMatchObject({
      Arn: dataSetArn(RULES_DATA_SET_ID),
      Name: 'Portal company rules',
      ImportMode: 'SPICE',
      UseAs: 'RLS_RULES',
      OutputColumns: [
        { Name: 'UserARN', Type: 'STRING' },
        { Name: 'GroupARN', Type: 'STRING' },
        { Name: 'company', Type: 'STRING' },
      ],
    });
    expect(described?.PhysicalTableMap?.['company-rules']?.S3Source?.DataSourceArn).toBe(
      dataSourceArn(RULES_DATA_SOURCE_ID),
    );
    expect(described?.RowLevelPermissionDataSet).toBeUndefined();

    const [initial] = await ingestions(qs);
    expect(initial).toMatchObject({
      IngestionId: created.IngestionId,
      IngestionStatus: 'COMPLETED',
      RequestType: 'INITIAL_INGESTION',
      RequestSource: 'MANUAL',
      RowInfo: { RowsIngested: 2, RowsDropped: 0, TotalRowsInDataset: 2 },
      IngestionSizeInBytes: Buffer.byteLength(RULES_CSV),
    });
    expect(await spiceRows(qs)).toEqual(LOADED_ROWS);
  });

  it('keeps a dataset’s RowLevelPermissionDataSet as given, defaults included', async () => {
    const qs = await emulator();
    putRules(objects, RULES_CSV);
    await createRulesDataSource(qs);
    await qs.client.send(
      new CreateDataSetCommand(
        protectedDataSet({ Arn: dataSetArn(RULES_DATA_SET_ID), PermissionPolicy: 'GRANT_ACCESS' }),
      ),
    );
    expect((await describeDataSet(qs, 'protected')).DataSet?.RowLevelPermissionDataSet).toEqual({
      Arn: dataSetArn(RULES_DATA_SET_ID),
      PermissionPolicy: 'GRANT_ACCESS',
      FormatVersion: 'VERSION_1',
      Status: 'ENABLED',
    });
  });

  const protectedDataSet = (
    rls: NonNullable<CreateDataSetCommandInput['RowLevelPermissionDataSet']>,
    overrides: Partial<CreateDataSetCommandInput> = {},
  ): CreateDataSetCommandInput => ({
    ...account,
    DataSetId: 'protected',
    Name: 'Protected',
    ImportMode: 'SPICE',
    RowLevelPermissionDataSet: rls,
    PhysicalTableMap: {
      facts: {
        S3Source: {
          DataSourceArn: dataSourceArn(RULES_DATA_SOURCE_ID),
          InputColumns: [{ Name: 'company', Type: 'STRING' }],
        },
      },
    },
    ...overrides,
  });

  it.each<[string, Partial<CreateDataSetCommandInput>]>([
    [
      'a non-STRING column of a CSV file',
      {
        PhysicalTableMap: {
          t: {
            S3Source: {
              DataSourceArn: dataSourceArn(RULES_DATA_SOURCE_ID),
              InputColumns: [{ Name: 'n', Type: 'INTEGER' }],
            },
          },
        },
      },
    ],
    ['DIRECT_QUERY for S3 data', { ImportMode: 'DIRECT_QUERY' }],
    ['RLS on a dataset used as RLS_RULES', { UseAs: 'RLS_RULES' }],
    [
      'an RLS Arn that is no dataset ARN',
      { RowLevelPermissionDataSet: { Arn: 'arn:aws:s3:::bucket', PermissionPolicy: 'GRANT_ACCESS' } },
    ],
    [
      'a Namespace with FormatVersion VERSION_2',
      {
        RowLevelPermissionDataSet: {
          Arn: dataSetArn('r'),
          PermissionPolicy: 'GRANT_ACCESS',
          FormatVersion: 'VERSION_2',
          Namespace: 'default',
        },
      },
    ],
    [
      'an unknown PermissionPolicy',
      { RowLevelPermissionDataSet: { Arn: dataSetArn('r'), PermissionPolicy: 'ALLOW' as never } },
    ],
    [
      'a data source ARN of another account',
      {
        PhysicalTableMap: {
          t: {
            S3Source: {
              DataSourceArn: 'arn:aws:quicksight:us-east-2:210987654321:datasource/x',
              InputColumns: [{ Name: 'c', Type: 'STRING' }],
            },
          },
        },
      },
    ],
    [
      'a tag rule on a column the dataset does not have (names are case-sensitive)',
      { RowLevelPermissionTagConfiguration: { TagRules: [{ TagKey: 'k', ColumnName: 'Company' }] } },
    ],
    [
      'a JSON file',
      {
        PhysicalTableMap: {
          t: {
            S3Source: {
              DataSourceArn: dataSourceArn(RULES_DATA_SOURCE_ID),
              UploadSettings: { Format: 'JSON' },
              InputColumns: [{ Name: 'c', Type: 'STRING' }],
            },
          },
        },
      },
    ],
  ])('refuses %s with InvalidParameterValueException and creates nothing', async (_case, overrides) => {
    const qs = await emulator();
    putRules(objects, RULES_CSV);
    expect((await createRulesDataSource(qs))?.Status).toBe('CREATION_SUCCESSFUL');
    const input = protectedDataSet({ Arn: dataSetArn(RULES_DATA_SET_ID), PermissionPolicy: 'GRANT_ACCESS' }, overrides);
    expect(await sdkError(qs.client.send(new CreateDataSetCommand(input)))).toMatchObject({
      name: 'InvalidParameterValueException',
      status: 400,
    });
    expect(await sdkError(describeDataSet(qs, 'protected'))).toMatchObject({
      name: 'ResourceNotFoundException',
      status: 404,
    });
  });

  it('refuses a data source that does not exist with ResourceNotFoundException', async () => {
    const qs = await emulator();
    expect(await sdkError(createRulesDataSet(qs))).toMatchObject({ name: 'ResourceNotFoundException', status: 404 });
    expect(await sdkError(describeDataSet(qs, RULES_DATA_SET_ID))).toMatchObject({ name: 'ResourceNotFoundException' });
  });

  it('refuses an existing dataset ID, a sample one included, with ResourceExistsException', async () => {
    const qs = await emulator();
    putRules(objects, RULES_CSV);
    await createRulesDataSource(qs);
    await createRulesDataSet(qs);
    expect(await sdkError(createRulesDataSet(qs))).toMatchObject({ name: 'ResourceExistsException', status: 409 });
    expect(await sdkError(createRulesDataSet(qs, undefined, 'distributor-monthly-facts'))).toMatchObject({
      name: 'ResourceExistsException',
    });
    expect(await ingestions(qs)).toHaveLength(1);
  });
});

describe('sample datasets', () => {
  it('lists the datasets behind every sample dashboard in DescribeDashboard', async () => {
    const qs = await emulator();
    for (const dashboard of SAMPLE_DASHBOARDS) {
      const described = await qs.client.send(
        new DescribeDashboardCommand({ ...account, DashboardId: dashboard.dashboardId }),
      );
      const arns = described.Dashboard?.Version?.DataSetArns ?? [];
      expect(arns.length).toBeGreaterThan(0);
      for (const arn of arns) {
        const id = arn.slice(arn.lastIndexOf('/') + 1);
        expect(arn).toBe(dataSetArn(id));
        expect((await describeDataSet(qs, id)).DataSet?.Arn).toBe(arn);
      }
    }
  });

  it('applies the rules dataset of the rowLevelSecurity option to every sample dataset but the benchmarks’', async () => {
    const qs = await emulator({ rowLevelSecurity: { rulesDataSetId: RULES_DATA_SET_ID } });
    for (const dashboard of SAMPLE_DASHBOARDS) {
      const described = await qs.client.send(
        new DescribeDashboardCommand({ ...account, DashboardId: dashboard.dashboardId }),
      );
      for (const arn of described.Dashboard?.Version?.DataSetArns ?? []) {
        const dataSet = (await describeDataSet(qs, arn.slice(arn.lastIndexOf('/') + 1))).DataSet;
        if (dashboard.dashboardId === 'market-benchmarks') {
          expect(dataSet?.RowLevelPermissionDataSet).toBeUndefined();
        } else {
          expect(dataSet?.RowLevelPermissionDataSet).toEqual({
            Arn: dataSetArn(RULES_DATA_SET_ID),
            PermissionPolicy: 'GRANT_ACCESS',
            FormatVersion: 'VERSION_2',
            Status: 'ENABLED',
          });
          expect(dataSet?.OutputColumns).toContainEqual({ Name: 'company', Type: 'STRING' });
        }
      }
    }
  });

  it('applies no row-level security without the option', async () => {
    const qs = await emulator();
    expect((await describeDataSet(qs, 'distributor-monthly-facts')).DataSet?.RowLevelPermissionDataSet).toBeUndefined();
  });
});

describe('ingestions', () => {
  async function rulesLoaded(options: TestEmulatorOptions = {}): Promise<TestEmulator> {
    const qs = await emulator(options);
    putRules(objects, RULES_CSV);
    await createRulesDataSource(qs);
    await createRulesDataSet(qs);
    return qs;
  }

  it('replaces the dataset’s rows with a full refresh (201, INITIALIZED), listed newest first', async () => {
    const qs = await rulesLoaded();
    putRules(objects, 'UserARN,GroupARN,company\n,arn:g/3,Fabrikam Industries\n');
    qs.clock.advance(1000);
    const created = await refresh(qs, 'rules-1');
    expect(created).toMatchObject({
      Status: 201,
      IngestionId: 'rules-1',
      IngestionStatus: 'INITIALIZED',
      Arn: `${dataSetArn(RULES_DATA_SET_ID)}/ingestion/rules-1`,
    });
    expect(await describeIngestion(qs, 'rules-1')).toMatchObject({
      IngestionStatus: 'COMPLETED',
      RequestType: 'FULL_REFRESH',
      RowInfo: { RowsIngested: 1, TotalRowsInDataset: 1 },
      CreatedTime: new Date(qs.clock.now()),
    });
    const listed = await ingestions(qs);
    expect(listed.map((i) => i.RequestType)).toEqual(['FULL_REFRESH', 'INITIAL_INGESTION']);
    expect(await spiceRows(qs)).toEqual([[null, 'arn:g/3', 'Fabrikam Industries']]);
  });

  it.each([
    ['a missing data file', () => objects.delete(RULES_BUCKET, RULES_FILE_KEY), 'S3_FILE_INACCESSIBLE'],
    ['a missing manifest', () => objects.delete(RULES_BUCKET, RULES_MANIFEST_KEY), 'S3_MANIFEST_ERROR'],
    [
      'a manifest that is not JSON',
      () => objects.put(RULES_BUCKET, RULES_MANIFEST_KEY, '{"fileLocations": ['),
      'S3_MANIFEST_ERROR',
    ],
    [
      'a manifest without fileLocations',
      () => objects.put(RULES_BUCKET, RULES_MANIFEST_KEY, '{"globalUploadSettings":{}}'),
      'S3_MANIFEST_ERROR',
    ],
    [
      'a quoted field never closed',
      () => objects.put(RULES_BUCKET, RULES_FILE_KEY, 'UserARN,GroupARN,company\n,arn:g/9,"Open\n'),
      'CUSTOMER_ERROR',
    ],
  ])('fails on %s with ErrorInfo and keeps the rows loaded before', async (_case, breakIt, errorType) => {
    const qs = await rulesLoaded();
    breakIt();
    await refresh(qs, 'broken');
    const failed = await describeIngestion(qs, 'broken');
    expect(failed?.IngestionStatus).toBe('FAILED');
    expect(failed?.ErrorInfo?.Type).toBe(errorType);
    expect(failed?.ErrorInfo?.Message).toMatch(/\S/);
    expect(failed?.RowInfo).toBeUndefined();
    expect(await spiceRows(qs)).toEqual(LOADED_ROWS);
  });

  it('fails a data source when the emulator has no S3 to read from, and no dataset can use it', async () => {
    const qs = await emulator({ objects: undefined });
    t = qs;
    expect(await createRulesDataSource(qs)).toMatchObject({
      Status: 'CREATION_FAILED',
      ErrorInfo: { Type: 'UNKNOWN', Message: expect.stringContaining('no S3') },
    });
    expect(await sdkError(createRulesDataSet(qs))).toMatchObject({ name: 'InvalidParameterValueException' });
    expect(await spiceRows(qs)).toBeUndefined();
  });

  it('reads every file under URIPrefixes and Redshift-format entries, skipping a missing optional one', async () => {
    const qs = await rulesLoaded();
    objects.put(RULES_BUCKET, 'parts/a.csv', 'UserARN,GroupARN,company\n,arn:g/a,A\n');
    objects.put(RULES_BUCKET, 'parts/b.csv', 'UserARN,GroupARN,company\r\n,arn:g/b,"B, with ""quotes"""\r\n');
    objects.put(
      RULES_BUCKET,
      RULES_MANIFEST_KEY,
      JSON.stringify({ fileLocations: [{ URIPrefixes: [`s3://${RULES_BUCKET}/parts/`] }] }),
    );
    await refresh(qs, 'prefixes');
    expect((await describeIngestion(qs, 'prefixes'))?.RowInfo?.RowsIngested).toBe(2);

    objects.put(
      RULES_BUCKET,
      RULES_MANIFEST_KEY,
      JSON.stringify({
        entries: [
          { url: `s3://${RULES_BUCKET}/parts/b.csv`, mandatory: true },
          { url: `https://${RULES_BUCKET}.s3.us-east-2.amazonaws.com/parts/absent.csv`, mandatory: false },
        ],
      }),
    );
    await refresh(qs, 'entries');
    expect(await describeIngestion(qs, 'entries')).toMatchObject({
      IngestionStatus: 'COMPLETED',
      RowInfo: { RowsIngested: 1 },
    });
    expect(await spiceRows(qs)).toEqual([[null, 'arn:g/b', 'B, with "quotes"']]);
  });

  it('reads files without a header when the upload settings say so, empty fields as NULL', async () => {
    const qs = await emulator();
    objects.put(
      RULES_BUCKET,
      RULES_MANIFEST_KEY,
      JSON.stringify({
        fileLocations: [{ URIs: [`s3://${RULES_BUCKET}/${RULES_FILE_KEY}`] }],
        globalUploadSettings: { containsHeader: 'false', delimiter: ';' },
      }),
    );
    objects.put(RULES_BUCKET, RULES_FILE_KEY, 'arn:g/1;Northwind Manufacturing\narn:g/2;\n\narn:g/3;x;extra\n');
    await createRulesDataSource(qs);
    await qs.client.send(
      new CreateDataSetCommand({
        ...account,
        DataSetId: RULES_DATA_SET_ID,
        Name: 'Rules',
        ImportMode: 'SPICE',
        PhysicalTableMap: {
          t: {
            S3Source: {
              DataSourceArn: dataSourceArn(RULES_DATA_SOURCE_ID),
              InputColumns: [
                { Name: 'GroupARN', Type: 'STRING' },
                { Name: 'company', Type: 'STRING' },
              ],
            },
          },
        },
      }),
    );
    const [loaded] = await ingestions(qs);
    expect(loaded?.RowInfo).toEqual({ RowsIngested: 2, RowsDropped: 1, TotalRowsInDataset: 2 });
    expect(await spiceRows(qs)).toEqual([
      ['arn:g/1', 'Northwind Manufacturing'],
      ['arn:g/2', null],
    ]);
  });

  it('refuses bad requests with their documented errors and records nothing', async () => {
    const qs = await rulesLoaded();
    await refresh(qs, 'taken');
    expect(await sdkError(refresh(qs, 'taken'))).toMatchObject({ name: 'ResourceExistsException', status: 409 });
    expect(await sdkError(refresh(qs, 'not valid!'))).toMatchObject({
      name: 'InvalidParameterValueException',
      status: 400,
    });
    expect(await sdkError(refresh(qs, 'x', 'absent'))).toMatchObject({
      name: 'ResourceNotFoundException',
      status: 404,
    });
    expect(
      await sdkError(
        qs.client.send(
          new CreateIngestionCommand({
            ...account,
            DataSetId: RULES_DATA_SET_ID,
            IngestionId: 'inc',
            IngestionType: 'INCREMENTAL_REFRESH',
          }),
        ),
      ),
    ).toMatchObject({ name: 'InvalidParameterValueException' });
    expect(await sdkError(describeIngestion(qs, 'absent'))).toMatchObject({
      name: 'ResourceNotFoundException',
      status: 404,
    });
    expect(
      await sdkError(qs.client.send(new ListIngestionsCommand({ ...account, DataSetId: 'absent' }))),
    ).toMatchObject({ name: 'ResourceNotFoundException' });
    expect(
      await sdkError(
        qs.client.send(new ListIngestionsCommand({ ...account, DataSetId: RULES_DATA_SET_ID, NextToken: 'nope' })),
      ),
    ).toMatchObject({
      name: 'InvalidNextTokenException',
    });
    expect((await ingestions(qs)).map((i) => i.IngestionId)).toEqual(['taken', expect.any(String)]);
  });

  // "Refreshing SPICE data": up to 32 manual refreshes of a dataset in a 24-hour period
  // (https://docs.aws.amazon.com/quicksight/latest/user/refreshing-imported-data.html).
  it('allows 32 manual refreshes of a dataset in 24 hours, then LimitExceededException', async () => {
    const qs = await rulesLoaded();
    for (let i = 0; i < 32; i += 1) await refresh(qs, `r${i}`);
    expect(await sdkError(refresh(qs, 'over'))).toMatchObject({ name: 'LimitExceededException', status: 409 });
    qs.clock.advance(DAY);
    expect((await refresh(qs, 'next-day')).IngestionStatus).toBe('INITIALIZED');
  });

  it('pages ListIngestions with NextToken', async () => {
    const qs = await rulesLoaded();
    for (const id of ['a', 'b', 'c']) {
      qs.clock.advance(1000);
      await refresh(qs, id);
    }
    const first = await qs.client.send(
      new ListIngestionsCommand({ ...account, DataSetId: RULES_DATA_SET_ID, MaxResults: 2 }),
    );
    expect(first.Ingestions?.map((i) => i.IngestionId)).toEqual(['c', 'b']);
    const second = await qs.client.send(
      new ListIngestionsCommand({
        ...account,
        DataSetId: RULES_DATA_SET_ID,
        MaxResults: 2,
        NextToken: first.NextToken,
      }),
    );
    expect(second.Ingestions?.map((i) => i.IngestionId)).toEqual(['a', expect.any(String)]);
    expect(second.NextToken).toBeUndefined();
  });

  it('keeps data sources, datasets, ingestions and rows across a restart', async () => {
    let qs = await rulesLoaded({ rowLevelSecurity: { rulesDataSetId: RULES_DATA_SET_ID } });
    await refresh(qs, 'before-restart');
    qs = await qs.restart();
    t = qs;
    expect(
      (await qs.client.send(new DescribeDataSourceCommand({ ...account, DataSourceId: RULES_DATA_SOURCE_ID })))
        .DataSource?.Name,
    ).toBe('Portal company rules');
    expect((await describeDataSet(qs, RULES_DATA_SET_ID)).DataSet?.UseAs).toBe('RLS_RULES');
    expect((await ingestions(qs)).map((i) => i.IngestionStatus)).toEqual(['COMPLETED', 'COMPLETED']);
    expect(await spiceRows(qs)).toHaveLength(2);
  });

  it('fails, at the next start, an ingestion the emulator stopped in the middle of', async () => {
    const qs = await rulesLoaded();
    await qs.stop();
    const store = await openStateStore({ dataDir: qs.dataDir, accountId: ACCOUNT_ID, now: Date.now });
    await store.commit({
      type: 'putIngestion',
      ingestion: {
        dataSetId: RULES_DATA_SET_ID,
        ingestionId: 'cut-short',
        status: 'INITIALIZED',
        createdAt: qs.clock.now(),
        requestType: 'FULL_REFRESH',
        requestSource: 'MANUAL',
      },
    });
    await store.close();
    t = await qs.restart();
    expect(await describeIngestion(t, 'cut-short')).toMatchObject({
      IngestionStatus: 'FAILED',
      ErrorInfo: { Type: 'INTERNAL_SERVICE_ERROR' },
    });
  });
});
