import {
  SAMPLE_DASHBOARDS_PUBLISHED_AT,
  findSampleDataSet,
  type SampleDashboard,
  type SampleDataSet,
} from '#emulators/sample-dashboards/catalog.ts';
import { dataSetArn, groupArn, resourceIdOf, userArn, type AccountScope } from './arns.ts';
import { sampleDataset, type MonthlyFact } from '#emulators/sample-dashboards/data/generator.ts';
import type { RowLevelPermissionDataSet } from './data-shapes.ts';
import { rowPredicate, type RowValue } from './rls.ts';
import type { QuickSightState } from './state.ts';

/**
 * The sample datasets as QuickSight describes them and as the embed pages read them: their
 * columns, the row-level security the emulator's `rowLevelSecurity` option gives the
 * company-scoped ones, and the rows a signed-in user may see.
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

const NUMBER_COLUMNS: Record<string, 'INTEGER' | 'DECIMAL'> = {
  revenue: 'DECIMAL',
  planned_revenue: 'DECIMAL',
  units: 'INTEGER',
  cogs: 'DECIMAL',
  lines_ordered: 'INTEGER',
  lines_filled: 'INTEGER',
  shipments: 'INTEGER',
  on_time_shipments: 'INTEGER',
  inventory_value: 'DECIMAL',
  stock_outs: 'INTEGER',
};

const OUTPUT_COLUMNS = [
  ...Object.keys(TEXT_COLUMNS).map((Name) => ({ Name, Type: 'STRING' })),
  ...Object.entries(NUMBER_COLUMNS).map(([Name, Type]) => ({ Name, Type })),
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

/** DescribeDataSet's DataSet for a sample dataset. */
export function sampleDataSetView(
  scope: AccountScope,
  option: SampleRowLevelSecurity | undefined,
  dataSet: SampleDataSet,
) {
  const rowLevelPermission = sampleRowLevelPermission(scope, option, dataSet);
  return {
    Arn: dataSetArn(scope, dataSet.dataSetId),
    DataSetId: dataSet.dataSetId,
    Name: dataSet.name,
    CreatedTime: PUBLISHED_AT_SECONDS,
    LastUpdatedTime: PUBLISHED_AT_SECONDS,
    ImportMode: 'SPICE',
    OutputColumns: OUTPUT_COLUMNS,
    ...(rowLevelPermission && { RowLevelPermissionDataSet: rowLevelPermission }),
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
