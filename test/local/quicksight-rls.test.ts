import {
  CreateGroupCommand,
  CreateGroupMembershipCommand,
  CreateIngestionCommand,
  DeleteGroupMembershipCommand,
} from '@aws-sdk/client-quicksight';
import { afterEach, describe, expect, it } from 'vitest';
import { lastMonths, totals } from '#emulators/sample-dashboards/data/aggregate.ts';
import { sampleDataset, type Dataset } from '#emulators/sample-dashboards/data/generator.ts';
import {
  NO_DATA_TEXT,
  SAMPLE_COMPANIES,
  SAMPLE_DASHBOARDS,
  type SampleRowLevelSecurity,
} from '#emulators/quicksight/index.ts';
import { currency } from '#emulators/sample-dashboards/render/format.ts';
import {
  ACCOUNT_ID,
  MemoryObjects,
  NAMESPACE,
  RULES_BUCKET,
  RULES_DATA_SET_ID,
  RULES_FILE_KEY,
  RULES_MANIFEST_KEY,
  companiesInView,
  createRulesDataSet,
  createRulesDataSource,
  embeddedPage,
  groupArn,
  manifestFor,
  putRules,
  startTestEmulator,
  userArn,
  type TestEmulator,
} from './quicksight-support.ts';

/**
 * Row-level security as the QuickSight user guide describes it ("Using row-level security with
 * user-based rules to restrict access to a dataset":
 * https://docs.aws.amazon.com/quicksight/latest/user/restrict-access-to-a-data-set-using-row-level-security.html):
 * rules by user or group, an empty column grants every value, no matching rule shows no rows,
 * DENY_ACCESS inverts, field names are case-sensitive; RowLevelPermissionDataSet as in the API
 * Reference (https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RowLevelPermissionDataSet.html):
 * "When FormatVersion is VERSION_2, UserARN and GroupARN are required". The sample datasets apply
 * the rules with VERSION_2.
 */

const [NORTHWIND, CONTOSO, FABRIKAM] = SAMPLE_COMPANIES;
const ALL_COMPANIES = [...SAMPLE_COMPANIES].sort().join(', ');
const GROUPS = {
  northwind: 'portal-northwind',
  contoso: 'portal-contoso',
  fabrikam: 'portal-fabrikam',
  auditors: 'portal-auditors',
};

/** Users and the groups they belong to: one company each, an owner of two, an auditor, and one in no group. */
const USERS: Record<string, string[]> = {
  'nora@northwind.example': [GROUPS.northwind],
  'carl@contoso.example': [GROUPS.contoso],
  'owen@owner.example': [GROUPS.northwind, GROUPS.fabrikam],
  'alex@audit.example': [GROUPS.auditors],
  'lone@nowhere.example': [],
};
const [NORA, CARL, OWEN, ALEX, LONE] = Object.keys(USERS) as [string, string, string, string, string];

/** The portal's rules file: UserARN empty, GroupARN to company, one company per group. */
const COMPANY_RULES = [
  'UserARN,GroupARN,company',
  `,${groupArn(GROUPS.northwind)},${NORTHWIND}`,
  `,${groupArn(GROUPS.contoso)},${CONTOSO}`,
  `,${groupArn(GROUPS.fabrikam)},${FABRIKAM}`,
].join('\n');

let t: TestEmulator;
let objects: MemoryObjects;
afterEach(async () => {
  await t?.close();
});

interface Setup {
  /** null: the emulator applies no row-level security. */
  readonly rowLevelSecurity?: SampleRowLevelSecurity | null;
  /** The rules file; null: none is written (only its manifest). */
  readonly rules?: string | null;
  readonly columns?: readonly string[];
  /** Whether to create the rules dataset (and so load the rules). */
  readonly createRules?: boolean;
}

