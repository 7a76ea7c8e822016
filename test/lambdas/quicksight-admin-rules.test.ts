import { AdminGetUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import {
  CreateDataSetCommand,
  CreateDataSourceCommand,
  CreateIngestionCommand,
  LimitExceededException,
  UpdateDataSetPermissionsCommand,
  UpdateDataSourcePermissionsCommand,
  type DataSource,
} from '@aws-sdk/client-quicksight';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUTHOR_DATA_SET_ACTIONS, AUTHOR_DATA_SOURCE_ACTIONS } from '#contracts/company-rules.ts';
import { ENV } from '#contracts/env.ts';
import { type FakeQuickSight, fakeQuickSight, groupArnOf, rulesRows } from './support/companies.ts';
import {
  ADMIN,
  COMPANY_SETTINGS,
  type Handler,
  type Harness,
  invoke,
  loadHandler,
  OTHER_USER,
  startHarness,
  USER,
} from './support/harness.ts';

/**
 * The rules dataset on a company change: the rules file in QuickSight's documented form, left
 * as it was when a change is refused, the data source used only once QuickSight reports it
 * created (DataSource.Status, API reference:
 * https://docs.aws.amazon.com/quicksight/latest/APIReference/API_DataSource.html), a failed one
 * named with its ErrorInfo and created again by the access check's Fix, and the data source and
 * dataset granted to the configured author.
 */

const AUTHOR = 'arn:aws:quicksight:us-east-2:123456789012:group/default/analytics-authors';
const RULES_FILE = 'company-rules/rules.csv';
const ACCESS_DENIED: DataSource = {
  Status: 'CREATION_FAILED',
  ErrorInfo: { Type: 'ACCESS_DENIED', Message: 'Amazon QuickSight could not read the manifest' },
};

let h: Harness;
let handler: Handler;
let adminToken: string;
let qs: FakeQuickSight;

beforeAll(async () => {
  h = await startHarness();
  handler = await loadHandler('quicksight-admin');
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  adminToken = await h.token(ADMIN);
  qs = fakeQuickSight(h, [USER.email, OTHER_USER.email]);
  h.cognito.on(AdminGetUserCommand).resolves({ UserStatus: 'CONFIRMED' });
});
afterEach(() => {
  delete process.env[ENV.companyRulesAuthorArn];
});

const call = (body: unknown) => invoke(handler, { token: adminToken, body });
const create = (name: string) => call({ action: 'CREATE_COMPANY', name, kind: 'manufacturer' });
const companies = async () => (await h.tables.state()).filter((item) => item.pk === 'COMPANY').map((item) => item.name);
/** The QuickSight operations called, in order. */
const operations = () => h.quicksight.calls().map((c) => c.args[0].constructor.name.replace(/Command$/, ''));

describe('the rules file', () => {
  it('is written in the documented form: UserARN,GroupARN,company, one rule per company with UserARN empty', async () => {
    const created = await create('Northwind Manufacturing');
    const id = (created.body.company as { id: string }).id;
    expect(qs.objects.get(RULES_FILE)).toBe(`UserARN,GroupARN,company\n,${groupArnOf(id)},Northwind Manufacturing\n`);
    const dataSet = h.quicksight.commandCalls(CreateDataSetCommand)[0]!.args[0].input;
    expect(dataSet.PhysicalTableMap?.['company-rules']?.S3Source?.InputColumns).toEqual([
      { Name: 'UserARN', Type: 'STRING' },
      { Name: 'GroupARN', Type: 'STRING' },
      { Name: 'company', Type: 'STRING' },
    ]);
  });

  it("stays as it was when QuickSight refuses the load (its daily limit): the refused change's rule is not left in it", async () => {
    expect((await create('Northwind Manufacturing')).status).toBe(200);
    const before = qs.objects.get(RULES_FILE);
    h.quicksight
      .on(CreateIngestionCommand)
      .rejects(new LimitExceededException({ message: 'Rate limit of 32 per 24 hours exceeded', $metadata: {} }));

    const refused = await create('Contoso Distribution');
    expect(refused.status).toBe(429);
    expect(qs.objects.get(RULES_FILE)).toBe(before);
    expect(rulesRows(qs).join('\n')).not.toContain('Contoso');
    expect(await companies()).toEqual(['Northwind Manufacturing']);
  });

  it('holds no rules when the first change, which wrote the first file, is refused', async () => {
    qs.creationStatuses = [{ Status: 'CREATION_IN_PROGRESS' }, ACCESS_DENIED];
    expect((await create('Northwind Manufacturing')).status).toBe(502);
    expect(qs.objects.get(RULES_FILE)).toBe('UserARN,GroupARN,company\n');
    expect(await companies()).toEqual([]);
  });
});

