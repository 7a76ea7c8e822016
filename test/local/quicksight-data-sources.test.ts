import {
  CreateDataSetCommand,
  CreateGroupCommand,
  DeleteDataSourceCommand,
  DescribeDataSetPermissionsCommand,
  DescribeDataSourceCommand,
  DescribeDataSourcePermissionsCommand,
  ListDataSetsCommand,
  ListIngestionsCommand,
  UpdateDataSetPermissionsCommand,
  UpdateDataSourcePermissionsCommand,
} from '@aws-sdk/client-quicksight';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ACCOUNT_ID,
  MemoryObjects,
  NAMESPACE,
  RULES_BUCKET,
  RULES_DATA_SET_ID,
  RULES_DATA_SOURCE_ID,
  RULES_MANIFEST_KEY,
  RULES_ROLE_ARN,
  createRulesDataSet,
  createRulesDataSource,
  dataSetArn,
  dataSourceCreated,
  dataSourceArn,
  groupArn,
  putRules,
  sdkError,
  startRulesDataSource,
  startTestEmulator,
  userArn,
  type TestEmulator,
} from './quicksight-support.ts';

/**
 * The data source lifecycle and the permissions of data sources and datasets, as the API
 * reference documents them: CreateDataSource answers CREATION_IN_PROGRESS and the source ends
 * CREATION_SUCCESSFUL or CREATION_FAILED with ErrorInfo
 * (https://docs.aws.amazon.com/quicksight/latest/APIReference/API_CreateDataSource.html,
 * API_DataSource.html, API_DataSourceErrorInfo.html), DeleteDataSource, ListDataSets,
 * Describe/UpdateDataSetPermissions and Describe/UpdateDataSourcePermissions
 * (API_ResourcePermission.html: "The ARN of an Amazon QuickSight user or group associated with a
 * data source or dataset").
 */

const RULES_CSV = 'UserARN,GroupARN,company\n,arn:g/1,Northwind Manufacturing\n';
const AUTHOR = 'analytics-author@example.com';
const SOURCE_VIEWER = ['quicksight:DescribeDataSource', 'quicksight:DescribeDataSourcePermissions'];
const account = { AwsAccountId: ACCOUNT_ID };

let t: TestEmulator | undefined;
let objects: MemoryObjects;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function emulator(dataSourceCreationMs?: number): Promise<TestEmulator> {
  objects = new MemoryObjects();
  t = await startTestEmulator(undefined, { objects, dataSourceCreationMs });
  return t;
}

const describeSource = async (qs: TestEmulator) =>
  (await qs.client.send(new DescribeDataSourceCommand({ ...account, DataSourceId: RULES_DATA_SOURCE_ID }))).DataSource;

