import {
  CreateDataSetCommand,
  CreateDataSourceCommand,
  CreateGroupCommand,
  DeleteDataSourceCommand,
  DescribeDataSetPermissionsCommand,
  DescribeDataSourceCommand,
  DescribeDataSourcePermissionsCommand,
  ListDataSetsCommand,
  UpdateDataSetPermissionsCommand,
  UpdateDataSourcePermissionsCommand,
  type DataSetSummary,
} from '@aws-sdk/client-quicksight';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTHOR_DATA_SET_ACTIONS, AUTHOR_DATA_SOURCE_ACTIONS } from '#contracts/company-rules.ts';
import { eventually } from './support/eventually.ts';
import { NAMESPACE, sdkError, startQuickSightTarget, type QuickSightTarget } from './support/quicksight-target.ts';
import { REGION, scratchName } from './support/target.ts';

/**
 * What makes the rules dataset usable by its authors and recoverable, each test named after the
 * API reference page it follows: a data source is usable once QuickSight reports it created,
 * and one that cannot read its manifest ends CREATION_FAILED with ErrorInfo; the rules data
 * source and dataset carry permissions for an author group, granted and read back; ListDataSets
 * lists the rules dataset. Runs against the local emulator, or unchanged against AWS.
 */

const API = 'https://docs.aws.amazon.com/quicksight/latest/APIReference';

let qs: QuickSightTarget;
let authors: string;
let dataSourceId: string;
let dataSetId: string;
const account = () => ({ AwsAccountId: qs.accountId });
const authorsArn = () => qs.groupArn(authors);

beforeAll(async () => {
  qs = await startQuickSightTarget();
  authors = qs.scratchGroupName();
  await qs.identityClient.send(
    new CreateGroupCommand({ AwsAccountId: qs.accountId, Namespace: NAMESPACE, GroupName: authors }),
  );
  dataSourceId = qs.rulesDataSourceId();
  dataSetId = qs.rulesDataSetId();
}, 300_000);
afterAll(async () => {
  await qs?.close();
});

const describeSource = (client: QuickSightTarget['client'], DataSourceId: string) =>
  client.send(new DescribeDataSourceCommand({ ...account(), DataSourceId })).then((r) => r.DataSource);
const created = (client: QuickSightTarget['client'], DataSourceId: string) =>
  eventually(
    () => describeSource(client, DataSourceId),
    (source) => source?.Status !== 'CREATION_IN_PROGRESS',
  );

/** The operator creates a scratch S3 data source whose manifest does not exist; recorded for deletion. */
async function brokenDataSource(id: string) {
  const s3 = qs.s3();
  const answer = await qs.operator.send(
    new CreateDataSourceCommand({
      ...account(),
      DataSourceId: id,
      Name: `Conformance ${id}`,
      Type: 'S3',
      DataSourceParameters: {
        S3Parameters: {
          ManifestFileLocation: { Bucket: s3.bucket, Key: `${scratchName('qs-absent')}/manifest.json` },
          ...(s3.roleArn && { RoleArn: s3.roleArn }),
        },
      },
    }),
  );
  qs.created('dataSource', id);
  return answer;
}

describe('a data source that cannot read its manifest', () => {
  it(`CreateDataSource (${API}/API_CreateDataSource.html), DataSource (${API}/API_DataSource.html): answers CREATION_IN_PROGRESS, then ends CREATION_FAILED with ErrorInfo`, async () => {
    const id = scratchName('qs-broken-source');
    const answer = await brokenDataSource(id);
    expect(answer.CreationStatus).toBe('CREATION_IN_PROGRESS');
    const failed = await created(qs.operator, id);
    expect(failed?.Status).toBe('CREATION_FAILED');
    expect(failed?.ErrorInfo?.Type).toBeTruthy();
    expect(failed?.ErrorInfo?.Message).toBeTruthy();
  });

  it(`DeleteDataSource (${API}/API_DeleteDataSource.html): deletes a failed data source; ResourceNotFoundException once it is gone`, async () => {
    const id = scratchName('qs-doomed-source');
    await brokenDataSource(id);
    await created(qs.operator, id);
    const deleted = await qs.operator.send(new DeleteDataSourceCommand({ ...account(), DataSourceId: id }));
    expect(deleted).toMatchObject({ Status: 200, DataSourceId: id });
    expect(await sdkError(describeSource(qs.operator, id))).toMatchObject({
      name: 'ResourceNotFoundException',
      status: 404,
    });
  });
});

