import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  CreateDataSetCommand,
  DescribeDataSetCommand,
  ListDataSetsCommand,
  ListIngestionsCommand,
  UpdateDataSetCommand,
  type CreateDataSetCommandInput,
  type RowLevelPermissionTagConfiguration,
} from '@aws-sdk/client-quicksight';
import { afterEach, describe, expect, it } from 'vitest';
import {
  SAMPLE_COMPANIES,
  startQuickSightEmulator,
  type QuickSightEmulatorOptions,
} from '#emulators/quicksight/index.ts';
import { SNAPSHOT_FILE } from '#emulators/quicksight/persistence.ts';
import { tagRowPredicate, type SessionTag } from '#emulators/quicksight/rls-tags.ts';
import {
  ACCOUNT_ID,
  MemoryObjects,
  REGION,
  RULES_DATA_SOURCE_ID,
  clientFor,
  createRulesDataSource,
  dataSourceArn,
  putRules,
  sdkError,
  startTestEmulator,
  type TestEmulator,
} from './quicksight-support.ts';

/**
 * Tag-based row-level security on datasets, as the API reference's RowLevelPermissionTagConfiguration
 * and RowLevelPermissionTagRule pages give it
 * (https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RowLevelPermissionTagConfiguration.html,
 * API_RowLevelPermissionTagRule.html) and the user guide describes it ("Using row-level security with
 * tag-based rules", https://docs.aws.amazon.com/quicksight/latest/user/quicksight-dev-rls-tags.html):
 * CreateDataSet and UpdateDataSet take it, DescribeDataSet gives it back, and it chooses the rows an
 * anonymous user's session tags let through.
 */

const [NORTHWIND, CONTOSO, FABRIKAM] = SAMPLE_COMPANIES;
const DATA_SET_ID = 'orders';
const account = { AwsAccountId: ACCOUNT_ID };
const COMPANY_RULE = { TagKey: 'company', ColumnName: 'company', TagMultiValueDelimiter: ',', MatchAllValue: '*' };

let t: TestEmulator | undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An emulator with an S3 data source whose file has the columns company, region and amount. */
async function withDataSource(): Promise<TestEmulator> {
  const objects = new MemoryObjects();
  t = await startTestEmulator(undefined, { objects, dataSourceCreationMs: 0 });
  putRules(objects, `company,region,amount\n${NORTHWIND},West,10\n${CONTOSO},East,20\n`);
  await createRulesDataSource(t);
  return t;
}

function dataSetInput(overrides: Partial<CreateDataSetCommandInput> = {}): CreateDataSetCommandInput {
  return {
    ...account,
    DataSetId: DATA_SET_ID,
    Name: 'Orders',
    ImportMode: 'SPICE',
    PhysicalTableMap: {
      orders: {
        S3Source: {
          DataSourceArn: dataSourceArn(RULES_DATA_SOURCE_ID),
          UploadSettings: { Format: 'CSV', ContainsHeader: true },
          InputColumns: ['company', 'region', 'amount'].map((Name) => ({ Name, Type: 'STRING' as const })),
        },
      },
    },
    ...overrides,
  };
}

const describeDataSet = async (qs: TestEmulator, DataSetId = DATA_SET_ID) =>
  (await qs.client.send(new DescribeDataSetCommand({ ...account, DataSetId }))).DataSet;

const withTags = (configuration: unknown) =>
  dataSetInput({ RowLevelPermissionTagConfiguration: configuration as RowLevelPermissionTagConfiguration });

const rules = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ TagKey: `tag-${i}`, ColumnName: i === 0 ? 'company' : 'region' }));

