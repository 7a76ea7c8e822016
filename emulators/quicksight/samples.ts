import {
  SAMPLE_DASHBOARDS_PUBLISHED_AT,
  findSampleDataSet,
  type SampleDashboard,
  type SampleDataSet,
} from '#emulators/sample-dashboards/catalog.ts';
import { dataSetArn, groupArn, resourceIdOf, userArn, type AccountScope } from './arns.ts';
import { sampleDataset, type Measure, type MonthlyFact } from '#emulators/sample-dashboards/data/generator.ts';
import type { RowLevelPermissionDataSet, RowLevelPermissionTagConfiguration } from './data-shapes.ts';
import { rowPredicate, type RowPredicate, type RowValue } from './rls.ts';
import { tagRowPredicate, type SessionTag } from './rls-tags.ts';
import type { QuickSightState } from './state.ts';

/**
 * The sample datasets as QuickSight describes them and as the embed pages read them: their
 * columns, the row-level security the emulator's `rowLevelSecurity` option gives the
 * company-scoped ones, and the rows a signed-in user, or an anonymous user with session tags, may see.
 */

export interface SampleRowLevelSecurity {
  /** The rules dataset the company-scoped sample datasets apply (`dataset/<id>` of this account). */
  readonly rulesDataSetId: string;
  /** @default 'GRANT_ACCESS' */
  readonly permissionPolicy?: 'GRANT_ACCESS' | 'DENY_ACCESS';
  /** @default 'ENABLED' */
  readonly status?: 'ENABLED' | 'DISABLED';
}

const PUBLISHED_AT_SECONDS = SAMPLE_DASHBOARDS_PUBLISHED_AT / 1000;

/** Text columns of the monthly facts, as row-level security rules name them. */
const TEXT_COLUMNS: Record<string, (fact: MonthlyFact) => string> = {
  month: (f) => f.month,
  company: (f) => f.company,
  distributor_id: (f) => f.distributorId,
  region: (f) => f.region,
  product_line: (f) => f.productLineId,
};

/** Number columns: their type and the measure each holds. */
const NUMBER_COLUMNS: Record<string, { type: 'INTEGER' | 'DECIMAL'; measure: Measure }> = {
  revenue: { type: 'DECIMAL', measure: 'revenue' },
  planned_revenue: { type: 'DECIMAL', measure: 'plannedRevenue' },
  units: { type: 'INTEGER', measure: 'units' },
  cogs: { type: 'DECIMAL', measure: 'cogs' },
  lines_ordered: { type: 'INTEGER', measure: 'linesOrdered' },
  lines_filled: { type: 'INTEGER', measure: 'linesFilled' },
  shipments: { type: 'INTEGER', measure: 'shipments' },
  on_time_shipments: { type: 'INTEGER', measure: 'onTimeShipments' },
  inventory_value: { type: 'DECIMAL', measure: 'inventoryValue' },
  stock_outs: { type: 'INTEGER', measure: 'stockOuts' },
};

/** The sample datasets' columns (DescribeDataSet's OutputColumns), text columns first. */
export const SAMPLE_OUTPUT_COLUMNS = [
  ...Object.keys(TEXT_COLUMNS).map((Name) => ({ Name, Type: 'STRING' })),
  ...Object.entries(NUMBER_COLUMNS).map(([Name, { type }]) => ({ Name, Type: type })),
];

/** A fact as a row of the sample datasets, in SAMPLE_OUTPUT_COLUMNS' order. */
export const sampleRow = (fact: MonthlyFact): string[] => [
  ...Object.values(TEXT_COLUMNS).map((value) => value(fact)),
  ...Object.values(NUMBER_COLUMNS).map(({ measure }) => String(fact[measure])),
];

function sampleRowLevelPermission(
  scope: AccountScope,
  option: SampleRowLevelSecurity | undefined,
  dataSet: SampleDataSet,
): RowLevelPermissionDataSet | undefined {
  if (!option || !dataSet.companyScoped) return undefined;
  return {
    Arn: dataSetArn(scope, option.rulesDataSetId),
    PermissionPolicy: option.permissionPolicy ?? 'GRANT_ACCESS',
    FormatVersion: 'VERSION_2',
    Status: option.status ?? 'ENABLED',
  };
}

