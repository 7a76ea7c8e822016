import { barChart, type BarChartSpec, type BarItem } from './charts.ts';
import { html, type SafeHtml } from './html.ts';

/** Page shell, filter bar, KPI tiles, cards and sortable tables shared by the dashboards. */

const PERIODS = [6, 12, 24] as const;
export type Period = (typeof PERIODS)[number];
type SortDirection = 'asc' | 'desc';

/** What the reader chose through the query string: the period and a table's sort. */
export interface ViewState {
  readonly period: Period;
  readonly sort?: string;
  readonly dir?: SortDirection;
}

export const DEFAULT_PERIOD: Period = 12;

/** Reads the view from a query string; anything unknown falls back to the default. */
export function parseViewState(query: URLSearchParams): ViewState {
  const period = PERIODS.find((p) => String(p) === query.get('period')) ?? DEFAULT_PERIOD;
  const sort = query.get('sort');
  const dir = query.get('dir');
  return {
    period,
    sort: sort && /^[a-zA-Z]{1,32}$/.test(sort) ? sort : undefined,
    dir: dir === 'asc' || dir === 'desc' ? dir : undefined,
  };
}

/** A relative link to the same dashboard with another view; it never carries the one-time code. */
function viewHref(state: ViewState, changes: Partial<ViewState>): string {
  const next = { ...state, ...changes };
  const query = new URLSearchParams({ period: String(next.period) });
  if (next.sort) query.set('sort', next.sort);
  if (next.dir) query.set('dir', next.dir);
  return `?${query.toString()}`;
}

export interface DashboardPageSpec {
  readonly title: string;
  readonly subtitle: string;
  readonly viewer: string;
  /** The distinct companies of the rows the page draws, sorted. */
  readonly companies: readonly string[];
  readonly state: ViewState;
  readonly body: SafeHtml;
  readonly footnote: string;
  /** The embedding SDK's frame script and what it reads, when the SDK opened the page. */
  readonly head?: SafeHtml;
  /** Stand-ins of the dashboard features the embed URL turned on. */
  readonly features?: SafeHtml;
}

export function dashboardDocument(spec: DashboardPageSpec): string {
  const periodLinks = PERIODS.map((p) => {
    const current = p === spec.state.period;
    return html`<li><a href="${viewHref(spec.state, { period: p })}"${current ? html` aria-current="page"` : ''}>${
      p === 24 ? 'Last 24 months' : `Last ${p} months`
    }</a></li>`;
  });
  return document(
    spec.title,
    html`<header class="topbar"><div class="topbar-title"><h1>${spec.title}</h1><p class="subtitle">${spec.subtitle}</p></div><div class="topbar-side"><p class="viewer">Viewing as <strong>${spec.viewer}</strong></p><p class="companies">Companies in view: ${spec.companies.join(', ')}</p><nav aria-label="Period"><ul class="segmented">${periodLinks}</ul></nav></div></header>${spec.features ?? ''}<p id="frame-status" class="frame-status" role="status"></p><main class="dashboard">${spec.body}</main><footer class="footnote">${spec.footnote}</footer>`,
    'embed',
    spec.head,
  );
}

