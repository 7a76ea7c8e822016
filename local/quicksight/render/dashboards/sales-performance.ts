import {
  grossMargin,
  lastMonths,
  marginRate,
  totals,
  totalsBy,
  versusPlan,
  type Totals,
} from '../../data/aggregate.ts';
import type { Dataset } from '../../data/generator.ts';
import { barChart, categoryTone, legend, lineChart, stackedColumns, type Tone } from '../charts.ts';
import { currency, currencyFull, direction, integer, percent, signedPercent, signedPoints } from '../format.ts';
import { html, type SafeHtml } from '../html.ts';
import { card, changeTone, dataTable, kpiTiles, type ViewState } from '../layout.ts';

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
    { label: 'Revenue', value: currency(all.revenue), note: `${signedPercent(planGap)} vs plan`, tone: changeTone(planGap, true), direction: direction(planGap) },
    { label: 'Plan attainment', value: percent(all.revenue / all.plannedRevenue), note: `Plan ${currency(all.plannedRevenue)}` },
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
      note: marginChange === undefined ? `${currency(grossMargin(all))} gross profit` : `${signedPoints(marginChange)} ${compared}`,
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

  const regionItems = dataset.regions
    .map((region) => ({ label: region, value: byRegion.get(region)?.revenue ?? 0, tone: 2 as Tone }))
    .sort((a, b) => b.value - a.value);
  const regions = card({
    id: 'revenue-region',
    title: 'Revenue by region',
    content: barChart({
      id: 'revenue-region-chart',
      title: 'Revenue by region',
      description: `${regionItems[0]?.label ?? ''} leads with ${currency(regionItems[0]?.value ?? 0)}.`,
      items: regionItems,
      format: currency,
    }),
  });

  const lineItems = dataset.productLines
    .map((line) => {
      const t = byLine.get(line.id) ?? totals([]);
      return { label: line.name, value: t.revenue, tone: 1 as Tone, detail: `${signedPercent(versusPlan(t))} vs plan` };
    })
    .sort((a, b) => b.value - a.value);
  const lines = card({
    id: 'revenue-line',
    title: 'Revenue by product line',
    content: barChart({
      id: 'revenue-line-chart',
      title: 'Revenue by product line',
      description: `${lineItems[0]?.label ?? ''} is the largest line with ${currency(lineItems[0]?.value ?? 0)}.`,
      items: lineItems,
      format: currency,
    }),
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
    return { name: d.name, region: d.region, current, growth: growth(current.revenue, previousByDistributor?.get(d.id)?.revenue) };
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
        { key: 'name', header: 'Distributor', value: (r) => r.name, sortable: true },
        { key: 'region', header: 'Region', value: (r) => r.region, sortable: true },
        { key: 'revenue', header: 'Revenue', numeric: true, sortable: true, value: (r) => r.current.revenue, cell: (r) => currencyFull(r.current.revenue) },
        { key: 'plan', header: 'vs plan', numeric: true, sortable: true, value: (r) => versusPlan(r.current), cell: (r) => signedPercent(versusPlan(r.current)) },
        {
          key: 'growth',
          header: 'Growth',
          numeric: true,
          sortable: true,
          value: (r) => r.growth ?? 0,
          cell: (r) => (r.growth === undefined ? html`<span class="muted">n/a</span>` : signedPercent(r.growth)),
        },
        { key: 'units', header: 'Units', numeric: true, sortable: true, value: (r) => r.current.units, cell: (r) => integer(r.current.units) },
        { key: 'margin', header: 'Margin', numeric: true, sortable: true, value: (r) => marginRate(r.current), cell: (r) => percent(marginRate(r.current)) },
      ],
      footer: ['All distributors', '', currencyFull(all.revenue), signedPercent(versusPlan(all)), revenueGrowth === undefined ? '' : signedPercent(revenueGrowth), integer(all.units), percent(marginRate(all))],
    }),
  });

  return html`${kpis}<div class="grid">${trend}${regions}${lines}${mix}${table}</div>`;
}
