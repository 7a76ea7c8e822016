import {
  averageInventory,
  grossMargin,
  inventoryDays,
  lastMonths,
  marginRate,
  totals,
  totalsBy,
  type Totals,
} from '#emulators/sample-dashboards/data/aggregate.ts';
import type { Dataset, ProductLine } from '#emulators/sample-dashboards/data/generator.ts';
import { categoryTone, legend, lineChart, stackedColumns } from '../charts.ts';
import { currency, currencyFull, days, direction, integer, percent, signedDays, signedPoints } from '../format.ts';
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

/** Inventory & Margins: gross margin and channel stock by product line. */

interface LineRow {
  readonly line: ProductLine;
  readonly current: Totals;
  readonly marginChange?: number;
}

export function renderInventoryMargins(dataset: Dataset, state: ViewState): SafeHtml {
  const slice = lastMonths(dataset, state.period);
  const all = totals(slice.facts);
  const previous = slice.previous ? totals(slice.previous) : undefined;
  const byLine = totalsBy(slice.facts, (f) => f.productLineId);
  const previousByLine = slice.previous ? totalsBy(slice.previous, (f) => f.productLineId) : undefined;
  const byMonthAndLine = totalsBy(slice.facts, (f) => `${f.month}|${f.productLineId}`);
  const monthLine = (month: string, lineId: string) => byMonthAndLine.get(`${month}|${lineId}`) ?? totals([]);
  const compared = `vs prior ${state.period} months`;

  const marginChange = previous ? marginRate(all) - marginRate(previous) : undefined;
  const daysChange = previous ? inventoryDays(all) - inventoryDays(previous) : undefined;
  const kpis = kpiTiles([
    { label: 'Gross margin', value: currency(grossMargin(all)), note: `On ${currency(all.revenue)} revenue` },
    {
      label: 'Margin rate',
      value: percent(marginRate(all)),
      note: marginChange === undefined ? undefined : `${signedPoints(marginChange)} ${compared}`,
      tone: changeTone(marginChange, true),
      direction: marginChange === undefined ? undefined : direction(marginChange),
    },
    { label: 'Channel inventory', value: currency(averageInventory(all)), note: 'Average at cost' },
    {
      label: 'Inventory days',
      value: days(inventoryDays(all)),
      note: daysChange === undefined ? undefined : `${signedDays(daysChange)} ${compared}`,
      tone: changeTone(daysChange, false, 1),
      direction: daysChange === undefined ? undefined : direction(daysChange, 1),
    },
    {
      label: 'Stock-outs',
      value: integer(all.stockOuts),
      note: `${(all.stockOuts / Math.max(1, slice.months.length)).toFixed(1)} per month`,
    },
  ]);

  const rows: LineRow[] = dataset.productLines.map((line) => {
    const current = byLine.get(line.id) ?? totals([]);
    const before = previousByLine?.get(line.id);
    return { line, current, marginChange: before ? marginRate(current) - marginRate(before) : undefined };
  });

  const marginBars = rankedBarsCard({
    id: 'margin-line',
    title: 'Margin rate by product line',
    chartTitle: 'Gross margin rate by product line',
    items: rows.map((r, i) => ({
      label: r.line.name,
      value: marginRate(r.current),
      tone: categoryTone(i),
      detail: `${currency(grossMargin(r.current))} gross margin`,
    })),
    describe: (top) => `${top.label} has the highest margin rate at ${percent(top.value)}.`,
    format: (n) => percent(n),
    domain: [0, 0.6],
  });

  const dayBars = rankedBarsCard({
    id: 'days-line',
    title: 'Inventory days by product line',
    chartTitle: 'Days of inventory cover by product line',
    items: rows.map((r, i) => ({ label: r.line.name, value: inventoryDays(r.current), tone: categoryTone(i) })),
    describe: (top) => `${top.label} carries the most cover at ${days(top.value)}.`,
    format: (n) => `${n.toFixed(0)} d`,
  });

  const lineLegend = legend(dataset.productLines.map((line, i) => ({ name: line.name, tone: categoryTone(i) })));
  const marginTrend = card({
    id: 'margin-trend',
    title: 'Margin rate by month',
    wide: true,
    content: [
      lineLegend,
      lineChart({
        id: 'margin-trend-chart',
        title: 'Monthly gross margin rate by product line',
        description: `Across all lines the margin rate was ${percent(marginRate(all))} for the period.`,
        months: slice.months,
        series: dataset.productLines.map((line, i) => ({
          name: line.name,
          tone: categoryTone(i),
          values: slice.months.map((m) => marginRate(monthLine(m, line.id))),
        })),
        format: (n) => percent(n),
        axisFormat: (n) => percent(n, 0),
      }),
    ],
  });

  const inventoryTrend = card({
    id: 'inventory-trend',
    title: 'Channel inventory by month',
    subtitle: 'Month-end stock at distributors, at cost',
    wide: true,
    content: [
      lineLegend,
      stackedColumns({
        id: 'inventory-trend-chart',
        title: 'Month-end channel inventory by product line',
        description: `Average channel inventory was ${currency(averageInventory(all))}.`,
        months: slice.months,
        stacks: dataset.productLines.map((line, i) => ({
          name: line.name,
          tone: categoryTone(i),
          values: slice.months.map((m) => monthLine(m, line.id).inventoryValue),
        })),
        format: currency,
      }),
    ],
  });

  const table = card({
    id: 'line-economics',
    title: 'Product line economics',
    wide: true,
    content: dataTable<LineRow>({
      caption: `Margin and inventory per product line, ${state.period} months`,
      state,
      defaultSort: { key: 'margin', dir: 'desc' },
      rows,
      columns: [
        textColumn('name', 'Product line', (r) => r.line.name),
        numberColumn('revenue', 'Revenue', (r) => r.current.revenue, currencyFull),
        numberColumn('cogs', 'Cost of goods', (r) => r.current.cogs, currencyFull),
        numberColumn('gross', 'Gross margin', (r) => grossMargin(r.current), currencyFull),
        numberColumn(
          'margin',
          'Margin rate',
          (r) => marginRate(r.current),
          (n) => percent(n),
        ),
        changeColumn('change', 'Change', (r) => r.marginChange, signedPoints),
        numberColumn(
          'days',
          'Inventory days',
          (r) => inventoryDays(r.current),
          (n) => n.toFixed(0),
        ),
        numberColumn('stockOuts', 'Stock-outs', (r) => r.current.stockOuts, integer),
      ],
      footer: [
        'All lines',
        currencyFull(all.revenue),
        currencyFull(all.cogs),
        currencyFull(grossMargin(all)),
        percent(marginRate(all)),
        marginChange === undefined ? '' : signedPoints(marginChange),
        inventoryDays(all).toFixed(0),
        integer(all.stockOuts),
      ],
    }),
  });

  return html`${kpis}<div class="grid">${marginBars}${dayBars}${marginTrend}${inventoryTrend}${table}</div>`;
}
