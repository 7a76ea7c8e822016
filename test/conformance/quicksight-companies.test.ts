import {
  CreateDataSetCommand,
  CreateDataSourceCommand,
  CreateGroupCommand,
  CreateGroupMembershipCommand,
  CreateIngestionCommand,
  DeleteGroupCommand,
  DeleteGroupMembershipCommand,
  DescribeDashboardCommand,
  DescribeDataSetCommand,
  DescribeDataSourceCommand,
  DescribeGroupCommand,
  DescribeIngestionCommand,
  ListGroupMembershipsCommand,
  ListGroupsCommand,
  ListIngestionsCommand,
  type Ingestion,
} from '@aws-sdk/client-quicksight';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NAMESPACE,
  sdkError,
  startQuickSightTarget,
  type QuickSightTarget,
  type ScratchS3,
} from './support/quicksight-target.ts';
import { eventually } from './support/eventually.ts';
import { REGION, scratchName } from './support/target.ts';

/**
 * The QuickSight behaviour the company model relies on (groups per company, the row-level
 * security rules dataset loaded from S3, the datasets behind dashboards), each test named
 * after the API reference page it follows. Runs against the local emulator, or unchanged
 * against AWS (`npm run conformance -- --aws`, see support/quicksight-target.ts).
 */

const API = 'https://docs.aws.amazon.com/quicksight/latest/APIReference';

let qs: QuickSightTarget;
let member: string;
beforeAll(async () => {
  qs = await startQuickSightTarget();
  member = await qs.registerUser();
  // The first start may synthesize the app for the functions' role policies (support/front-door.ts).
}, 300_000);
afterAll(async () => {
  await qs?.close();
});

const namespaceScope = () => ({ AwsAccountId: qs.accountId, Namespace: NAMESPACE });
const groupRequest = (GroupName: string) => ({ ...namespaceScope(), GroupName });

/** Lists every group of the namespace, page by page. */
async function allGroupNames(): Promise<string[]> {
  const names: string[] = [];
  let NextToken: string | undefined;
  do {
    const page = await qs.identityClient.send(
      new ListGroupsCommand({ ...namespaceScope(), MaxResults: 100, NextToken }),
    );
    names.push(...(page.GroupList ?? []).flatMap((g) => (g.GroupName ? [g.GroupName] : [])));
    NextToken = page.NextToken;
  } while (NextToken);
  return names;
}

