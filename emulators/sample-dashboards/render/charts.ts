import { monthLabel, monthShort } from './format.ts';
import { html, type SafeHtml } from './html.ts';

/**
 * Server-drawn SVG charts. Each is an `img` with a title and a description for screen
 * readers, native tooltips (`<title>`) on every mark, and colours from the stylesheet's
 * series classes (s1..s8), so the pages need neither scripts nor inline styles.
 */

export type Tone = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;
type Format = (n: number) => string;

// Blue, orange, purple, teal, green for categories: red and amber are kept for status.
const CATEGORY_TONES: readonly Tone[] = [1, 2, 7, 8, 3];

/** Colour of the n-th category (e.g. product line), the same on every chart. */
export const categoryTone = (index: number): Tone => CATEGORY_TONES[index % CATEGORY_TONES.length] ?? 1;

interface ChartBase {
  /** Unique within the page; used for the title and description ids. */
  readonly id: string;
  readonly title: string;
  readonly description: string;
}

/**
 * Drawing widths close to the rendered widths, so text keeps its size: time series fill a
 * full-width card, bar charts a half-width one.
 */
const SERIES_WIDTH = 1100;
const BAR_WIDTH = 560;

function frame(spec: ChartBase, width: number, height: number, body: SafeHtml): SafeHtml {
  return html`<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${spec.id}-title ${spec.id}-desc" preserveAspectRatio="xMidYMid meet"><title id="${spec.id}-title">${spec.title}</title><desc id="${spec.id}-desc">${spec.description}</desc>${body}</svg>`;
}

/** Rounds a step up to 1, 2, 2.5 or 5 times a power of ten. */
function niceStep(rough: number): number {
  const power = 10 ** Math.floor(Math.log10(rough));
  const fraction = rough / power;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 2.5 ? 2.5 : fraction <= 5 ? 5 : 10;
  return nice * power;
}

function scaleTicks(min: number, max: number, count = 4): { low: number; high: number; ticks: number[] } {
  const span = max - min || Math.abs(max) || 1;
  const step = niceStep(span / count);
  const low = Math.floor(min / step) * step;
  const high = Math.ceil(max / step) * step;
  const ticks: number[] = [];
  for (let t = low; t <= high + step / 2; t += step) ticks.push(Number(t.toPrecision(12)));
  return { low, high, ticks };
}

/** Month labels under an axis: every month up to a year, else every other, with the year in January. */
function monthAxis(months: readonly string[], xAt: (i: number) => number, y: number): SafeHtml[] {
  const every = months.length > 12 ? 2 : 1;
  return months.map((month, i) => {
    if (i % every !== 0) return html``;
    const showYear = i === 0 || month.endsWith('-01');
    return html`<text class="axis-label" x="${xAt(i)}" y="${y}" text-anchor="middle">${monthShort(month)}${
      showYear ? html`<tspan x="${xAt(i)}" dy="13">${month.slice(0, 4)}</tspan>` : ''
    }</text>`;
  });
}

function gridLines(
  ticks: readonly number[],
  yAt: (v: number) => number,
  left: number,
  right: number,
  format: Format,
): SafeHtml[] {
  return ticks.map(
    (t) =>
      html`<line class="gridline" x1="${left}" x2="${right}" y1="${yAt(t)}" y2="${yAt(t)}"/><text class="axis-label" x="${left - 8}" y="${yAt(t) + 4}" text-anchor="end">${format(t)}</text>`,
  );
}

interface LineSeries {
  readonly name: string;
  readonly values: readonly number[];
  readonly tone: Tone;
  readonly dashed?: boolean;
}

export interface LineChartSpec extends ChartBase {
  /** `YYYY-MM` per point. */
  readonly months: readonly string[];
  readonly series: readonly LineSeries[];
  readonly format: Format;
  readonly axisFormat?: Format;
  /** Start the value axis at zero (amounts) rather than near the data (rates). */
  readonly fromZero?: boolean;
}

export function lineChart(spec: LineChartSpec): SafeHtml {
  const height = 280;
  const [left, right, top, bottom] = [64, SERIES_WIDTH - 18, 14, height - 40];
  const values = spec.series.flatMap((s) => s.values);
  const scale = scaleTicks(spec.fromZero ? 0 : Math.min(...values), Math.max(...values));
  const xAt = (i: number) => left + (i * (right - left)) / Math.max(1, spec.months.length - 1);
  const yAt = (v: number) => bottom - ((v - scale.low) / (scale.high - scale.low || 1)) * (bottom - top);
  const lines = spec.series.map((series) => {
    const points = series.values.map((v, i) => `${xAt(i).toFixed(1)},${yAt(v).toFixed(1)}`).join(' ');
    const marks = series.values.map(
      (v, i) =>
        html`<circle class="point s${series.tone}" cx="${xAt(i).toFixed(1)}" cy="${yAt(v).toFixed(1)}" r="3.2"><title>${series.name}, ${monthLabel(spec.months[i] ?? '')}: ${spec.format(v)}</title></circle>`,
    );
    return html`<polyline class="line s${series.tone}${series.dashed ? ' dashed' : ''}" points="${points}"/>${marks}`;
  });
  return frame(
    spec,
    SERIES_WIDTH,
    height,
    html`${gridLines(scale.ticks, yAt, left, right, spec.axisFormat ?? spec.format)}<line class="axis" x1="${left}" x2="${right}" y1="${bottom}" y2="${bottom}"/>${monthAxis(spec.months, xAt, bottom + 18)}${lines}`,
  );
}

