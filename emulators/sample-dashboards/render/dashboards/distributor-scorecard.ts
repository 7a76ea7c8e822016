import {
  fillRate,
  inventoryDays,
  lastMonths,
  onTimeRate,
  totals,
  totalsBy,
  type Totals,
} from '#emulators/sample-dashboards/data/aggregate.ts';
import type { Dataset } from '#emulators/sample-dashboards/data/generator.ts';
import { legend, lineChart, type Tone } from '../charts.ts';
import { currency, currencyFull, days, direction, integer, percent, signedPoints } from '../format.ts';
import { html, type SafeHtml } from '../html.ts';
import {
  badge,
  card,
  changeTone,
  dataTable,
  kpiTiles,
  numberColumn,
  rankedBarsCard,
  textColumn,
  type Kpi,
  type ViewState,
} from '../layout.ts';

/** Distributor Scorecard: service levels, stock and a composite score per distributor. */

/** Service-level targets the manufacturer agreed with its distributors. */
const FILL_RATE_TARGET = 0.95;
const ON_TIME_TARGET = 0.95;
const INVENTORY_DAYS_TARGET = 45;

interface ScorecardRow {
  readonly name: string;
  readonly region: string;
  readonly totals: Totals;
  readonly score: number;
}

const clamp01 = (n: number) => Math.max(0, Math.min(1, n));

/**
 * 0-100: fill rate 40 % (86 % scores nothing, 98 % everything), on-time delivery 35 % (82 %
 * to 98 %), inventory days 15 % (the target scores best, 60 days off scores nothing) and
 * stock-outs 10 % (25 a month score nothing).
 */
function distributorScore(t: Totals): number {
  const fill = clamp01((fillRate(t) - 0.86) / 0.12);
  const onTime = clamp01((onTimeRate(t) - 0.82) / 0.16);
  const stock = clamp01(1 - Math.abs(inventoryDays(t) - INVENTORY_DAYS_TARGET) / 60);
  const stockOuts = clamp01(1 - t.stockOuts / Math.max(1, t.months) / 25);
  return Math.round(100 * (0.4 * fill + 0.35 * onTime + 0.15 * stock + 0.1 * stockOuts));
}

function status(score: number): SafeHtml {
  if (score >= 75) return badge('good', 'On target');
  if (score >= 60) return badge('warn', 'Watch');
  return badge('bad', 'At risk');
}

const rateTone = (rate: number, target: number): Tone => (rate >= target ? 3 : rate >= target - 0.03 ? 4 : 5);