describe('the data source lifecycle', () => {
  it('ends CREATION_FAILED with ErrorInfo ACCESS_DENIED when its role may not read the manifest, and no dataset can use it', async () => {
    const qs = await emulator();
    putRules(objects, RULES_CSV);
    objects.deniedRoles.add(RULES_ROLE_ARN);
    const failed = await createRulesDataSource(qs);
    expect(failed).toMatchObject({ Status: 'CREATION_FAILED', ErrorInfo: { Type: 'ACCESS_DENIED' } });
    expect(failed?.ErrorInfo?.Message).toContain(`s3://${RULES_BUCKET}/${RULES_MANIFEST_KEY}`);
    expect(failed?.ErrorInfo?.Message).toContain(RULES_ROLE_ARN);
    const refused = await sdkError(createRulesDataSet(qs));
    expect(refused).toMatchObject({ name: 'InvalidParameterValueException', status: 400 });
    expect(refused.message).toContain('CREATION_FAILED');
  });

  it('ends CREATION_FAILED (UNKNOWN) when the manifest does not exist', async () => {
    const qs = await emulator();
    expect(await createRulesDataSource(qs)).toMatchObject({
      Status: 'CREATION_FAILED',
      ErrorInfo: { Type: 'UNKNOWN', Message: expect.stringContaining('does not exist') },
    });
  });

  it('refuses a dataset over a data source still being created', async () => {
    const qs = await emulator(300);
    putRules(objects, RULES_CSV);
    await startRulesDataSource(qs);
    const refused = await sdkError(createRulesDataSet(qs));
    expect(refused).toMatchObject({ name: 'InvalidParameterValueException' });
    expect(refused.message).toContain('CREATION_IN_PROGRESS');
    expect((await dataSourceCreated(qs))?.Status).toBe('CREATION_SUCCESSFUL');
    expect((await createRulesDataSet(qs)).Status).toBe(201);
  });

  it('deletes a data source (DeleteDataSource); one created again under its id serves the dataset that reads it', async () => {
    const qs = await emulator();
    putRules(objects, RULES_CSV);
    objects.deniedRoles.add(RULES_ROLE_ARN);
    expect((await createRulesDataSource(qs))?.Status).toBe('CREATION_FAILED');
    const deleted = await qs.client.send(
      new DeleteDataSourceCommand({ ...account, DataSourceId: RULES_DATA_SOURCE_ID }),
    );
    expect(deleted).toMatchObject({
      Status: 200,
      DataSourceId: RULES_DATA_SOURCE_ID,
      Arn: dataSourceArn(RULES_DATA_SOURCE_ID),
    });
    expect(await sdkError(describeSource(qs))).toMatchObject({ name: 'ResourceNotFoundException', status: 404 });
    expect(
      await sdkError(qs.client.send(new DeleteDataSourceCommand({ ...account, DataSourceId: RULES_DATA_SOURCE_ID }))),
    ).toMatchObject({ name: 'ResourceNotFoundException', status: 404 });

    objects.deniedRoles.clear();
    expect((await createRulesDataSource(qs))?.Status).toBe('CREATION_SUCCESSFUL');
    await createRulesDataSet(qs);
    const { Ingestions = [] } = await qs.client.send(
      new ListIngestionsCommand({ ...account, DataSetId: RULES_DATA_SET_ID }),
    );
    expect(Ingestions[0]?.IngestionStatus).toBe('COMPLETED');
  });

  it('finishes after a restart a data source whose creation was under way when the emulator stopped', async () => {
    const qs = await emulator(60_000);
    putRules(objects, RULES_CSV);
    await startRulesDataSource(qs);
    expect((await describeSource(qs))?.Status).toBe('CREATION_IN_PROGRESS');
    t = await qs.restart({ dataSourceCreationMs: 50 });
    expect((await dataSourceCreated(t))?.Status).toBe('CREATION_SUCCESSFUL');
  });
});

