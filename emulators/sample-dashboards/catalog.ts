/** The sample dashboards and datasets every emulated account holds. */

export interface SampleDataSet {
  readonly dataSetId: string;
  readonly name: string;
  /** Whether the emulator's `rowLevelSecurity` option applies to it (its rows hold every company's data). */
  readonly companyScoped: boolean;
}

/** Both hold the generated monthly facts; the benchmarks show them only as industry-wide figures. */
export const SAMPLE_DATA_SETS: readonly SampleDataSet[] = [
  { dataSetId: 'distributor-monthly-facts', name: 'Distributor monthly facts', companyScoped: true },
  { dataSetId: 'industry-benchmarks', name: 'Industry benchmarks', companyScoped: false },
];

export interface SampleDashboard {
  readonly dashboardId: string;
  readonly name: string;
  readonly description: string;
  /** Sheet names shown in DescribeDashboard's version. */
  readonly sheets: readonly string[];
  /** The datasets behind it (DescribeDashboard's Version.DataSetArns). */
  readonly dataSetIds: readonly string[];
}

export const SAMPLE_DASHBOARDS: readonly SampleDashboard[] = [
  {
    dashboardId: 'sales-performance',
    name: 'Sales Performance',
    description: 'Revenue against plan by month, product line, region and distributor.',
    sheets: ['Overview'],
    dataSetIds: ['distributor-monthly-facts'],
  },
  {
    dashboardId: 'distributor-scorecard',
    name: 'Distributor Scorecard',
    description: 'Fill rate, on-time delivery, inventory days and stock-outs for every distributor.',
    sheets: ['Scorecard'],
    dataSetIds: ['distributor-monthly-facts'],
  },
  {
    dashboardId: 'inventory-margins',
    name: 'Inventory & Margins',
    description: 'Gross margin and channel inventory by product line, with stock-out exposure.',
    sheets: ['Margins'],
    dataSetIds: ['distributor-monthly-facts'],
  },
  {
    dashboardId: 'market-benchmarks',
    name: 'Market Benchmarks',
    description: 'Industry-wide revenue, margin and service levels by region and product line, for comparison.',
    sheets: ['Benchmarks'],
    dataSetIds: ['industry-benchmarks'],
  },
];

/** When the sample dashboards were "published"; fixed so that answers are reproducible. */
export const SAMPLE_DASHBOARDS_PUBLISHED_AT = Date.UTC(2026, 0, 5, 9, 30, 0);

export function findSampleDashboard(dashboardId: string): SampleDashboard | undefined {
  return SAMPLE_DASHBOARDS.find((d) => d.dashboardId === dashboardId);
}

export function findSampleDataSet(dataSetId: string): SampleDataSet | undefined {
  return SAMPLE_DATA_SETS.find((d) => d.dataSetId === dataSetId);
}
