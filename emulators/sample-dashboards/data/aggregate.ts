import { MEASURES, type Dataset, type Measure, type MonthlyFact } from './generator.ts';

/** Sums and ratios over the monthly facts, as the dashboards' visuals need them. */

/** Sums of every measure; `inventoryValue` is a sum of month-end values, divided by `months` for the average. */
export type Totals = { readonly [M in Measure]: number } & { readonly months: number };

const AVERAGE_DAYS_PER_MONTH = 30.4;

export function totals(facts: readonly MonthlyFact[]): Totals {
  const sums = Object.fromEntries(MEASURES.map((m) => [m, facts.reduce((acc, f) => acc + f[m], 0)])) as Record<
    Measure,
    number
  >;
  return { ...sums, months: new Set(facts.map((f) => f.month)).size };
}

/** Totals per key, in the order keys first appear. */
export function totalsBy(facts: readonly MonthlyFact[], key: (f: MonthlyFact) => string): Map<string, Totals> {
  const groups = new Map<string, MonthlyFact[]>();
  for (const fact of facts) {
    const k = key(fact);
    const group = groups.get(k);
    if (group) group.push(fact);
    else groups.set(k, [fact]);
  }
  return new Map([...groups].map(([k, group]) => [k, totals(group)]));
}

const ratio = (numerator: number, denominator: number) => (denominator === 0 ? 0 : numerator / denominator);

export const grossMargin = (t: Totals) => t.revenue - t.cogs;
export const marginRate = (t: Totals) => ratio(t.revenue - t.cogs, t.revenue);
export const fillRate = (t: Totals) => ratio(t.linesFilled, t.linesOrdered);
export const onTimeRate = (t: Totals) => ratio(t.onTimeShipments, t.shipments);
export const averageInventory = (t: Totals) => ratio(t.inventoryValue, t.months);
/** Days of cover: average stock over average daily cost of goods sold. */
export const inventoryDays = (t: Totals) =>
  ratio(averageInventory(t), ratio(t.cogs, t.months * AVERAGE_DAYS_PER_MONTH));
export const versusPlan = (t: Totals) => ratio(t.revenue - t.plannedRevenue, t.plannedRevenue);

export interface PeriodSlice {
  readonly months: readonly string[];
  readonly facts: readonly MonthlyFact[];
  /** The same number of months just before, when the data set has them. */
  readonly previous?: readonly MonthlyFact[];
}

/** The last `count` months of the data set, with the period before it for comparisons. */
export function lastMonths(dataset: Dataset, count: number): PeriodSlice {
  const months = dataset.months.slice(-count);
  const inPeriod = new Set(months);
  const previousMonths = new Set(dataset.months.slice(-2 * count, -count));
  return {
    months,
    facts: dataset.facts.filter((f) => inPeriod.has(f.month)),
    previous: previousMonths.size === count ? dataset.facts.filter((f) => previousMonths.has(f.month)) : undefined,
  };
}
