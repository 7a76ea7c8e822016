import {
  DescribeDataSetCommand,
  DescribeDataSetPermissionsCommand,
  DescribeDataSourceCommand,
  DescribeDataSourcePermissionsCommand,
  DescribeGroupCommand,
  DescribeUserCommand,
  ListIngestionsCommand,
  QuickSightClient,
  ResourceNotFoundException,
} from '@aws-sdk/client-quicksight';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { AUTHOR_DATA_SET_ACTIONS, AUTHOR_DATA_SOURCE_ACTIONS } from '#contracts/company-rules.ts';
import {
  rulesAuthorCheck,
  rulesDataSourceCheck,
  spiceCapacityCheck,
  type RulesAccessTarget,
} from '#tools/support/checks-rules-access.ts';

/**
 * The doctor's checks of what makes the rules usable on a real account, against QuickSight's
 * documented answers: DescribeUser/DescribeGroup for the configured author, DescribeDataSource's
 * Status and ErrorInfo (API reference, API_DataSource.html), the permissions of the rules data
 * source and dataset, and SPICE capacity where QuickSight tells it (an ingestion's ErrorInfo Type
 * ACCOUNT_CAPACITY_LIMIT_EXCEEDED).
 */

const ACCOUNT = '123456789012';
const AUTHORS = `arn:aws:quicksight:us-east-2:${ACCOUNT}:group/default/analytics-authors`;
const AUTHOR_USER = `arn:aws:quicksight:us-east-2:${ACCOUNT}:user/default/author@example.com`;
const quicksight = mockClient(QuickSightClient);
const client = new QuickSightClient({ region: 'us-east-2', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
const target = (authorArn: string | undefined = AUTHORS): RulesAccessTarget => ({
  quicksight: client,
  accountId: ACCOUNT,
  rulesDataSourceId: 'TVIQ-portal-company-rules',
  rulesDataSetId: 'TVIQ-portal-company-rules',
  authorArn,
});
const notFound = () => new ResourceNotFoundException({ message: 'not found', $metadata: {} });

afterEach(() => quicksight.reset());
afterAll(() => client.destroy());

describe('the rules author check', () => {
  it('fails when no author is configured, saying how to name one', async () => {
    const result = await rulesAuthorCheck(client, ACCOUNT, undefined);
    expect(result).toMatchObject({ status: 'fail', detail: expect.stringContaining('quicksightAuthorArn is not set') });
    expect(result.fix).toContain('-c quicksightAuthorArn=arn:aws:quicksight:');
    expect(quicksight.calls()).toEqual([]);
  });

  it('passes for an existing group, asking DescribeGroup in its namespace', async () => {
    quicksight.on(DescribeGroupCommand).resolves({ Group: { GroupName: 'analytics-authors' } });
    expect(await rulesAuthorCheck(client, ACCOUNT, AUTHORS)).toEqual({
      title: 'QuickSight author of the rules',
      status: 'pass',
      detail: 'group analytics-authors of namespace default',
    });
    expect(quicksight.commandCalls(DescribeGroupCommand)[0]!.args[0].input).toEqual({
      AwsAccountId: ACCOUNT,
      Namespace: 'default',
      GroupName: 'analytics-authors',
    });
  });

  it('fails for a principal QuickSight does not have, and warns for a READER, who cannot attach rules', async () => {
    quicksight.on(DescribeGroupCommand).rejects(notFound());
    const missing = await rulesAuthorCheck(client, ACCOUNT, AUTHORS);
    expect(missing).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('has no group analytics-authors'),
    });
    expect(missing.fix).toContain('aws quicksight create-group');
    quicksight.on(DescribeUserCommand).resolves({ User: { UserName: 'author@example.com', Role: 'READER' } });
    expect(await rulesAuthorCheck(client, ACCOUNT, AUTHOR_USER)).toMatchObject({
      status: 'warn',
      detail: 'user author@example.com is a READER: readers cannot attach rules to datasets',
    });
    quicksight.on(DescribeUserCommand).resolves({ User: { UserName: 'author@example.com', Role: 'AUTHOR' } });
    expect(await rulesAuthorCheck(client, ACCOUNT, AUTHOR_USER)).toMatchObject({ status: 'pass' });
  });
});