/** A complete HTML document using the emulator's stylesheet. */
export function document(title: string, body: SafeHtml, bodyClass = 'embed', head: SafeHtml | string = ''): string {
  return `<!doctype html>\n${html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><link rel="stylesheet" href="/assets/dashboard.css">${head}</head><body class="${bodyClass}">${body}</body></html>`}`;
}

export interface Kpi {
  readonly label: string;
  readonly value: string;
  readonly note?: string;
  /** Whether the note reports good or bad news (colour). */
  readonly tone?: 'good' | 'bad' | 'neutral';
  /** Which way the figure moved (arrow); an increase can be bad news, e.g. stock-outs. */
  readonly direction?: 'up' | 'down';
}

const ARROWS = { up: '\u25B2 ', down: '\u25BC ' } as const;

export function kpiTiles(kpis: readonly Kpi[]): SafeHtml {
  return html`<ul class="kpis" aria-label="Key figures">${kpis.map(
    (k) =>
      html`<li class="kpi"><p class="kpi-label">${k.label}</p><p class="kpi-value">${k.value}</p>${
        k.note
          ? html`<p class="kpi-note ${k.tone ?? 'neutral'}">${k.direction ? html`<span aria-hidden="true">${ARROWS[k.direction]}</span>` : ''}${k.note}</p>`
          : ''
      }</li>`,
  )}</ul>`;
}

/** Tone of a change: good when it moves the right way, neutral when it does not move. */
export function changeTone(
  change: number | undefined,
  higherIsBetter: boolean,
  digits = 3,
): 'good' | 'bad' | 'neutral' {
  if (change === undefined) return 'neutral';
  const rounded = Number(change.toFixed(digits));
  if (rounded === 0) return 'neutral';
  return rounded > 0 === higherIsBetter ? 'good' : 'bad';
}

export function card(spec: {
  id: string;
  title: string;
  subtitle?: string;
  wide?: boolean;
  content: SafeHtml | SafeHtml[];
}): SafeHtml {
  return html`<section class="card${spec.wide ? ' wide' : ''}" aria-labelledby="${spec.id}-heading"><h2 id="${spec.id}-heading">${spec.title}</h2>${
    spec.subtitle ? html`<p class="card-subtitle">${spec.subtitle}</p>` : ''
  }${spec.content}</section>`;
}

export interface RankedBarsSpec extends Pick<BarChartSpec, 'format' | 'domain' | 'target'> {
  readonly id: string;
  readonly title: string;
  readonly subtitle?: string;
  /** Accessible name of the chart; defaults to the card title. */
  readonly chartTitle?: string;
  readonly items: readonly BarItem[];
  /** The chart's description, told from the top item. */
  readonly describe: (top: BarItem) => string;
}

/** A card with a bar chart of the items, largest first. */
export function rankedBarsCard(spec: RankedBarsSpec): SafeHtml {
  const items = [...spec.items].sort((a, b) => b.value - a.value);
  const top = items[0];
  return card({
    id: spec.id,
    title: spec.title,
    subtitle: spec.subtitle,
    content: barChart({
      id: `${spec.id}-chart`,
      title: spec.chartTitle ?? spec.title,
      description: top ? spec.describe(top) : 'No data.',
      items,
      format: spec.format,
      domain: spec.domain,
      target: spec.target,
    }),
  });
}

export interface Column<Row> {
  readonly key: string;
  readonly header: string;
  readonly numeric?: boolean;
  /** Sort key of a row for this column. */
  readonly value: (row: Row) => number | string;
  /** Cell content; defaults to the value. */
  readonly cell?: (row: Row) => SafeHtml | string;
  readonly sortable?: boolean;
}

export function textColumn<Row>(key: string, header: string, value: (row: Row) => string): Column<Row> {
  return { key, header, value, sortable: true };
}

export function numberColumn<Row>(
  key: string,
  header: string,
  value: (row: Row) => number,
  format: (n: number) => string,
): Column<Row> {
  return { key, header, numeric: true, sortable: true, value, cell: (row) => format(value(row)) };
}

/** A change against the prior period; rows without one show n/a and sort as no change. */
export function changeColumn<Row>(
  key: string,
  header: string,
  value: (row: Row) => number | undefined,
  format: (n: number) => string,
): Column<Row> {
  return {
    key,
    header,
    numeric: true,
    sortable: true,
    value: (row) => value(row) ?? 0,
    cell: (row) => {
      const change = value(row);
      return change === undefined ? html`<span class="muted">n/a</span>` : format(change);
    },
  };
}

export interface TableSpec<Row> {
  readonly caption: string;
  readonly columns: readonly Column<Row>[];
  readonly rows: readonly Row[];
  readonly state: ViewState;
  readonly defaultSort: { readonly key: string; readonly dir: SortDirection };
  readonly footer?: readonly (SafeHtml | string)[];
}

/** A table sorted on the server; its header links re-sort it through the query string. */
export function dataTable<Row>(spec: TableSpec<Row>): SafeHtml {
  const requested = spec.columns.find((c) => c.sortable && c.key === spec.state.sort);
  const sortColumn = requested ?? spec.columns.find((c) => c.key === spec.defaultSort.key);
  const dir = requested ? (spec.state.dir ?? (requested.numeric ? 'desc' : 'asc')) : spec.defaultSort.dir;
  const rows = [...spec.rows];
  if (sortColumn) {
    rows.sort((a, b) => {
      const [x, y] = [sortColumn.value(a), sortColumn.value(b)];
      const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      return dir === 'asc' ? order : -order;
    });
  }
  const headers = spec.columns.map((column) => {
    const active = column === sortColumn;
    const cls = column.numeric ? html` class="num"` : '';
    if (!column.sortable) return html`<th scope="col"${cls}>${column.header}</th>`;
    const nextDir: SortDirection = active ? (dir === 'asc' ? 'desc' : 'asc') : column.numeric ? 'desc' : 'asc';
    const ariaSort = active ? (dir === 'asc' ? 'ascending' : 'descending') : 'none';
    const indicator = active ? (dir === 'asc' ? '\u25B2' : '\u25BC') : '\u21C5';
    return html`<th scope="col" aria-sort="${ariaSort}"${cls}><a class="sort${active ? ' active' : ''}" href="${viewHref(spec.state, { sort: column.key, dir: nextDir })}">${column.header}<span class="sort-indicator" aria-hidden="true">${indicator}</span></a></th>`;
  });
  const body = rows.map(
    (row) =>
      html`<tr>${spec.columns.map((column, i) => {
        const content = column.cell ? column.cell(row) : String(column.value(row));
        const cls = column.numeric ? html` class="num"` : '';
        return i === 0 ? html`<th scope="row"${cls}>${content}</th>` : html`<td${cls}>${content}</td>`;
      })}</tr>`,
  );
  const footer = spec.footer
    ? html`<tfoot><tr>${spec.footer.map((content, i) =>
        i === 0 ? html`<th scope="row">${content}</th>` : html`<td class="num">${content}</td>`,
      )}</tr></tfoot>`
    : '';
  return html`<div class="table-wrap"><table class="data-table"><caption>${spec.caption}</caption><thead><tr>${headers}</tr></thead><tbody>${body}</tbody>${footer}</table></div>`;
}

export function badge(tone: 'good' | 'warn' | 'bad', text: string): SafeHtml {
  return html`<span class="badge ${tone}">${text}</span>`;
}