describe('groups and memberships', () => {
  let group: string;
  beforeAll(async () => {
    group = qs.scratchGroupName();
    await qs.identityClient.send(
      new CreateGroupCommand({ ...groupRequest(group), Description: 'Conformance company' }),
    );
  });

  it(`CreateGroup (${API}/API_CreateGroup.html): answers the group with its ARN in the namespace`, async () => {
    const other = qs.scratchGroupName();
    const created = await qs.identityClient.send(new CreateGroupCommand(groupRequest(other)));
    expect(created.Status).toBe(200);
    expect(created.Group).toMatchObject({ GroupName: other, Arn: qs.groupArn(other) });
    expect(created.Group?.PrincipalId).toBeTruthy();
  });

  it(`CreateGroup (${API}/API_CreateGroup.html): answers ResourceExistsException for a name the namespace has`, async () => {
    expect(await sdkError(qs.identityClient.send(new CreateGroupCommand(groupRequest(group))))).toMatchObject({
      name: 'ResourceExistsException',
      status: 409,
    });
  });

  it(`DescribeGroup (${API}/API_DescribeGroup.html): describes the group; ResourceNotFoundException for none`, async () => {
    const described = await qs.identityOperator.send(new DescribeGroupCommand(groupRequest(group)));
    expect(described.Group).toMatchObject({
      GroupName: group,
      Arn: qs.groupArn(group),
      Description: 'Conformance company',
    });
    expect(
      await sdkError(qs.identityOperator.send(new DescribeGroupCommand(groupRequest(`${group}-absent`)))),
    ).toMatchObject({
      name: 'ResourceNotFoundException',
      status: 404,
    });
  });

  it(`ListGroups (${API}/API_ListGroups.html): lists the namespace's groups page by page with NextToken`, async () => {
    expect(await allGroupNames()).toContain(group);
    const page = await qs.identityClient.send(new ListGroupsCommand({ ...namespaceScope(), MaxResults: 1 }));
    expect(page.GroupList?.length).toBe(1);
    expect(
      await sdkError(qs.identityClient.send(new ListGroupsCommand({ ...namespaceScope(), NextToken: 'not-a-token' }))),
    ).toMatchObject({
      name: expect.stringMatching(/^(InvalidNextTokenException|InvalidParameterValueException)$/),
      status: 400,
    });
  });

  it(`CreateGroupMembership (${API}/API_CreateGroupMembership.html): adds a registered user, answering the member`, async () => {
    const added = await qs.identityClient.send(
      new CreateGroupMembershipCommand({ ...groupRequest(group), MemberName: member }),
    );
    expect(added.Status).toBe(200);
    expect(added.GroupMember).toMatchObject({ MemberName: member, Arn: qs.userArn(member) });
  });

  it(`CreateGroupMembership (${API}/API_CreateGroupMembership.html): answers ResourceNotFoundException for a user that is not registered`, async () => {
    const absent = qs.identityClient.send(
      new CreateGroupMembershipCommand({ ...groupRequest(group), MemberName: qs.unregisteredUserName() }),
    );
    expect(await sdkError(absent)).toMatchObject({ name: 'ResourceNotFoundException', status: 404 });
  });

  it(`ListGroupMemberships (${API}/API_ListGroupMemberships.html): lists the group's members`, async () => {
    await qs.identityClient.send(new CreateGroupMembershipCommand({ ...groupRequest(group), MemberName: member }));
    const listed = await qs.identityClient.send(new ListGroupMembershipsCommand(groupRequest(group)));
    expect(listed.GroupMemberList?.map((m) => m.MemberName)).toEqual([member]);
  });

  it(`DeleteGroupMembership (${API}/API_DeleteGroupMembership.html): removes a member`, async () => {
    await qs.identityClient.send(new CreateGroupMembershipCommand({ ...groupRequest(group), MemberName: member }));
    const removed = await qs.identityClient.send(
      new DeleteGroupMembershipCommand({ ...groupRequest(group), MemberName: member }),
    );
    expect(removed.Status).toBe(200);
    const listed = await qs.identityClient.send(new ListGroupMembershipsCommand(groupRequest(group)));
    expect(listed.GroupMemberList ?? []).toEqual([]);
  });

  it(`DeleteGroup (${API}/API_DeleteGroup.html): deletes the group; ResourceNotFoundException once it is gone`, async () => {
    const doomed = qs.scratchGroupName();
    await qs.identityClient.send(new CreateGroupCommand(groupRequest(doomed)));
    expect((await qs.identityClient.send(new DeleteGroupCommand(groupRequest(doomed)))).Status).toBe(200);
    expect(await sdkError(qs.identityOperator.send(new DescribeGroupCommand(groupRequest(doomed))))).toMatchObject({
      name: 'ResourceNotFoundException',
    });
    expect(await sdkError(qs.identityClient.send(new DeleteGroupCommand(groupRequest(doomed))))).toMatchObject({
      name: 'ResourceNotFoundException',
      status: 404,
    });
  });
});

describe('the datasets behind a dashboard', () => {
  it(`DescribeDashboard (${API}/API_DescribeDashboard.html): lists the dashboard's datasets in Version.DataSetArns`, async () => {
    const described = await qs.client.send(
      new DescribeDashboardCommand({ AwsAccountId: qs.accountId, DashboardId: qs.dashboardId }),
    );
    const arns = described.Dashboard?.Version?.DataSetArns ?? [];
    expect(arns.length).toBeGreaterThan(0);
    for (const arn of arns)
      expect(arn).toMatch(new RegExp(`^arn:aws:quicksight:${REGION}:${qs.accountId}:dataset/[^/]+$`));
  });

  it(`DescribeDataSet (${API}/API_DescribeDataSet.html): describes a dataset by ID; ResourceNotFoundException for none`, async () => {
    const described = await qs.client.send(
      new DescribeDashboardCommand({ AwsAccountId: qs.accountId, DashboardId: qs.dashboardId }),
    );
    const arn = described.Dashboard?.Version?.DataSetArns?.[0] ?? '';
    const dataSetId = arn.slice(arn.lastIndexOf('/') + 1);
    const dataSet = await qs.client.send(
      new DescribeDataSetCommand({ AwsAccountId: qs.accountId, DataSetId: dataSetId }),
    );
    expect(dataSet.DataSet).toMatchObject({ Arn: arn, DataSetId: dataSetId });
    expect(
      await sdkError(
        qs.client.send(
          new DescribeDataSetCommand({ AwsAccountId: qs.accountId, DataSetId: scratchName('absent-dataset') }),
        ),
      ),
    ).toMatchObject({
      name: 'ResourceNotFoundException',
      status: 404,
    });
  });
});