describe('data source and dataset permissions', () => {
  async function withAuthor(): Promise<TestEmulator> {
    const qs = await emulator();
    putRules(objects, RULES_CSV);
    await qs.register(AUTHOR, { UserRole: 'AUTHOR' });
    await qs.client.send(new CreateGroupCommand({ ...account, Namespace: NAMESPACE, GroupName: 'authors' }));
    return qs;
  }

  it('creates a data source with Permissions that DescribeDataSourcePermissions answers, and updates them', async () => {
    const qs = await withAuthor();
    await startRulesDataSource(qs, { Permissions: [{ Principal: userArn(AUTHOR), Actions: SOURCE_VIEWER }] });
    const permissions = () =>
      qs.client.send(new DescribeDataSourcePermissionsCommand({ ...account, DataSourceId: RULES_DATA_SOURCE_ID }));
    expect(await permissions()).toMatchObject({
      Status: 200,
      DataSourceId: RULES_DATA_SOURCE_ID,
      DataSourceArn: dataSourceArn(RULES_DATA_SOURCE_ID),
      Permissions: [{ Principal: userArn(AUTHOR), Actions: [...SOURCE_VIEWER].sort() }],
    });
    const updated = await qs.client.send(
      new UpdateDataSourcePermissionsCommand({
        ...account,
        DataSourceId: RULES_DATA_SOURCE_ID,
        GrantPermissions: [{ Principal: groupArn('authors'), Actions: ['quicksight:PassDataSource'] }],
        RevokePermissions: [{ Principal: userArn(AUTHOR), Actions: ['quicksight:DescribeDataSourcePermissions'] }],
      }),
    );
    expect(updated).toMatchObject({ Status: 200, DataSourceId: RULES_DATA_SOURCE_ID });
    expect((await permissions()).Permissions).toEqual([
      { Principal: userArn(AUTHOR), Actions: ['quicksight:DescribeDataSource'] },
      { Principal: groupArn('authors'), Actions: ['quicksight:PassDataSource'] },
    ]);
    // The creation still ends with the permissions given meanwhile.
    expect((await dataSourceCreated(qs))?.Status).toBe('CREATION_SUCCESSFUL');
    expect((await permissions()).Permissions).toHaveLength(2);
  });

  it.each([
    ['a user that is not registered', userArn('nobody@example.com'), SOURCE_VIEWER],
    [
      'a namespace (data sources take users and groups only)',
      `arn:aws:quicksight:us-east-2:${ACCOUNT_ID}:namespace/default`,
      SOURCE_VIEWER,
    ],
    ['an action of another resource', userArn(AUTHOR), ['quicksight:DescribeDashboard']],
  ])(
    'refuses Permissions for %s with InvalidParameterValueException and creates nothing',
    async (_case, Principal, Actions) => {
      const qs = await withAuthor();
      const refused = await sdkError(startRulesDataSource(qs, { Permissions: [{ Principal, Actions }] }));
      expect(refused).toMatchObject({ name: 'InvalidParameterValueException', status: 400 });
      expect(await sdkError(describeSource(qs))).toMatchObject({ name: 'ResourceNotFoundException' });
    },
  );

  it('grants and revokes dataset permissions (UpdateDataSetPermissions), as DescribeDataSetPermissions answers', async () => {
    const qs = await withAuthor();
    await createRulesDataSource(qs);
    await qs.client.send(
      new CreateDataSetCommand({
        ...account,
        DataSetId: RULES_DATA_SET_ID,
        Name: 'Rules',
        ImportMode: 'SPICE',
        UseAs: 'RLS_RULES',
        PhysicalTableMap: {
          rules: {
            S3Source: {
              DataSourceArn: dataSourceArn(RULES_DATA_SOURCE_ID),
              InputColumns: ['UserARN', 'GroupARN', 'company'].map((Name) => ({ Name, Type: 'STRING' as const })),
            },
          },
        },
        Permissions: [
          { Principal: groupArn('authors'), Actions: ['quicksight:DescribeDataSet', 'quicksight:PassDataSet'] },
        ],
      }),
    );
    const permissions = () =>
      qs.client.send(new DescribeDataSetPermissionsCommand({ ...account, DataSetId: RULES_DATA_SET_ID }));
    expect(await permissions()).toMatchObject({
      DataSetId: RULES_DATA_SET_ID,
      DataSetArn: dataSetArn(RULES_DATA_SET_ID),
      Permissions: [
        { Principal: groupArn('authors'), Actions: ['quicksight:DescribeDataSet', 'quicksight:PassDataSet'] },
      ],
    });
    expect(
      await qs.client.send(
        new UpdateDataSetPermissionsCommand({
          ...account,
          DataSetId: RULES_DATA_SET_ID,
          GrantPermissions: [{ Principal: userArn(AUTHOR), Actions: ['quicksight:ListIngestions'] }],
          RevokePermissions: [
            { Principal: groupArn('authors'), Actions: ['quicksight:DescribeDataSet', 'quicksight:PassDataSet'] },
          ],
        }),
      ),
    ).toMatchObject({ Status: 200, DataSetId: RULES_DATA_SET_ID, DataSetArn: dataSetArn(RULES_DATA_SET_ID) });
    expect((await permissions()).Permissions).toEqual([
      { Principal: userArn(AUTHOR), Actions: ['quicksight:ListIngestions'] },
    ]);
    expect(
      await sdkError(
        qs.client.send(
          new UpdateDataSetPermissionsCommand({
            ...account,
            DataSetId: RULES_DATA_SET_ID,
            GrantPermissions: [{ Principal: groupArn('no-such-group'), Actions: ['quicksight:DescribeDataSet'] }],
          }),
        ),
      ),
    ).toMatchObject({ name: 'InvalidParameterValueException' });
    expect((await permissions()).Permissions).toHaveLength(1);
    for (const missing of [
      qs.client.send(new DescribeDataSetPermissionsCommand({ ...account, DataSetId: 'absent' })),
      qs.client.send(new DescribeDataSourcePermissionsCommand({ ...account, DataSourceId: 'absent' })),
    ]) {
      expect(await sdkError(missing)).toMatchObject({ name: 'ResourceNotFoundException', status: 404 });
    }
  });
});