describe('RowLevelPermissionTagConfiguration on CreateDataSet and UpdateDataSet', () => {
  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_CreateDataSet.html, API_DescribeDataSet.html and
  // API_ListDataSets.html (RowLevelPermissionTagConfigurationApplied). Status ENABLED when left out is the emulator's
  // own choice (nearest page:
  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RowLevelPermissionTagConfiguration.html, which names
  // no default).
  it('stores the tag rules, describes them (Status ENABLED when left out) and lists the dataset as applying them', async () => {
    const qs = await withDataSource();
    await qs.client.send(new CreateDataSetCommand(withTags({ TagRules: [COMPANY_RULE] })));
    expect((await describeDataSet(qs))?.RowLevelPermissionTagConfiguration).toEqual({
      Status: 'ENABLED',
      TagRules: [COMPANY_RULE],
    });
    const listed = await qs.client.send(new ListDataSetsCommand(account));
    const summary = listed.DataSetSummaries?.find((s) => s.DataSetId === DATA_SET_ID);
    expect(summary?.RowLevelPermissionTagConfigurationApplied).toBe(true);
    expect(listed.DataSetSummaries?.find((s) => s.DataSetId === 'distributor-monthly-facts')).toMatchObject({
      RowLevelPermissionTagConfigurationApplied: false,
    });
  });

  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RowLevelPermissionTagConfiguration.html (Status,
  // TagRuleConfigurations).
  it('keeps TagRuleConfigurations and a DISABLED status, which is not applied', async () => {
    const qs = await withDataSource();
    const configuration = {
      Status: 'DISABLED',
      TagRules: [COMPANY_RULE, { TagKey: 'region', ColumnName: 'region' }],
      TagRuleConfigurations: [['company', 'region'], ['company']],
    };
    await qs.client.send(new CreateDataSetCommand(withTags(configuration)));
    expect((await describeDataSet(qs))?.RowLevelPermissionTagConfiguration).toEqual(configuration);
    const listed = await qs.client.send(new ListDataSetsCommand(account));
    expect(listed.DataSetSummaries?.find((s) => s.DataSetId === DATA_SET_ID)).toMatchObject({
      RowLevelPermissionTagConfigurationApplied: false,
    });
  });

  // The constraints of
  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RowLevelPermissionTagConfiguration.html and
  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RowLevelPermissionTagRule.html.
  it.each<[string, unknown, string]>([
    ['no TagRules', {}, 'TagRules: is required'],
    ['an empty TagRules', { TagRules: [] }, 'TagRules: Too small'],
    ['51 rules', { TagRules: rules(51) }, 'TagRules: Too big'],
    ['an empty TagKey', { TagRules: [{ TagKey: '', ColumnName: 'company' }] }, 'TagKey: Too small'],
    [
      'a TagKey of 129 characters',
      { TagRules: [{ TagKey: 'k'.repeat(129), ColumnName: 'company' }] },
      'TagKey: Too big',
    ],
    ['no ColumnName', { TagRules: [{ TagKey: 'company' }] }, 'ColumnName: is required'],
    [
      'a column the dataset does not have',
      { TagRules: [{ TagKey: 'company', ColumnName: 'customer' }] },
      'customer is not a column',
    ],
    [
      'a column named in another case',
      { TagRules: [{ TagKey: 'company', ColumnName: 'Company' }] },
      'Company is not a column',
    ],
    [
      'a delimiter of 11 characters',
      { TagRules: [{ ...COMPANY_RULE, TagMultiValueDelimiter: ';'.repeat(11) }] },
      'TagMultiValueDelimiter: Too big',
    ],
    // Refusing an empty delimiter is the emulator's own choice (nearest page:
    // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RowLevelPermissionTagRule.html, which gives
    // TagMultiValueDelimiter a maximum length only).
    [
      'an empty delimiter',
      { TagRules: [{ ...COMPANY_RULE, TagMultiValueDelimiter: '' }] },
      'TagMultiValueDelimiter must not be empty',
    ],
    ['an empty MatchAllValue', { TagRules: [{ ...COMPANY_RULE, MatchAllValue: '' }] }, 'MatchAllValue: Too small'],
    [
      'a MatchAllValue of 257 characters',
      { TagRules: [{ ...COMPANY_RULE, MatchAllValue: '*'.repeat(257) }] },
      'MatchAllValue: Too big',
    ],
    ['a Status in lower case', { Status: 'enabled', TagRules: [COMPANY_RULE] }, 'Status: must be ENABLED or DISABLED'],
    // TagKey "The unique key for a tag"
    // (https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RowLevelPermissionTagRule.html).
    [
      'the same TagKey twice',
      { TagRules: [COMPANY_RULE, { TagKey: 'company', ColumnName: 'region' }] },
      'company is used by another rule',
    ],
    // One rule per column is the emulator's own choice (nearest page:
    // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RowLevelPermissionTagRule.html).
    [
      'two rules on one column',
      { TagRules: [COMPANY_RULE, { TagKey: 'customer', ColumnName: 'company' }] },
      'company already has a tag rule',
    ],
    [
      'an empty TagRuleConfigurations',
      { TagRules: [COMPANY_RULE], TagRuleConfigurations: [] },
      'TagRuleConfigurations: Too small',
    ],
    [
      'an empty key list',
      { TagRules: [COMPANY_RULE], TagRuleConfigurations: [[]] },
      'TagRuleConfigurations.0: Too small',
    ],
    // Refusing a key list that names no rule's TagKey is the emulator's own choice (nearest page:
    // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RowLevelPermissionTagConfiguration.html).
    [
      'a key list naming no rule',
      { TagRules: [COMPANY_RULE], TagRuleConfigurations: [['Company']] },
      'names Company, which is the TagKey of no rule',
    ],
  ])('refuses %s with InvalidParameterValueException and stores nothing', async (_case, configuration, saying) => {
    const qs = await withDataSource();
    const refused = await sdkError(qs.client.send(new CreateDataSetCommand(withTags(configuration))));
    expect(refused).toMatchObject({ name: 'InvalidParameterValueException', status: 400 });
    expect(refused.message).toContain(saying);
    expect(await sdkError(describeDataSet(qs))).toMatchObject({ name: 'ResourceNotFoundException' });
  });

  // Refusing tag rules on a dataset used as RLS_RULES is the emulator's own choice (nearest page:
  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_CreateDataSet.html, UseAs).
  it('refuses tag rules on a dataset used as RLS_RULES', async () => {
    const qs = await withDataSource();
    const input = { ...withTags({ TagRules: [COMPANY_RULE] }), UseAs: 'RLS_RULES' as const };
    expect(await sdkError(qs.client.send(new CreateDataSetCommand(input)))).toMatchObject({
      name: 'InvalidParameterValueException',
    });
  });

  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_UpdateDataSet.html ("Partial updates are not
  // supported") and API_ListIngestions.html.
  it('adds, replaces and removes tag rules with UpdateDataSet, which loads the dataset again', async () => {
    const qs = await withDataSource();
    await qs.client.send(new CreateDataSetCommand(dataSetInput()));
    const { DataSetId: _id, ...definition } = dataSetInput();
    const updated = await qs.client.send(
      new UpdateDataSetCommand({
        ...definition,
        DataSetId: DATA_SET_ID,
        RowLevelPermissionTagConfiguration: { TagRules: [COMPANY_RULE] },
      }),
    );
    expect(updated).toMatchObject({ Status: 200, DataSetId: DATA_SET_ID, IngestionId: expect.any(String) });
    expect((await describeDataSet(qs))?.RowLevelPermissionTagConfiguration?.TagRules).toEqual([COMPANY_RULE]);
    const ingestions = await qs.client.send(new ListIngestionsCommand({ ...account, DataSetId: DATA_SET_ID }));
    expect(ingestions.Ingestions?.[0]).toMatchObject({ IngestionId: updated.IngestionId, RequestType: 'EDIT' });

    // A bad update changes nothing.
    const bad = { TagRules: [{ TagKey: 'company', ColumnName: 'COMPANY' }] };
    expect(
      await sdkError(
        qs.client.send(
          new UpdateDataSetCommand({
            ...definition,
            DataSetId: DATA_SET_ID,
            RowLevelPermissionTagConfiguration: bad as RowLevelPermissionTagConfiguration,
          }),
        ),
      ),
    ).toMatchObject({ name: 'InvalidParameterValueException' });
    expect((await describeDataSet(qs))?.RowLevelPermissionTagConfiguration?.TagRules).toEqual([COMPANY_RULE]);

    // "Partial updates are not supported": an update without the member removes the rules.
    await qs.client.send(new UpdateDataSetCommand({ ...definition, DataSetId: DATA_SET_ID }));
    expect((await describeDataSet(qs))?.RowLevelPermissionTagConfiguration).toBeUndefined();
  });

  // ResourceNotFoundException: https://docs.aws.amazon.com/quicksight/latest/APIReference/API_UpdateDataSet.html.
  // Refusing updates of the sample datasets is the emulator's own choice.
  it('refuses UpdateDataSet of a dataset that does not exist, and of a sample dataset', async () => {
    const qs = await withDataSource();
    const { DataSetId: _id, ...definition } = dataSetInput();
    expect(
      await sdkError(qs.client.send(new UpdateDataSetCommand({ ...definition, DataSetId: 'missing' }))),
    ).toMatchObject({
      name: 'ResourceNotFoundException',
    });
    expect(
      await sdkError(
        qs.client.send(new UpdateDataSetCommand({ ...definition, DataSetId: 'distributor-monthly-facts' })),
      ),
    ).toMatchObject({ name: 'InvalidParameterValueException' });
  });

  // The emulator's own persistence: no AWS page documents it.
  it('keeps the tag rules across a restart', async () => {
    const qs = await withDataSource();
    await qs.client.send(new CreateDataSetCommand(withTags({ TagRules: [COMPANY_RULE] })));
    t = await qs.restart();
    expect((await describeDataSet(t))?.RowLevelPermissionTagConfiguration?.TagRules).toEqual([COMPANY_RULE]);
  });

  // The emulator's own persistence: no AWS page documents it.
  it('loads a state snapshot written before tag rules and snapshot jobs existed', async () => {
    const qs = await withDataSource();
    await qs.client.send(new CreateDataSetCommand(dataSetInput()));
    await qs.stop();
    const file = path.join(qs.dataDir, SNAPSHOT_FILE);
    const snapshot = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    delete snapshot.snapshotJobs;
    const dataSets = snapshot.dataSets as Record<string, unknown>[];
    expect(dataSets[0]).not.toHaveProperty('rowLevelPermissionTagConfiguration');
    await writeFile(file, JSON.stringify(snapshot));
    t = await qs.restart();
    expect(await describeDataSet(t)).toMatchObject({ DataSetId: DATA_SET_ID, Name: 'Orders' });
  });
});

describe('the sample datasets tag rules (the emulator option)', () => {
  async function start(option: unknown) {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'quicksight-tags-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const emulator = await startQuickSightEmulator({
      dataDir,
      accountId: ACCOUNT_ID,
      region: REGION,
      rowLevelPermissionTagConfiguration: option as QuickSightEmulatorOptions['rowLevelPermissionTagConfiguration'],
    });
    cleanups.push(() => emulator.close());
    const client = clientFor(emulator.url);
    cleanups.push(async () => client.destroy());
    return client;
  }

  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_DescribeDataSet.html
  // (RowLevelPermissionTagConfiguration).
  it('are described on the company-scoped sample dataset only', async () => {
    const client = await start({ TagRules: [COMPANY_RULE] });
    const facts = await client.send(new DescribeDataSetCommand({ ...account, DataSetId: 'distributor-monthly-facts' }));
    expect(facts.DataSet?.RowLevelPermissionTagConfiguration).toEqual({ Status: 'ENABLED', TagRules: [COMPANY_RULE] });
    const benchmarks = await client.send(new DescribeDataSetCommand({ ...account, DataSetId: 'industry-benchmarks' }));
    expect(benchmarks.DataSet?.RowLevelPermissionTagConfiguration).toBeUndefined();
  });

  // A column that is not the dataset's
  // (https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RowLevelPermissionTagRule.html, ColumnName). Tag
  // rules on STRING columns only is the emulator's own choice (nearest page:
  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RowLevelPermissionTagRule.html, which names no
  // column type).
  it.each([
    ['a column in another case', { TagRules: [{ TagKey: 'company', ColumnName: 'Company' }] }],
    ['a number column', { TagRules: [{ TagKey: 'revenue', ColumnName: 'revenue' }] }],
    ['no rules', { TagRules: [] }],
  ])('refuse to start with %s', async (_case, option) => {
    await expect(start(option)).rejects.toThrow(/rowLevelPermissionTagConfiguration is not valid/);
  });
});