async function portal({
  rowLevelSecurity = { rulesDataSetId: RULES_DATA_SET_ID },
  rules = COMPANY_RULES,
  columns,
  createRules = true,
}: Setup = {}) {
  objects = new MemoryObjects();
  t = await startTestEmulator(undefined, { objects, rowLevelSecurity: rowLevelSecurity ?? undefined });
  const scope = { AwsAccountId: ACCOUNT_ID, Namespace: NAMESPACE };
  for (const GroupName of Object.values(GROUPS)) await t.client.send(new CreateGroupCommand({ ...scope, GroupName }));
  for (const [user, groups] of Object.entries(USERS)) {
    await t.register(user);
    for (const GroupName of groups)
      await t.client.send(new CreateGroupMembershipCommand({ ...scope, GroupName, MemberName: user }));
    for (const dashboard of SAMPLE_DASHBOARDS) await t.grantViewer(dashboard.dashboardId, user);
  }
  // Without rules the manifest is still there: the data source is created, the first ingestion fails.
  if (rules === null) objects.put(RULES_BUCKET, RULES_MANIFEST_KEY, manifestFor(RULES_BUCKET, RULES_FILE_KEY));
  else putRules(objects, rules);
  await createRulesDataSource(t);
  if (createRules) await createRulesDataSet(t, columns);
}

const view = (user: string, dashboardId = 'sales-performance') => embeddedPage(t, user, dashboardId);

/** The sample data of some companies only, as a dashboard draws it for them. */
function dataOf(companies: readonly string[]): Dataset {
  const all = sampleDataset();
  const facts = all.facts.filter((f) => companies.includes(f.company));
  const ids = new Set(facts.map((f) => f.distributorId));
  return { ...all, facts, distributors: all.distributors.filter((d) => ids.has(d.id)) };
}

const distributorsOf = (company: string) =>
  sampleDataset()
    .distributors.filter((d) => d.company === company)
    .map((d) => d.name);