describe('ListDataSets', () => {
  it('lists the sample datasets and the created ones as DataSetSummary, page by page', async () => {
    const qs = await emulator();
    putRules(objects, RULES_CSV);
    await createRulesDataSource(qs);
    await createRulesDataSet(qs);
    const all = await qs.client.send(new ListDataSetsCommand(account));
    expect(all.DataSetSummaries?.map((summary) => summary.DataSetId)).toEqual([
      'distributor-monthly-facts',
      'industry-benchmarks',
      RULES_DATA_SET_ID,
    ]);
    expect(all.DataSetSummaries?.at(-1)).toMatchObject({
      Arn: dataSetArn(RULES_DATA_SET_ID),
      Name: 'Portal company rules',
      ImportMode: 'SPICE',
      UseAs: 'RLS_RULES',
      RowLevelPermissionTagConfigurationApplied: false,
      ColumnLevelPermissionRulesApplied: false,
    });
    const first = await qs.client.send(new ListDataSetsCommand({ ...account, MaxResults: 2 }));
    expect(first.DataSetSummaries).toHaveLength(2);
    const second = await qs.client.send(new ListDataSetsCommand({ ...account, NextToken: first.NextToken }));
    expect(second.DataSetSummaries?.map((summary) => summary.DataSetId)).toEqual([RULES_DATA_SET_ID]);
    expect(second.NextToken).toBeUndefined();
    expect(await sdkError(qs.client.send(new ListDataSetsCommand({ ...account, NextToken: 'nope' })))).toMatchObject({
      name: 'InvalidNextTokenException',
      status: 400,
    });
  });
});

describe('attaching rules (RowLevelPermissionDataSet)', () => {
  it('refuses VERSION_2 rules without UserARN and GroupARN, spelt exactly, and VERSION_1 rules without UserName and GroupName', async () => {
    const qs = await emulator();
    putRules(objects, RULES_CSV);
    await createRulesDataSource(qs);
    await createRulesDataSet(qs, ['UserArn', 'GroupArn', 'company']);
    const attach = (FormatVersion: 'VERSION_1' | 'VERSION_2', DataSetId: string) =>
      qs.client.send(
        new CreateDataSetCommand({
          ...account,
          DataSetId,
          Name: DataSetId,
          ImportMode: 'SPICE',
          RowLevelPermissionDataSet: {
            Arn: dataSetArn(RULES_DATA_SET_ID),
            PermissionPolicy: 'GRANT_ACCESS',
            FormatVersion,
          },
          PhysicalTableMap: {
            facts: {
              S3Source: {
                DataSourceArn: dataSourceArn(RULES_DATA_SOURCE_ID),
                InputColumns: [{ Name: 'company', Type: 'STRING' }],
              },
            },
          },
        }),
      );
    const version2 = await sdkError(attach('VERSION_2', 'protected'));
    expect(version2).toMatchObject({ name: 'InvalidParameterValueException', status: 400 });
    expect(version2.message).toContain('UserARN or GroupARN');
    expect((await sdkError(attach('VERSION_1', 'protected-v1'))).message).toContain('UserName or GroupName');

    await createRulesDataSet(qs, ['UserARN', 'GroupARN', 'company'], 'portal-rules');
    const rules = dataSetArn('portal-rules');
    const created = await qs.client.send(
      new CreateDataSetCommand({
        ...account,
        DataSetId: 'protected',
        Name: 'protected',
        ImportMode: 'SPICE',
        RowLevelPermissionDataSet: { Arn: rules, PermissionPolicy: 'GRANT_ACCESS', FormatVersion: 'VERSION_2' },
        PhysicalTableMap: {
          facts: {
            S3Source: {
              DataSourceArn: dataSourceArn(RULES_DATA_SOURCE_ID),
              InputColumns: [{ Name: 'company', Type: 'STRING' }],
            },
          },
        },
      }),
    );
    expect(created.Status).toBe(201);
  });
});