describe('the rules data source', () => {
  it('is used only once QuickSight reports it created: the dataset waits until CREATION_SUCCESSFUL', async () => {
    qs.creationStatuses = [
      { Status: 'CREATION_IN_PROGRESS' },
      { Status: 'CREATION_IN_PROGRESS' },
      { Status: 'CREATION_SUCCESSFUL' },
    ];
    expect((await create('Northwind Manufacturing')).status).toBe(200);
    const calls = operations();
    const created = calls.indexOf('CreateDataSource');
    const dataSet = calls.indexOf('CreateDataSet');
    expect(created).toBeGreaterThanOrEqual(0);
    // Three answers of DescribeDataSource between the source's creation and the dataset's.
    expect(calls.slice(created, dataSet).filter((name) => name === 'DescribeDataSource')).toHaveLength(3);
    expect(qs.changes).toContain(`CreateIngestion ${COMPANY_SETTINGS.dataSetId}`);
  });

  it("refuses the change naming QuickSight's ErrorInfo when the new data source ends CREATION_FAILED, and changes nothing", async () => {
    qs.creationStatuses = [{ Status: 'CREATION_IN_PROGRESS' }, ACCESS_DENIED];
    const res = await create('Northwind Manufacturing');
    expect(res.status).toBe(502);
    expect(res.body.reason).toBe(
      `Data source ${COMPANY_SETTINGS.dataSourceId} is CREATION_FAILED (ACCESS_DENIED: Amazon QuickSight could not read the manifest)`,
    );
    expect(String(res.body.suggestion)).toContain('"Fix"');
    expect(qs.changes.filter((change) => /^Create(DataSet|Ingestion)/.test(change))).toEqual([]);
    expect(qs.groups.size).toBe(0);
  });

  it("names a failed source's ErrorInfo in the check while the rules do not load, and Fix creates it again and loads them", async () => {
    qs.creationStatuses = [{ Status: 'CREATION_IN_PROGRESS' }, ACCESS_DENIED];
    expect((await create('Northwind Manufacturing')).status).toBe(502);
    qs.creationStatuses = [{ Status: 'CREATION_SUCCESSFUL' }];

    const checked = await call({ action: 'CHECK_COMPANY_ACCESS' });
    expect(checked.body.differences).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'rules-not-loaded',
          found: `data source ${COMPANY_SETTINGS.dataSourceId} CREATION_FAILED (ACCESS_DENIED: Amazon QuickSight could not read the manifest)`,
        }),
        expect.objectContaining({ kind: 'rules-not-loaded', found: 'no rules dataset' }),
      ]),
    );

    qs.changes.length = 0;
    const fixed = await call({ action: 'CHECK_COMPANY_ACCESS', fix: true });
    expect((fixed.body.differences as { fixed: boolean }[]).every((difference) => difference.fixed)).toBe(true);
    expect(qs.changes.filter((change) => /Data(Source|Set)|Ingestion/.test(change))).toEqual([
      `DeleteDataSource ${COMPANY_SETTINGS.dataSourceId}`,
      `CreateDataSource ${COMPANY_SETTINGS.dataSourceId}`,
      `CreateDataSet ${COMPANY_SETTINGS.dataSetId}`,
      `CreateIngestion ${COMPANY_SETTINGS.dataSetId}`,
    ]);
    expect((await call({ action: 'CHECK_COMPANY_ACCESS' })).body.differences).toEqual([]);
  });

  it('refuses changes while a source that loaded the rules has failed since; Fix names it and creates it again', async () => {
    expect((await create('Northwind Manufacturing')).status).toBe(200);
    qs.dataSources.set(COMPANY_SETTINGS.dataSourceId, { ...ACCESS_DENIED, Status: 'UPDATE_FAILED' });
    const before = qs.objects.get(RULES_FILE);
    qs.changes.length = 0;

    const refused = await create('Contoso Distribution');
    expect(refused.status).toBe(502);
    expect(refused.body.reason).toContain(
      'UPDATE_FAILED (ACCESS_DENIED: Amazon QuickSight could not read the manifest)',
    );
    expect(qs.objects.get(RULES_FILE)).toBe(before);
    expect(qs.changes.filter((change) => !change.startsWith('PutObject'))).toEqual([
      expect.stringMatching(/^CreateGroup /),
      expect.stringMatching(/^DeleteGroup /),
    ]);

    // The rules QuickSight loaded still apply: a check of loaded rules asks nothing more than the lists.
    h.quicksight.resetHistory();
    expect((await call({ action: 'CHECK_COMPANY_ACCESS' })).body.differences).toEqual([]);
    expect(operations()).not.toContain('DescribeDataSource');

    qs.changes.length = 0;
    const fixed = await call({ action: 'CHECK_COMPANY_ACCESS', fix: true });
    expect(fixed.body.differences).toEqual([
      expect.objectContaining({
        kind: 'rules-not-loaded',
        found: `data source ${COMPANY_SETTINGS.dataSourceId} UPDATE_FAILED (ACCESS_DENIED: Amazon QuickSight could not read the manifest)`,
        fixed: true,
      }),
    ]);
    expect(qs.changes.filter((change) => /DataSource|Ingestion/.test(change))).toEqual([
      `DeleteDataSource ${COMPANY_SETTINGS.dataSourceId}`,
      `CreateDataSource ${COMPANY_SETTINGS.dataSourceId}`,
      `CreateIngestion ${COMPANY_SETTINGS.dataSetId}`,
    ]);
    expect(qs.dataSources.get(COMPANY_SETTINGS.dataSourceId)?.Status).toBe('CREATION_SUCCESSFUL');
    expect((await create('Contoso Distribution')).status).toBe(200);
  });
});