const ENDED = new Set(['COMPLETED', 'FAILED', 'CANCELLED']);

describe('a row-level security rules dataset loaded from S3', () => {
  let s3: ScratchS3;
  let dataSourceId: string;
  let dataSetId: string;
  const prefix = `${scratchName('qs-rules')}/`;
  const rulesKey = `${prefix}rules.csv`;
  const manifestKey = `${prefix}manifest.json`;
  const account = () => ({ AwsAccountId: qs.accountId });
  const describeIngestion = (IngestionId: string) =>
    // The product lists ingestions and never describes one: the operator asks.
    qs.operator
      .send(new DescribeIngestionCommand({ ...account(), DataSetId: dataSetId, IngestionId }))
      .then((r) => r.Ingestion);
  const ended = (IngestionId: string) =>
    eventually(
      () => describeIngestion(IngestionId),
      (i) => ENDED.has(i?.IngestionStatus ?? ''),
    );

  beforeAll(async () => {
    dataSourceId = qs.rulesDataSourceId();
    dataSetId = qs.rulesDataSetId();
    s3 = qs.s3();
    await s3.put(
      rulesKey,
      `UserARN,GroupARN,company\n,${qs.groupArn('conformance-a')},Company A\n,${qs.groupArn('conformance-b')},"Company B, Inc."\n`,
    );
    await s3.put(
      manifestKey,
      JSON.stringify({
        fileLocations: [{ URIs: [`s3://${s3.bucket}/${rulesKey}`] }],
        globalUploadSettings: { format: 'CSV', delimiter: ',', textqualifier: '"', containsHeader: 'true' },
      }),
    );
  });

  const createDataSource = () =>
    qs.client.send(
      new CreateDataSourceCommand({
        ...account(),
        DataSourceId: dataSourceId,
        Name: 'Conformance rules',
        Type: 'S3',
        DataSourceParameters: {
          S3Parameters: {
            ManifestFileLocation: { Bucket: s3.bucket, Key: manifestKey },
            ...(s3.roleArn && { RoleArn: s3.roleArn }),
          },
        },
      }),
    );

  it(`CreateDataSource (${API}/API_CreateDataSource.html): creates an S3 data source read through a manifest`, async () => {
    const created = await createDataSource();
    qs.created('dataSource', dataSourceId);
    expect(created.DataSourceId).toBe(dataSourceId);
    expect(created.Arn).toBe(`arn:aws:quicksight:${REGION}:${qs.accountId}:datasource/${dataSourceId}`);
    expect(['CREATION_IN_PROGRESS', 'CREATION_SUCCESSFUL']).toContain(created.CreationStatus);
    expect(await sdkError(createDataSource())).toMatchObject({ name: 'ResourceExistsException', status: 409 });
  });

  it(`DescribeDataSource (${API}/API_DescribeDataSource.html): shows the data source created, with its manifest location`, async () => {
    const source = await eventually(
      () =>
        qs.client
          .send(new DescribeDataSourceCommand({ ...account(), DataSourceId: dataSourceId }))
          .then((r) => r.DataSource),
      (s) => s?.Status !== 'CREATION_IN_PROGRESS',
    );
    expect(source).toMatchObject({ Type: 'S3', Status: 'CREATION_SUCCESSFUL' });
    expect(source?.DataSourceParameters?.S3Parameters?.ManifestFileLocation).toEqual({
      Bucket: s3.bucket,
      Key: manifestKey,
    });
  });

  let initialIngestionId = '';

  it(`CreateDataSet (${API}/API_CreateDataSet.html): creates a SPICE dataset used as RLS_RULES, starting its first ingestion`, async () => {
    const created = await qs.client.send(
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
              InputColumns: [
                { Name: 'UserARN', Type: 'STRING' },
                { Name: 'GroupARN', Type: 'STRING' },
                { Name: 'company', Type: 'STRING' },
              ],
            },
          },
        },
      }),
    );
    qs.created('dataSet', dataSetId);
    expect(created).toMatchObject({
      Status: 201,
      DataSetId: dataSetId,
      Arn: `arn:aws:quicksight:${REGION}:${qs.accountId}:dataset/${dataSetId}`,
    });
    expect(created.IngestionId).toBeTruthy();
    initialIngestionId = created.IngestionId ?? '';
    const described = await qs.client.send(new DescribeDataSetCommand({ ...account(), DataSetId: dataSetId }));
    expect(described.DataSet).toMatchObject({ UseAs: 'RLS_RULES', ImportMode: 'SPICE' });
  });

  it(`DescribeIngestion (${API}/API_DescribeIngestion.html): the first ingestion loads the file's rules`, async () => {
    const ingestion = await ended(initialIngestionId);
    expect(ingestion).toMatchObject({ IngestionStatus: 'COMPLETED', RowInfo: { RowsIngested: 2 } });
    expect(ingestion?.CreatedTime).toBeInstanceOf(Date);
  });

  it(`CreateIngestion (${API}/API_CreateIngestion.html): a full refresh reloads the file (201)`, async () => {
    await s3.put(rulesKey, `UserARN,GroupARN,company\n,${qs.groupArn('conformance-c')},Company C\n`);
    const created = await qs.client.send(
      new CreateIngestionCommand({
        ...account(),
        DataSetId: dataSetId,
        IngestionId: 'refresh-1',
        IngestionType: 'FULL_REFRESH',
      }),
    );
    expect(created).toMatchObject({ Status: 201, IngestionId: 'refresh-1' });
    expect(['INITIALIZED', 'QUEUED', 'RUNNING', 'COMPLETED']).toContain(created.IngestionStatus);
    expect(await ended('refresh-1')).toMatchObject({ IngestionStatus: 'COMPLETED', RowInfo: { RowsIngested: 1 } });
    expect(
      await sdkError(
        qs.client.send(new CreateIngestionCommand({ ...account(), DataSetId: dataSetId, IngestionId: 'refresh-1' })),
      ),
    ).toMatchObject({
      name: 'ResourceExistsException',
      status: 409,
    });
  });

  it(`CreateIngestion (${API}/API_CreateIngestion.html): an ingestion whose file is gone ends FAILED with ErrorInfo`, async () => {
    await s3.put(manifestKey, JSON.stringify({ fileLocations: [{ URIs: [`s3://${s3.bucket}/${prefix}absent.csv`] }] }));
    await qs.client.send(
      new CreateIngestionCommand({ ...account(), DataSetId: dataSetId, IngestionId: 'refresh-missing' }),
    );
    const failed = await ended('refresh-missing');
    expect(failed?.IngestionStatus).toBe('FAILED');
    expect(failed?.ErrorInfo?.Type).toBeTruthy();
  });

  it(`ListIngestions (${API}/API_ListIngestions.html): lists the dataset's ingestions with CreatedTime and IngestionStatus`, async () => {
    const listed: Ingestion[] =
      (await qs.client.send(new ListIngestionsCommand({ ...account(), DataSetId: dataSetId }))).Ingestions ?? [];
    const byId = new Map(listed.map((i) => [i.IngestionId, i]));
    for (const id of [initialIngestionId, 'refresh-1', 'refresh-missing']) {
      expect(byId.get(id)?.CreatedTime).toBeInstanceOf(Date);
      expect(byId.get(id)?.IngestionStatus).toBeTruthy();
    }
    expect(byId.get('refresh-missing')?.IngestionStatus).toBe('FAILED');
    expect(
      await sdkError(
        qs.client.send(new ListIngestionsCommand({ ...account(), DataSetId: scratchName('absent-dataset') })),
      ),
    ).toMatchObject({
      name: 'ResourceNotFoundException',
    });
  });
});