describe('the rules data source check', () => {
  it('warns before the first company change created it', async () => {
    quicksight.on(DescribeDataSourceCommand).rejects(notFound());
    expect(await rulesDataSourceCheck(target())).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('does not exist yet'),
    });
  });

  it("fails naming QuickSight's status and ErrorInfo when it failed, with Fix as the way out", async () => {
    quicksight.on(DescribeDataSourceCommand).resolves({
      DataSource: {
        Status: 'CREATION_FAILED',
        ErrorInfo: { Type: 'ACCESS_DENIED', Message: 'Amazon QuickSight could not read the manifest' },
      },
    });
    const result = await rulesDataSourceCheck(target());
    expect(result).toMatchObject({
      status: 'fail',
      detail:
        'TVIQ-portal-company-rules is CREATION_FAILED (ACCESS_DENIED: Amazon QuickSight could not read the manifest): every company change is refused until it is created again',
    });
    expect(result.fix).toContain('"Fix"');
  });

  it('warns while the data source is being created', async () => {
    quicksight.on(DescribeDataSourceCommand).resolves({ DataSource: { Status: 'CREATION_IN_PROGRESS' } });
    expect(await rulesDataSourceCheck(target())).toMatchObject({ status: 'warn' });
  });

  it('warns when the author lacks permissions on the source or the dataset, and passes once it holds them', async () => {
    quicksight.on(DescribeDataSourceCommand).resolves({ DataSource: { Status: 'CREATION_SUCCESSFUL' } });
    quicksight
      .on(DescribeDataSourcePermissionsCommand)
      .resolves({ Permissions: [{ Principal: AUTHORS, Actions: [...AUTHOR_DATA_SOURCE_ACTIONS] }] });
    quicksight
      .on(DescribeDataSetPermissionsCommand)
      .resolves({ Permissions: [{ Principal: AUTHORS, Actions: ['quicksight:DescribeDataSet'] }] });
    const lacking = await rulesDataSourceCheck(target());
    expect(lacking.status).toBe('warn');
    expect(lacking.detail).toContain('lacks quicksight:DescribeDataSetPermissions, quicksight:PassDataSet');
    quicksight
      .on(DescribeDataSetPermissionsCommand)
      .resolves({ Permissions: [{ Principal: AUTHORS, Actions: [...AUTHOR_DATA_SET_ACTIONS] }] });
    expect(await rulesDataSourceCheck(target())).toMatchObject({
      status: 'pass',
      detail: `TVIQ-portal-company-rules is CREATION_SUCCESSFUL; the rules are visible to ${AUTHORS}`,
    });
  });
});

describe('the SPICE capacity check', () => {
  it('fails when a load of the rules ran out of SPICE capacity', async () => {
    quicksight.on(DescribeDataSetCommand).resolves({ DataSet: { ConsumedSpiceCapacityInBytes: 120 } });
    quicksight.on(ListIngestionsCommand).resolves({
      Ingestions: [
        {
          Arn: 'arn:aws:quicksight:us-east-2:123456789012:dataset/TVIQ-portal-company-rules/ingestion/rules-1',
          CreatedTime: new Date(),
          IngestionId: 'rules-1',
          IngestionStatus: 'FAILED',
          ErrorInfo: { Type: 'ACCOUNT_CAPACITY_LIMIT_EXCEEDED', Message: 'SPICE capacity exceeded' },
        },
      ],
    });
    const result = await spiceCapacityCheck(target());
    expect(result).toMatchObject({
      title: 'SPICE capacity',
      status: 'fail',
      detail: expect.stringContaining('ACCOUNT_CAPACITY_LIMIT_EXCEEDED SPICE capacity exceeded'),
    });
    expect(result.fix).toContain('Manage QuickSight > SPICE capacity');
  });

  it('leaves the rest to a manual check, as no API reports the free capacity, with what the rules use', async () => {
    quicksight.on(DescribeDataSetCommand).resolves({ DataSet: { ConsumedSpiceCapacityInBytes: 120 } });
    quicksight.on(ListIngestionsCommand).resolves({
      Ingestions: [{ Arn: 'rules-1', CreatedTime: new Date(), IngestionId: 'rules-1', IngestionStatus: 'COMPLETED' }],
    });
    expect(await spiceCapacityCheck(target())).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/^the rules dataset uses 120 bytes of SPICE .*check it by hand$/),
    });
    quicksight.on(DescribeDataSetCommand).rejects(notFound());
    expect(await spiceCapacityCheck(target())).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('created on the first company change'),
    });
  });
});