describe('row-level security on the embedded sample dashboards', () => {
  it('draws only the rows of the companies whose group rules name the user, and aggregates only them', async () => {
    await portal();
    const page = await view(NORA);
    expect(companiesInView(page)).toBe(NORTHWIND);
    expect(page).not.toContain(NO_DATA_TEXT);
    // The revenue KPI (12 months by default) sums Northwind's rows only.
    const revenue = totals(lastMonths(dataOf([NORTHWIND]), 12).facts).revenue;
    expect(revenue).toBeLessThan(totals(lastMonths(sampleDataset(), 12).facts).revenue);
    expect(page).toContain(`<p class="kpi-label">Revenue</p><p class="kpi-value">${currency(revenue)}</p>`);
    for (const name of distributorsOf(NORTHWIND)) expect(page).toContain(name);
    for (const name of [...distributorsOf(CONTOSO), ...distributorsOf(FABRIKAM)]) expect(page).not.toContain(name);

    expect(companiesInView(await view(CARL, 'distributor-scorecard'))).toBe(CONTOSO);
  });

  it('shows an owner the companies of every group they belong to, sorted', async () => {
    await portal();
    for (const dashboard of ['sales-performance', 'distributor-scorecard', 'inventory-margins']) {
      expect(companiesInView(await view(OWEN, dashboard))).toBe([FABRIKAM, NORTHWIND].sort().join(', '));
    }
  });

  it('shows a user no rule names no rows, saying so', async () => {
    await portal();
    const page = await view(LONE);
    expect(page).toContain(NO_DATA_TEXT);
    expect(companiesInView(page)).toBe('');
    expect(page).not.toContain('<svg class="chart"');
  });

  it('grants every row to a rule whose other columns are empty', async () => {
    await portal({ rules: `${COMPANY_RULES}\n,${groupArn(GROUPS.auditors)},\n` });
    expect(companiesInView(await view(ALEX))).toBe(ALL_COMPANIES);
    expect(companiesInView(await view(NORA))).toBe(NORTHWIND);
  });

  it('matches rules on UserARN too, and reads a comma-separated field as several values', async () => {
    await portal({
      rules: ['UserARN,GroupARN,company', `${userArn(NORA)},,"${NORTHWIND},${FABRIKAM}"`].join('\n'),
    });
    expect(companiesInView(await view(NORA))).toBe([FABRIKAM, NORTHWIND].sort().join(', '));
    // No rule names Carl's group: he sees nothing.
    expect(await view(CARL)).toContain(NO_DATA_TEXT);
  });

  it.each([
    ['GroupArn (not GroupARN)', ['UserARN', 'GroupArn', 'company']],
    ['grouparn and userarn in lower case', ['userarn', 'grouparn', 'company']],
    ['no UserARN column', ['GroupARN', 'company']],
    ['VERSION_1 names (UserName, GroupName) under VERSION_2', ['UserName', 'GroupName', 'company']],
  ])('draws no rows from VERSION_2 rules whose identity columns are spelt otherwise: %s', async (_case, columns) => {
    const identity = (name: string) => (/group/i.test(name) ? groupArn(GROUPS.northwind) : '');
    await portal({
      columns,
      rules: [
        columns.join(','),
        columns.map((name) => (name === 'company' ? NORTHWIND : identity(name))).join(','),
      ].join('\n'),
    });
    const page = await view(NORA);
    expect(page).toContain(NO_DATA_TEXT);
    expect(companiesInView(page)).toBe('');
  });

  it('shows no rows while the rules dataset has never loaded, and the rules once an ingestion loads them', async () => {
    await portal({ rules: null });
    expect(await view(NORA)).toContain(NO_DATA_TEXT);
    putRules(objects, COMPANY_RULES);
    await t.client.send(
      new CreateIngestionCommand({ AwsAccountId: ACCOUNT_ID, DataSetId: RULES_DATA_SET_ID, IngestionId: 'rules-1' }),
    );
    expect(companiesInView(await view(NORA))).toBe(NORTHWIND);
  });

  it('shows no rows when the rules dataset does not exist', async () => {
    await portal({ createRules: false });
    expect(await view(NORA)).toContain(NO_DATA_TEXT);
    expect(await view(ALEX)).toContain(NO_DATA_TEXT);
  });

  it('keeps applying the rules loaded before when a refresh fails', async () => {
    await portal();
    objects.delete(RULES_BUCKET, RULES_FILE_KEY);
    await t.client.send(
      new CreateIngestionCommand({ AwsAccountId: ACCOUNT_ID, DataSetId: RULES_DATA_SET_ID, IngestionId: 'broken' }),
    );
    expect(companiesInView(await view(NORA))).toBe(NORTHWIND);
  });

  it('follows group membership at each load', async () => {
    await portal();
    expect(companiesInView(await view(NORA))).toBe(NORTHWIND);
    await t.client.send(
      new DeleteGroupMembershipCommand({
        AwsAccountId: ACCOUNT_ID,
        Namespace: NAMESPACE,
        GroupName: GROUPS.northwind,
        MemberName: NORA,
      }),
    );
    expect(await view(NORA)).toContain(NO_DATA_TEXT);
    await t.client.send(
      new CreateGroupMembershipCommand({
        AwsAccountId: ACCOUNT_ID,
        Namespace: NAMESPACE,
        GroupName: GROUPS.contoso,
        MemberName: NORA,
      }),
    );
    expect(companiesInView(await view(NORA))).toBe(CONTOSO);
  });

  it('restricts nothing when the rules are DISABLED', async () => {
    await portal({ rowLevelSecurity: { rulesDataSetId: RULES_DATA_SET_ID, status: 'DISABLED' } });
    expect(companiesInView(await view(LONE))).toBe(ALL_COMPANIES);
    expect(companiesInView(await view(NORA))).toBe(ALL_COMPANIES);
  });

  it('shows the rows no rule of the user matches with DENY_ACCESS', async () => {
    await portal({ rowLevelSecurity: { rulesDataSetId: RULES_DATA_SET_ID, permissionPolicy: 'DENY_ACCESS' } });
    expect(companiesInView(await view(NORA))).toBe([CONTOSO, FABRIKAM].sort().join(', '));
    expect(companiesInView(await view(LONE))).toBe(ALL_COMPANIES);
  });

  it('shows everyone every company on the benchmarks, whose dataset applies no rules', async () => {
    await portal();
    for (const user of [LONE, NORA]) {
      const page = await view(user, 'market-benchmarks');
      expect(companiesInView(page)).toBe(ALL_COMPANIES);
      expect(page).not.toContain(NO_DATA_TEXT);
      expect(page).toContain('<h1>Market Benchmarks</h1>');
    }
  });

  it('shows every company when the emulator applies no row-level security', async () => {
    await portal({ rowLevelSecurity: null });
    for (const dashboard of SAMPLE_DASHBOARDS)
      expect(companiesInView(await view(LONE, dashboard.dashboardId))).toBe(ALL_COMPANIES);
  });

  it('applies the loaded rules after a restart', async () => {
    await portal();
    t = await t.restart();
    expect(companiesInView(await view(NORA))).toBe(NORTHWIND);
    expect(await view(LONE)).toContain(NO_DATA_TEXT);
  });
});