describe('the configured author (quicksightAuthorArn)', () => {
  it('is granted the data source and the dataset as they are created, and nothing more is asked afterwards', async () => {
    process.env[ENV.companyRulesAuthorArn] = AUTHOR;
    expect((await create('Northwind Manufacturing')).status).toBe(200);
    expect(h.quicksight.commandCalls(CreateDataSourceCommand)[0]!.args[0].input.Permissions).toEqual([
      { Principal: AUTHOR, Actions: [...AUTHOR_DATA_SOURCE_ACTIONS] },
    ]);
    expect(h.quicksight.commandCalls(CreateDataSetCommand)[0]!.args[0].input.Permissions).toEqual([
      { Principal: AUTHOR, Actions: [...AUTHOR_DATA_SET_ACTIONS] },
    ]);
    expect((await create('Contoso Distribution')).status).toBe(200);
    expect(h.quicksight.commandCalls(UpdateDataSourcePermissionsCommand)).toEqual([]);
    expect(h.quicksight.commandCalls(UpdateDataSetPermissionsCommand)).toEqual([]);
  });

  it('is granted what it lacks on an existing data source and dataset on the next company change', async () => {
    expect((await create('Northwind Manufacturing')).status).toBe(200);
    expect(h.quicksight.commandCalls(CreateDataSetCommand)[0]!.args[0].input.Permissions).toBeUndefined();
    qs.permissions.set(`dataset/${COMPANY_SETTINGS.dataSetId}`, [
      { Principal: AUTHOR, Actions: ['quicksight:DescribeDataSet'] },
    ]);

    process.env[ENV.companyRulesAuthorArn] = AUTHOR;
    expect((await create('Contoso Distribution')).status).toBe(200);
    expect(h.quicksight.commandCalls(UpdateDataSourcePermissionsCommand)[0]!.args[0].input).toMatchObject({
      DataSourceId: COMPANY_SETTINGS.dataSourceId,
      GrantPermissions: [{ Principal: AUTHOR, Actions: [...AUTHOR_DATA_SOURCE_ACTIONS] }],
    });
    expect(h.quicksight.commandCalls(UpdateDataSetPermissionsCommand)[0]!.args[0].input).toMatchObject({
      DataSetId: COMPANY_SETTINGS.dataSetId,
      GrantPermissions: [
        { Principal: AUTHOR, Actions: AUTHOR_DATA_SET_ACTIONS.filter((a) => a !== 'quicksight:DescribeDataSet') },
      ],
    });

    h.quicksight.resetHistory();
    expect((await create('Fabrikam Industries')).status).toBe(200);
    expect(h.quicksight.commandCalls(UpdateDataSourcePermissionsCommand)).toEqual([]);
    expect(h.quicksight.commandCalls(UpdateDataSetPermissionsCommand)).toEqual([]);
  });
});