export interface BarItem {
  readonly label: string;
  readonly value: number;
  readonly tone?: Tone;
  /** Extra text for the tooltip, e.g. a rank or a comparison. */
  readonly detail?: string;
}

export interface BarChartSpec extends ChartBase {
  readonly items: readonly BarItem[];
  readonly format: Format;
  /** Value range of the bars; defaults to zero up to the largest value. */
  readonly domain?: readonly [number, number];
  /** A reference line, e.g. a service-level target. */
  readonly target?: { readonly value: number; readonly label: string };
}

/** Horizontal bars: long category names (distributors, product lines) stay readable. */
export function barChart(spec: BarChartSpec): SafeHtml {
  const rowHeight = 28;
  const [labelRight, barLeft, barRight, top] = [188, 196, BAR_WIDTH - 64, spec.target ? 22 : 6];
  const height = top + spec.items.length * rowHeight + 4;
  const [low, high] = spec.domain ?? [0, Math.max(...spec.items.map((i) => i.value)) * 1.04 || 1];
  const xAt = (v: number) => barLeft + Math.max(0, Math.min(1, (v - low) / (high - low))) * (barRight - barLeft);
  const rows = spec.items.map((item, i) => {
    const y = top + i * rowHeight;
    const end = xAt(item.value);
    return html`<g class="bar-row"><text class="bar-label" x="${labelRight}" y="${y + 18}" text-anchor="end">${item.label}</text><rect class="bar s${item.tone ?? 1}" x="${barLeft}" y="${y + 6}" width="${Math.max(1, end - barLeft).toFixed(1)}" height="16" rx="2"><title>${item.label}: ${spec.format(item.value)}${item.detail ? ` (${item.detail})` : ''}</title></rect><text class="bar-value" x="${(end + 6).toFixed(1)}" y="${y + 18}">${spec.format(item.value)}</text></g>`;
  });
  const target = spec.target
    ? html`<line class="target" x1="${xAt(spec.target.value)}" x2="${xAt(spec.target.value)}" y1="${top - 4}" y2="${height - 2}"/><text class="target-label" x="${xAt(spec.target.value)}" y="12" text-anchor="middle">${spec.target.label}</text>`
    : '';
  return frame(spec, BAR_WIDTH, height, html`${rows}${target}`);
}

interface StackedSeries {
  readonly name: string;
  readonly values: readonly number[];
  readonly tone: Tone;
}

export interface StackedColumnSpec extends ChartBase {
  readonly months: readonly string[];
  readonly stacks: readonly StackedSeries[];
  readonly format: Format;
  readonly axisFormat?: Format;
}

/** Monthly columns split by category, e.g. revenue by product line. */
export function stackedColumns(spec: StackedColumnSpec): SafeHtml {
  const height = 280;
  const [left, right, top, bottom] = [64, SERIES_WIDTH - 18, 14, height - 40];
  const columnTotals = spec.months.map((_, i) => spec.stacks.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const scale = scaleTicks(0, Math.max(...columnTotals));
  const slot = (right - left) / spec.months.length;
  const xAt = (i: number) => left + slot * (i + 0.5);
  const yAt = (v: number) => bottom - (v / (scale.high || 1)) * (bottom - top);
  const columns = spec.months.map((month, i) => {
    let base = 0;
    const segments = spec.stacks.map((stack) => {
      const value = stack.values[i] ?? 0;
      const y = yAt(base + value);
      const segment = html`<rect class="bar s${stack.tone}" x="${(xAt(i) - slot * 0.34).toFixed(1)}" y="${y.toFixed(1)}" width="${(slot * 0.68).toFixed(1)}" height="${Math.max(0, yAt(base) - y).toFixed(1)}"><title>${stack.name}, ${monthLabel(month)}: ${spec.format(value)}</title></rect>`;
      base += value;
      return segment;
    });
    return html`<g>${segments}</g>`;
  });
  return frame(
    spec,
    SERIES_WIDTH,
    height,
    html`${gridLines(scale.ticks, yAt, left, right, spec.axisFormat ?? spec.format)}${columns}<line class="axis" x1="${left}" x2="${right}" y1="${bottom}" y2="${bottom}"/>${monthAxis(spec.months, xAt, bottom + 18)}`,
  );
}

/** Colour key of a chart, as a list so screen readers announce the series. */
export function legend(entries: readonly { name: string; tone: Tone; dashed?: boolean }[]): SafeHtml {
  return html`<ul class="legend">${entries.map(
    (e) =>
      html`<li><span class="swatch s${e.tone}${e.dashed ? ' dashed' : ''}" aria-hidden="true"></span>${e.name}</li>`,
  )}</ul>`;
}