describe('the rules data source and dataset, visible to their authors', () => {
  beforeAll(async () => {
    const s3 = qs.s3();
    const prefix = `${scratchName('qs-access')}/`;
    await s3.put(`${prefix}rules.csv`, `UserARN,GroupARN,company\n,${qs.groupArn('conformance-a')},Company A\n`);
    await s3.put(
      `${prefix}manifest.json`,
      JSON.stringify({
        fileLocations: [{ URIs: [`s3://${s3.bucket}/${prefix}rules.csv`] }],
        globalUploadSettings: { format: 'CSV', delimiter: ',', textqualifier: '"', containsHeader: 'true' },
      }),
    );
    await qs.client.send(
      new CreateDataSourceCommand({
        ...account(),
        DataSourceId: dataSourceId,
        Name: 'Conformance rules',
        Type: 'S3',
        DataSourceParameters: {
          S3Parameters: {
            ManifestFileLocation: { Bucket: s3.bucket, Key: `${prefix}manifest.json` },
            ...(s3.roleArn && { RoleArn: s3.roleArn }),
          },
        },
        Permissions: [{ Principal: authorsArn(), Actions: [...AUTHOR_DATA_SOURCE_ACTIONS] }],
      }),
    );
    qs.created('dataSource', dataSourceId);
    expect((await created(qs.client, dataSourceId))?.Status).toBe('CREATION_SUCCESSFUL');
    await qs.client.send(
      new CreateDataSetCommand({
        ...account(),
        DataSetId: dataSetId,
        Name: 'Conformance rules',
        ImportMode: 'SPICE',
        UseAs: 'RLS_RULES',
        PhysicalTableMap: {
          rules: {
            S3Source: {
              DataSourceArn: `arn:aws:quicksight:${REGION}:${qs.accountId}:datasource/${dataSourceId}`,
              UploadSettings: { Format: 'CSV', ContainsHeader: true, Delimiter: ',', TextQualifier: 'DOUBLE_QUOTE' },
              InputColumns: ['UserARN', 'GroupARN', 'company'].map((Name) => ({ Name, Type: 'STRING' as const })),
            },
          },
        },
      }),
    );
    qs.created('dataSet', dataSetId);
  });

  it(`DescribeDataSourcePermissions (${API}/API_DescribeDataSourcePermissions.html): answers the permissions the source was created with`, async () => {
    const described = await qs.client.send(
      new DescribeDataSourcePermissionsCommand({ ...account(), DataSourceId: dataSourceId }),
    );
    expect(described.DataSourceId).toBe(dataSourceId);
    const granted = described.Permissions?.find((p) => p.Principal === authorsArn());
    expect([...(granted?.Actions ?? [])].sort()).toEqual([...AUTHOR_DATA_SOURCE_ACTIONS].sort());
  });

  it(`UpdateDataSourcePermissions (${API}/API_UpdateDataSourcePermissions.html): revokes and grants actions of a principal`, async () => {
    const change = (key: 'GrantPermissions' | 'RevokePermissions') =>
      qs.client.send(
        new UpdateDataSourcePermissionsCommand({
          ...account(),
          DataSourceId: dataSourceId,
          [key]: [{ Principal: authorsArn(), Actions: ['quicksight:PassDataSource'] }],
        }),
      );
    const actions = async () =>
      (
        await qs.client.send(new DescribeDataSourcePermissionsCommand({ ...account(), DataSourceId: dataSourceId }))
      ).Permissions?.find((p) => p.Principal === authorsArn())?.Actions ?? [];
    expect((await change('RevokePermissions')).Status).toBe(200);
    expect(await actions()).not.toContain('quicksight:PassDataSource');
    await change('GrantPermissions');
    expect(await actions()).toContain('quicksight:PassDataSource');
  });

  it(`UpdateDataSetPermissions (${API}/API_UpdateDataSetPermissions.html), DescribeDataSetPermissions (${API}/API_DescribeDataSetPermissions.html): grants a dataset to an author group`, async () => {
    const updated = await qs.client.send(
      new UpdateDataSetPermissionsCommand({
        ...account(),
        DataSetId: dataSetId,
        GrantPermissions: [{ Principal: authorsArn(), Actions: [...AUTHOR_DATA_SET_ACTIONS] }],
      }),
    );
    expect(updated).toMatchObject({ Status: 200, DataSetId: dataSetId });
    const described = await qs.client.send(
      new DescribeDataSetPermissionsCommand({ ...account(), DataSetId: dataSetId }),
    );
    const granted = described.Permissions?.find((p) => p.Principal === authorsArn());
    expect([...(granted?.Actions ?? [])].sort()).toEqual([...AUTHOR_DATA_SET_ACTIONS].sort());
    expect(
      await sdkError(
        // The portal's functions may ask about the rules dataset only: the operator asks about another.
        qs.operator.send(
          new DescribeDataSetPermissionsCommand({ ...account(), DataSetId: scratchName('absent-dataset') }),
        ),
      ),
    ).toMatchObject({ name: 'ResourceNotFoundException', status: 404 });
  });

  it(`ListDataSets (${API}/API_ListDataSets.html): lists the rules dataset, page by page, as RLS_RULES`, async () => {
    const summaries: DataSetSummary[] = [];
    let NextToken: string | undefined;
    do {
      const page = await qs.operator.send(new ListDataSetsCommand({ ...account(), MaxResults: 100, NextToken }));
      summaries.push(...(page.DataSetSummaries ?? []));
      NextToken = page.NextToken;
    } while (NextToken);
    expect(summaries.find((summary) => summary.DataSetId === dataSetId)).toMatchObject({
      Arn: `arn:aws:quicksight:${REGION}:${qs.accountId}:dataset/${dataSetId}`,
      ImportMode: 'SPICE',
      UseAs: 'RLS_RULES',
    });
  });
});
