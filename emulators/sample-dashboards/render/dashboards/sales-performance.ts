import {
  grossMargin,
  lastMonths,
  marginRate,
  totals,
  totalsBy,
  versusPlan,
  type Totals,
} from '#emulators/sample-dashboards/data/aggregate.ts';
import type { Dataset } from '#emulators/sample-dashboards/data/generator.ts';
import { categoryTone, legend, lineChart, stackedColumns } from '../charts.ts';
import { currency, currencyFull, direction, integer, percent, signedPercent, signedPoints } from '../format.ts';
import { html, type SafeHtml } from '../html.ts';
import {
  card,
  changeColumn,
  changeTone,
  dataTable,
  kpiTiles,
  numberColumn,
  rankedBarsCard,
  textColumn,
  type ViewState,
} from '../layout.ts';

/** Sales Performance: revenue against plan by month, product line, region and distributor. */

interface DistributorRow {
  readonly name: string;
  readonly region: string;
  readonly current: Totals;
  readonly growth?: number;
}

const growth = (current: number, previous?: number) =>
  previous === undefined || previous === 0 ? undefined : (current - previous) / previous;

export function renderSalesPerformance(dataset: Dataset, state: ViewState): SafeHtml {
  const slice = lastMonths(dataset, state.period);
  const all = totals(slice.facts);
  const previous = slice.previous ? totals(slice.previous) : undefined;
  const compared = previous ? `vs prior ${state.period} months` : undefined;

  const byMonth = totalsBy(slice.facts, (f) => f.month);
  const monthly = slice.months.map((m) => byMonth.get(m) ?? totals([]));
  const byRegion = totalsBy(slice.facts, (f) => f.region);
  const byLine = totalsBy(slice.facts, (f) => f.productLineId);
  const byMonthAndLine = totalsBy(slice.facts, (f) => `${f.month}|${f.productLineId}`);
  const previousByDistributor = slice.previous ? totalsBy(slice.previous, (f) => f.distributorId) : undefined;
  const byDistributor = totalsBy(slice.facts, (f) => f.distributorId);

  const unitsGrowth = growth(all.units, previous?.units);
  const revenueGrowth = growth(all.revenue, previous?.revenue);
  const marginChange = previous ? marginRate(all) - marginRate(previous) : undefined;
  const planGap = versusPlan(all);
  const kpis = kpiTiles([
    {
      label: 'Revenue',
      value: currency(all.revenue),
      note: `${signedPercent(planGap)} vs plan`,
      tone: changeTone(planGap, true),
      direction: direction(planGap),
    },
    {
      label: 'Plan attainment',
      value: percent(all.revenue / all.plannedRevenue),
      note: `Plan ${currency(all.plannedRevenue)}`,
    },
    {
      label: 'Units sold',
      value: integer(all.units),
      note: unitsGrowth === undefined ? 'No earlier period in the data' : `${signedPercent(unitsGrowth)} ${compared}`,
      tone: changeTone(unitsGrowth, true),
      direction: unitsGrowth === undefined ? undefined : direction(unitsGrowth),
    },
    {
      label: 'Gross margin',
      value: percent(marginRate(all)),
      note:
        marginChange === undefined
          ? `${currency(grossMargin(all))} gross profit`
          : `${signedPoints(marginChange)} ${compared}`,
      tone: changeTone(marginChange, true),
      direction: marginChange === undefined ? undefined : direction(marginChange),
    },
  ]);

  const trend = card({
    id: 'revenue-trend',
    title: 'Monthly revenue vs plan',
    subtitle: 'All distributors and product lines',
    wide: true,
    content: [
      legend([
        { name: 'Revenue', tone: 1 },
        { name: 'Plan', tone: 6, dashed: true },
      ]),
      lineChart({
        id: 'revenue-trend-chart',
        title: 'Monthly revenue and plan',
        description: `Revenue was ${currency(monthly.at(-1)?.revenue ?? 0)} in the latest month against a plan of ${currency(monthly.at(-1)?.plannedRevenue ?? 0)}.`,
        months: slice.months,
        series: [
          { name: 'Revenue', values: monthly.map((t) => t.revenue), tone: 1 },
          { name: 'Plan', values: monthly.map((t) => t.plannedRevenue), tone: 6, dashed: true },
        ],
        format: currency,
        fromZero: true,
      }),
    ],
  });

  const regions = rankedBarsCard({
    id: 'revenue-region',
    title: 'Revenue by region',
    items: dataset.regions.map((region) => ({ label: region, value: byRegion.get(region)?.revenue ?? 0, tone: 2 })),
    describe: (top) => `${top.label} leads with ${currency(top.value)}.`,
    format: currency,
  });

  const lines = rankedBarsCard({
    id: 'revenue-line',
    title: 'Revenue by product line',
    items: dataset.productLines.map((line) => {
      const t = byLine.get(line.id) ?? totals([]);
      return { label: line.name, value: t.revenue, tone: 1, detail: `${signedPercent(versusPlan(t))} vs plan` };
    }),
    describe: (top) => `${top.label} is the largest line with ${currency(top.value)}.`,
    format: currency,
  });

  const mix = card({
    id: 'revenue-mix',
    title: 'Revenue mix by month',
    subtitle: 'Stacked by product line',
    wide: true,
    content: [
      legend(dataset.productLines.map((line, i) => ({ name: line.name, tone: categoryTone(i) }))),
      stackedColumns({
        id: 'revenue-mix-chart',
        title: 'Monthly revenue by product line',
        description: 'Each column is one month of revenue, split by product line.',
        months: slice.months,
        stacks: dataset.productLines.map((line, i) => ({
          name: line.name,
          tone: categoryTone(i),
          values: slice.months.map((m) => byMonthAndLine.get(`${m}|${line.id}`)?.revenue ?? 0),
        })),
        format: currency,
      }),
    ],
  });

  const rows: DistributorRow[] = dataset.distributors.map((d) => {
    const current = byDistributor.get(d.id) ?? totals([]);
    return {
      name: d.name,
      region: d.region,
      current,
      growth: growth(current.revenue, previousByDistributor?.get(d.id)?.revenue),
    };
  });
  const table = card({
    id: 'distributor-sales',
    title: 'Sales by distributor',
    wide: true,
    content: dataTable<DistributorRow>({
      caption: `Revenue, plan and margin per distributor, ${state.period} months`,
      state,
      defaultSort: { key: 'revenue', dir: 'desc' },
      rows,
      columns: [
        textColumn('name', 'Distributor', (r) => r.name),
        textColumn('region', 'Region', (r) => r.region),
        numberColumn('revenue', 'Revenue', (r) => r.current.revenue, currencyFull),
        numberColumn('plan', 'vs plan', (r) => versusPlan(r.current), signedPercent),
        changeColumn('growth', 'Growth', (r) => r.growth, signedPercent),
        numberColumn('units', 'Units', (r) => r.current.units, integer),
        numberColumn(
          'margin',
          'Margin',
          (r) => marginRate(r.current),
          (n) => percent(n),
        ),
      ],
      footer: [
        'All distributors',
        '',
        currencyFull(all.revenue),
        signedPercent(versusPlan(all)),
        revenueGrowth === undefined ? '' : signedPercent(revenueGrowth),
        integer(all.units),
        percent(marginRate(all)),
      ],
    }),
  });

  return html`${kpis}<div class="grid">${trend}${regions}${lines}${mix}${table}</div>`;
}