export function renderDistributorScorecard(dataset: Dataset, state: ViewState): SafeHtml {
  const slice = lastMonths(dataset, state.period);
  const all = totals(slice.facts);
  const previous = slice.previous ? totals(slice.previous) : undefined;
  const byDistributor = totalsBy(slice.facts, (f) => f.distributorId);
  const byMonth = totalsBy(slice.facts, (f) => f.month);
  const monthly = slice.months.map((m) => byMonth.get(m) ?? totals([]));
  const rows: ScorecardRow[] = dataset.distributors.map((d) => {
    const t = byDistributor.get(d.id) ?? totals([]);
    return { name: d.name, region: d.region, totals: t, score: distributorScore(t) };
  });
  const atRisk = rows.filter((r) => r.score < 60).length;
  const compared = `vs prior ${state.period} months`;

  /** A service rate against the prior period when there is one, else against its target. */
  const rateKpi = (label: string, rate: (t: Totals) => number, target: number): Kpi => {
    const value = rate(all);
    if (!previous) {
      return {
        label,
        value: percent(value),
        note: `Target ${percent(target, 0)}`,
        tone: value >= target ? 'good' : 'bad',
      };
    }
    const change = value - rate(previous);
    return {
      label,
      value: percent(value),
      note: `${signedPoints(change)} ${compared}`,
      tone: changeTone(change, true),
      direction: direction(change),
    };
  };
  const stockOutChange = previous ? all.stockOuts - previous.stockOuts : undefined;
  const kpis = kpiTiles([
    {
      label: 'Distributors',
      value: integer(rows.length),
      note: atRisk === 0 ? 'None at risk' : `${atRisk} at risk`,
      tone: atRisk === 0 ? 'good' : 'bad',
    },
    rateKpi('Fill rate', fillRate, FILL_RATE_TARGET),
    rateKpi('On-time delivery', onTimeRate, ON_TIME_TARGET),
    { label: 'Inventory days', value: days(inventoryDays(all)), note: `Target ${INVENTORY_DAYS_TARGET} days` },
    {
      label: 'Stock-outs',
      value: integer(all.stockOuts),
      note: previous ? `${integer(previous.stockOuts)} in the prior ${state.period} months` : undefined,
      tone: changeTone(stockOutChange, false, 0),
      direction: stockOutChange === undefined ? undefined : direction(stockOutChange, 0),
    },
  ]);

  const rateBars = (id: string, title: string, rate: (t: Totals) => number, target: number) => {
    const below = rows.filter((r) => rate(r.totals) < target).length;
    return rankedBarsCard({
      id,
      title,
      subtitle: `Target ${percent(target, 0)}; ${below} of ${rows.length} below`,
      chartTitle: `${title} by distributor`,
      items: rows.map((r) => ({ label: r.name, value: rate(r.totals), tone: rateTone(rate(r.totals), target) })),
      describe: (top) =>
        `${top.label} is highest at ${percent(top.value)}; ${below} distributors are below the ${percent(target, 0)} target.`,
      format: (n) => percent(n),
      domain: [0.8, 1],
      target: { value: target, label: `Target ${percent(target, 0)}` },
    });
  };

  const trend = card({
    id: 'service-trend',
    title: 'Network service level by month',
    wide: true,
    content: [
      legend([
        { name: 'Fill rate', tone: 1 },
        { name: 'On-time delivery', tone: 2 },
      ]),
      lineChart({
        id: 'service-trend-chart',
        title: 'Fill rate and on-time delivery by month',
        description: `In the latest month fill rate was ${percent(fillRate(monthly.at(-1) ?? all))} and on-time delivery ${percent(onTimeRate(monthly.at(-1) ?? all))}.`,
        months: slice.months,
        series: [
          { name: 'Fill rate', values: monthly.map(fillRate), tone: 1 },
          { name: 'On-time delivery', values: monthly.map(onTimeRate), tone: 2 },
        ],
        format: (n) => percent(n),
        axisFormat: (n) => percent(n, 1),
      }),
    ],
  });

  const table = card({
    id: 'scorecard',
    title: 'Scorecard',
    subtitle: 'Score: fill rate 40%, on-time delivery 35%, inventory days 15%, stock-outs 10%',
    wide: true,
    content: dataTable<ScorecardRow>({
      caption: `Distributor scorecard, ${state.period} months`,
      state,
      defaultSort: { key: 'score', dir: 'desc' },
      rows,
      columns: [
        textColumn('name', 'Distributor', (r) => r.name),
        textColumn('region', 'Region', (r) => r.region),
        numberColumn('revenue', 'Revenue', (r) => r.totals.revenue, currency),
        numberColumn(
          'fill',
          'Fill rate',
          (r) => fillRate(r.totals),
          (n) => percent(n),
        ),
        numberColumn(
          'onTime',
          'On-time',
          (r) => onTimeRate(r.totals),
          (n) => percent(n),
        ),
        numberColumn(
          'days',
          'Inventory days',
          (r) => inventoryDays(r.totals),
          (n) => n.toFixed(0),
        ),
        numberColumn('stockOuts', 'Stock-outs', (r) => r.totals.stockOuts, integer),
        numberColumn('score', 'Score', (r) => r.score, String),
        { key: 'status', header: 'Status', value: (r) => r.score, cell: (r) => status(r.score) },
      ],
      footer: [
        'Network',
        '',
        currencyFull(all.revenue),
        percent(fillRate(all)),
        percent(onTimeRate(all)),
        inventoryDays(all).toFixed(0),
        integer(all.stockOuts),
        String(Math.round(rows.reduce((sum, r) => sum + r.score, 0) / Math.max(1, rows.length))),
        '',
      ],
    }),
  });

  return html`${kpis}<div class="grid">${rateBars('fill-rate', 'Fill rate', fillRate, FILL_RATE_TARGET)}${rateBars('on-time', 'On-time delivery', onTimeRate, ON_TIME_TARGET)}${trend}${table}</div>`;
}