describe('rows an anonymous user sees through tag rules', () => {
  const rows = [
    { company: NORTHWIND, region: 'West' },
    { company: CONTOSO, region: 'East' },
    { company: FABRIKAM, region: 'West' },
    { company: null, region: 'East' },
  ];
  const visible = (configuration: Parameters<typeof tagRowPredicate>[0], tags: SessionTag[]) => {
    const predicate = tagRowPredicate(configuration, tags);
    if (!predicate) return undefined;
    return rows.filter((row) => predicate((column) => row[column as keyof typeof row])).map((r) => r.company);
  };
  const enabled = (
    ...tagRules: { TagKey: string; ColumnName: string; TagMultiValueDelimiter?: string; MatchAllValue?: string }[]
  ) => ({
    Status: 'ENABLED' as const,
    TagRules: tagRules,
  });

  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RowLevelPermissionTagRule.html and the user guide,
  // https://docs.aws.amazon.com/quicksight/latest/user/quicksight-dev-rls-tags.html; comparing exactly is the
  // emulator's own choice.
  it('match the tag value exactly, case- and space-sensitively', () => {
    const config = enabled(COMPANY_RULE);
    expect(visible(config, [{ Key: 'company', Value: NORTHWIND }])).toEqual([NORTHWIND]);
    expect(visible(config, [{ Key: 'company', Value: NORTHWIND.toLowerCase() }])).toEqual([]);
    expect(visible(config, [{ Key: 'company', Value: ` ${NORTHWIND}` }])).toEqual([]);
    expect(visible(config, [{ Key: 'Company', Value: NORTHWIND }])).toEqual([]);
  });

  // TagMultiValueDelimiter:
  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RowLevelPermissionTagRule.html; never trimming the
  // parts is the emulator's own choice.
  it('split a value on the delimiter only where the rule has one, and never trim the parts', () => {
    expect(visible(enabled(COMPANY_RULE), [{ Key: 'company', Value: `${NORTHWIND},${CONTOSO}` }])).toEqual([
      NORTHWIND,
      CONTOSO,
    ]);
    expect(visible(enabled(COMPANY_RULE), [{ Key: 'company', Value: `${NORTHWIND}, ${CONTOSO}` }])).toEqual([
      NORTHWIND,
    ]);
    const noDelimiter = enabled({ TagKey: 'company', ColumnName: 'company' });
    expect(visible(noDelimiter, [{ Key: 'company', Value: `${NORTHWIND},${CONTOSO}` }])).toEqual([]);
  });

  // MatchAllValue: https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RowLevelPermissionTagRule.html.
  it('show every row, NULL included, for the whole MatchAllValue only', () => {
    expect(visible(enabled(COMPANY_RULE), [{ Key: 'company', Value: '*' }])).toEqual([
      NORTHWIND,
      CONTOSO,
      FABRIKAM,
      null,
    ]);
    expect(visible(enabled(COMPANY_RULE), [{ Key: 'company', Value: `*,${NORTHWIND}` }])).toEqual([NORTHWIND]);
  });

  // "Values to tags must be passed when embedding dashboards" and the rules' AND:
  // https://docs.aws.amazon.com/quicksight/latest/user/quicksight-dev-rls-tags.html.
  it('show no row when a tag is not passed, and join the rules with AND', () => {
    const both = enabled(COMPANY_RULE, { TagKey: 'region', ColumnName: 'region' });
    expect(visible(both, [{ Key: 'company', Value: '*' }])).toEqual([]);
    expect(visible(both, [])).toEqual([]);
    expect(
      visible(both, [
        { Key: 'company', Value: '*' },
        { Key: 'region', Value: 'West' },
      ]),
    ).toEqual([NORTHWIND, FABRIKAM]);
  });

  // TagRuleConfigurations:
  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RowLevelPermissionTagConfiguration.html ("All tag
  // configurations have the OR condition").
  it('join TagRuleConfigurations with OR, each applying only when all its tags are passed', () => {
    const configuration = {
      ...enabled(COMPANY_RULE, { TagKey: 'region', ColumnName: 'region' }),
      TagRuleConfigurations: [['company', 'region'], ['region']],
    };
    expect(visible(configuration, [{ Key: 'region', Value: 'East' }])).toEqual([CONTOSO, null]);
    expect(
      visible(configuration, [
        { Key: 'company', Value: FABRIKAM },
        { Key: 'region', Value: 'West' },
      ]),
    ).toEqual([NORTHWIND, FABRIKAM]);
    expect(
      visible({ ...configuration, TagRuleConfigurations: [['company', 'region']] }, [{ Key: 'company', Value: '*' }]),
    ).toEqual([]);
  });

  // Status DISABLED:
  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RowLevelPermissionTagConfiguration.html.
  it('apply nothing when the configuration is DISABLED or absent', () => {
    expect(visible({ ...enabled(COMPANY_RULE), Status: 'DISABLED' }, [])).toBeUndefined();
    expect(visible(undefined, [{ Key: 'company', Value: NORTHWIND }])).toBeUndefined();
  });
});