/** A sample dataset's tag rules: the `rowLevelPermissionTagConfiguration` option's, for the company-scoped ones. */
const sampleTagRules = (tagRules: RowLevelPermissionTagConfiguration | undefined, dataSet: SampleDataSet) =>
  dataSet.companyScoped ? tagRules : undefined;

/** DescribeDataSet's DataSet for a sample dataset. */
export function sampleDataSetView(
  scope: AccountScope,
  option: SampleRowLevelSecurity | undefined,
  dataSet: SampleDataSet,
  tagRules?: RowLevelPermissionTagConfiguration,
) {
  const rowLevelPermission = sampleRowLevelPermission(scope, option, dataSet);
  const tagConfiguration = sampleTagRules(tagRules, dataSet);
  return {
    Arn: dataSetArn(scope, dataSet.dataSetId),
    DataSetId: dataSet.dataSetId,
    Name: dataSet.name,
    CreatedTime: PUBLISHED_AT_SECONDS,
    LastUpdatedTime: PUBLISHED_AT_SECONDS,
    ImportMode: 'SPICE',
    OutputColumns: SAMPLE_OUTPUT_COLUMNS,
    ...(rowLevelPermission && { RowLevelPermissionDataSet: rowLevelPermission }),
    ...(tagConfiguration && { RowLevelPermissionTagConfiguration: tagConfiguration }),
  };
}

const factValue =
  (fact: MonthlyFact): RowValue =>
  (column) =>
    TEXT_COLUMNS[column]?.(fact);

export interface SampleViewContext {
  readonly scope: AccountScope;
  readonly state: QuickSightState;
  readonly rowLevelSecurity?: SampleRowLevelSecurity;
  readonly rowLevelPermissionTagConfiguration?: RowLevelPermissionTagConfiguration;
}

/** The facts a user sees on a sample dashboard: those every dataset behind it lets them see. */
export function visibleFacts(
  context: SampleViewContext,
  dashboard: SampleDashboard,
  namespace: string,
  userName: string,
): MonthlyFact[] {
  const { scope, state } = context;
  const groups = state.groups.groupsOfUser(namespace, userName);
  const viewer = {
    userName,
    userArn: userArn(scope, namespace, userName),
    groupNames: groups.map((g) => g.groupName),
    groupArns: groups.map((g) => groupArn(scope, namespace, g.groupName)),
  };
  const predicates = dashboard.dataSetIds.flatMap((id) => {
    const dataSet = findSampleDataSet(id);
    if (!dataSet) return [];
    const permission = sampleRowLevelPermission(scope, context.rowLevelSecurity, dataSet);
    const rulesId = permission ? resourceIdOf(scope, 'dataset', permission.Arn) : undefined;
    const rules = rulesId !== undefined && state.data.dataSet(rulesId) ? state.data.spiceTable(rulesId) : undefined;
    return [rowPredicate(permission, rules, viewer)];
  });
  return sampleDataset().facts.filter((fact) => predicates.every((visible) => visible(factValue(fact))));
}

/**
 * The facts an anonymous user with session `tags` sees on a sample dashboard: those the tag rules
 * of every dataset behind it let through (an anonymous user is named by no user-based rule: tag
 * rules are the ones for "users not provisioned (unregistered users)", as the user guide's "Using
 * row-level security" page puts it). A dataset without ENABLED tag rules is refused, not shown
 * whole: "Make sure that the relevant datasets have RLS tags configured before you start a
 * snapshot export job" (SnapshotAnonymousUser.RowLevelPermissionTags,
 * https://docs.aws.amazon.com/quicksight/latest/APIReference/API_SnapshotAnonymousUser.html).
 */
export function anonymousFacts(
  context: Pick<SampleViewContext, 'rowLevelPermissionTagConfiguration'>,
  dashboard: SampleDashboard,
  tags: readonly SessionTag[],
): { readonly facts: MonthlyFact[] } | { readonly refusal: string } {
  const predicates: RowPredicate[] = [];
  for (const id of dashboard.dataSetIds) {
    const dataSet = findSampleDataSet(id);
    const predicate =
      dataSet && tagRowPredicate(sampleTagRules(context.rowLevelPermissionTagConfiguration, dataSet), tags);
    if (!predicate) return { refusal: `The dataset ${id} has no ENABLED RowLevelPermissionTagConfiguration` };
    predicates.push(predicate);
  }
  return { facts: sampleDataset().facts.filter((fact) => predicates.every((visible) => visible(factValue(fact)))) };
}
