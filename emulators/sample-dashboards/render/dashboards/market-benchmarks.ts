import {
  fillRate,
  inventoryDays,
  lastMonths,
  marginRate,
  onTimeRate,
  totals,
  totalsBy,
  type Totals,
} from '#emulators/sample-dashboards/data/aggregate.ts';
import type { Dataset, ProductLine } from '#emulators/sample-dashboards/data/generator.ts';
import { categoryTone, legend, stackedColumns } from '../charts.ts';
import { currency, days, percent } from '../format.ts';
import { html, type SafeHtml } from '../html.ts';
import { card, dataTable, kpiTiles, numberColumn, rankedBarsCard, textColumn, type ViewState } from '../layout.ts';

/**
 * Market Benchmarks: industry-wide figures by region and product line. No distributor or
 * company is named; every row of the market counts, whoever reads it.
 */

interface LineRow {
  readonly line: ProductLine;
  readonly totals: Totals;
  readonly share: number;
}

export function renderMarketBenchmarks(dataset: Dataset, state: ViewState): SafeHtml {
  const slice = lastMonths(dataset, state.period);
  const market = totals(slice.facts);
  const byRegion = totalsBy(slice.facts, (f) => f.region);
  const byLine = totalsBy(slice.facts, (f) => f.productLineId);

  const kpis = kpiTiles([
    { label: 'Market revenue', value: currency(market.revenue), note: `${slice.months.length} months` },
    { label: 'Gross margin', value: percent(marginRate(market)), note: 'Margin rate of the whole market' },
    { label: 'Fill rate', value: percent(fillRate(market)), note: 'Order lines filled' },
    { label: 'On-time delivery', value: percent(onTimeRate(market)), note: 'Shipments on time' },
  ]);

  const byMonthAndRegion = totalsBy(slice.facts, (f) => `${f.month}|${f.region}`);
  const regionalMarkets = card({
    id: 'benchmark-market',
    title: 'Market revenue by region',
    subtitle: 'Every distributor of the market',
    wide: true,
    content: [
      legend(dataset.regions.map((region, i) => ({ name: region, tone: categoryTone(i) }))),
      stackedColumns({
        id: 'benchmark-market-chart',
        title: 'Monthly market revenue by region',
        description: `The market's revenue was ${currency(market.revenue)} over the period; each column is one month, split by region.`,
        months: slice.months,
        stacks: dataset.regions.map((region, i) => ({
          name: region,
          tone: categoryTone(i),
          values: slice.months.map((m) => byMonthAndRegion.get(`${m}|${region}`)?.revenue ?? 0),
        })),
        format: currency,
      }),
    ],
  });

  const regionMargins = rankedBarsCard({
    id: 'benchmark-region-margin',
    title: 'Gross margin by region',
    items: dataset.regions.map((region) => ({
      label: region,
      value: marginRate(byRegion.get(region) ?? totals([])),
      tone: 3,
    })),
    describe: (top) => `${top.label} has the highest margin rate at ${percent(top.value)}.`,
    format: (n) => percent(n),
  });

  const regionService = rankedBarsCard({
    id: 'benchmark-region-on-time',
    title: 'On-time delivery by region',
    items: dataset.regions.map((region) => ({
      label: region,
      value: onTimeRate(byRegion.get(region) ?? totals([])),
      tone: 2,
    })),
    describe: (top) => `${top.label} delivers most reliably, ${percent(top.value)} on time.`,
    format: (n) => percent(n),
  });

  const rows: LineRow[] = dataset.productLines.map((line) => {
    const t = byLine.get(line.id) ?? totals([]);
    return { line, totals: t, share: market.revenue === 0 ? 0 : t.revenue / market.revenue };
  });
  const table = card({
    id: 'benchmark-lines',
    title: 'Benchmarks by product line',
    wide: true,
    content: dataTable<LineRow>({
      caption: `Market share of revenue, margin and service per product line, ${state.period} months`,
      state,
      defaultSort: { key: 'share', dir: 'desc' },
      rows,
      columns: [
        textColumn('line', 'Product line', (r) => r.line.name),
        numberColumn(
          'share',
          'Revenue share',
          (r) => r.share,
          (n) => percent(n),
        ),
        numberColumn(
          'margin',
          'Margin',
          (r) => marginRate(r.totals),
          (n) => percent(n),
        ),
        numberColumn(
          'fill',
          'Fill rate',
          (r) => fillRate(r.totals),
          (n) => percent(n),
        ),
        numberColumn('days', 'Inventory days', (r) => inventoryDays(r.totals), days),
      ],
      footer: [
        'Whole market',
        percent(1),
        percent(marginRate(market)),
        percent(fillRate(market)),
        days(inventoryDays(market)),
      ],
    }),
  });

  return html`${kpis}<div class="grid">${regionalMarkets}${regionMargins}${regionService}${table}</div>`;
}
