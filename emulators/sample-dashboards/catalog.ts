/** The sample dashboards and datasets every emulated account holds. */

export interface SampleDataSet {
  readonly dataSetId: string;
  readonly name: string;
  /**
   * Whether the emulator's `rowLevelSecurity` and `rowLevelPermissionTagConfiguration` options apply to it (its
   * rows hold every company's data).
   */
  readonly companyScoped: boolean;
}

/** Both hold the generated monthly facts; the benchmarks show them only as industry-wide figures. */
export const SAMPLE_DATA_SETS: readonly SampleDataSet[] = [
  { dataSetId: 'distributor-monthly-facts', name: 'Distributor monthly facts', companyScoped: true },
  { dataSetId: 'industry-benchmarks', name: 'Industry benchmarks', companyScoped: false },
];

/** A visual of a sample dashboard, by the ID a snapshot job selects it with. */
export interface SampleVisual {
  readonly visualId: string;
  /** Its kind, as DescribeDashboardDefinition's Visual names it; snapshot CSVs come from TABLE and PIVOT_TABLE. */
  readonly type: 'TABLE' | 'PIVOT_TABLE' | 'KPI' | 'BAR_CHART';
  readonly title: string;
}

/**
 * The visuals a snapshot job can select on a sample dashboard's sheet: its key figures, its charts, and a table
 * of its dataset's rows, month by month (the table a CSV snapshot exports).
 */
const visualsOf = (dashboardId: string): readonly SampleVisual[] => [
  { visualId: `${dashboardId}-kpis`, type: 'KPI', title: 'Key figures' },
  { visualId: `${dashboardId}-charts`, type: 'BAR_CHART', title: 'Charts' },
  { visualId: `${dashboardId}-table`, type: 'TABLE', title: 'Monthly facts' },
];

export interface SampleDashboard {
  readonly dashboardId: string;
  readonly name: string;
  readonly description: string;
  /** Sheet names shown in DescribeDashboard's version. */
  readonly sheets: readonly string[];
  /** The datasets behind it (DescribeDashboard's Version.DataSetArns). */
  readonly dataSetIds: readonly string[];
  /** The visuals of its (first and only) sheet. */
  readonly visuals: readonly SampleVisual[];
}

export const SAMPLE_DASHBOARDS: readonly SampleDashboard[] = [
  {
    dashboardId: 'sales-performance',
    name: 'Sales Performance',
    description: 'Revenue against plan by month, product line, region and distributor.',
    sheets: ['Overview'],
    dataSetIds: ['distributor-monthly-facts'],
    visuals: visualsOf('sales-performance'),
  },
  {
    dashboardId: 'distributor-scorecard',
    name: 'Distributor Scorecard',
    description: 'Fill rate, on-time delivery, inventory days and stock-outs for every distributor.',
    sheets: ['Scorecard'],
    dataSetIds: ['distributor-monthly-facts'],
    visuals: visualsOf('distributor-scorecard'),
  },
  {
    dashboardId: 'inventory-margins',
    name: 'Inventory & Margins',
    description: 'Gross margin and channel inventory by product line, with stock-out exposure.',
    sheets: ['Margins'],
    dataSetIds: ['distributor-monthly-facts'],
    visuals: visualsOf('inventory-margins'),
  },
  {
    dashboardId: 'market-benchmarks',
    name: 'Market Benchmarks',
    description: 'Industry-wide revenue, margin and service levels by region and product line, for comparison.',
    sheets: ['Benchmarks'],
    dataSetIds: ['industry-benchmarks'],
    visuals: visualsOf('market-benchmarks'),
  },
];

/** When the sample dashboards were "published"; fixed so that answers are reproducible. */
export const SAMPLE_DASHBOARDS_PUBLISHED_AT = Date.UTC(2026, 0, 5, 9, 30, 0);

/** The SheetId of a sample dashboard's sheet, as DescribeDashboard gives it. */
export const sampleSheetId = (dashboard: SampleDashboard, index: number) =>
  `${dashboard.dashboardId}-sheet-${index + 1}`;

export function findSampleDashboard(dashboardId: string): SampleDashboard | undefined {
  return SAMPLE_DASHBOARDS.find((d) => d.dashboardId === dashboardId);
}

export function findSampleDataSet(dataSetId: string): SampleDataSet | undefined {
  return SAMPLE_DATA_SETS.find((d) => d.dataSetId === dataSetId);
}
