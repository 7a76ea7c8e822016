/**
 * The one stylesheet of the emulator's pages, served from /assets/dashboard.css so the pages'
 * Content-Security-Policy can forbid inline styles.
 */
export const DASHBOARD_CSS = `
:root {
  --c1: #1f6fd1; --c2: #e07b24; --c3: #2e9e6a; --c4: #d9a520;
  --c5: #c8454f; --c6: #7b8794; --c7: #7d5bbe; --c8: #1a9aa6;
  --text: #16191f; --muted: #545b64; --line: #e1e4e8; --page: #f3f5f8; --accent: #0f5bb5;
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--page); color: var(--text);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
a { color: var(--accent); }
a:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; border-radius: 3px; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.92em;
  background: #eef1f4; padding: 1px 5px; border-radius: 4px; }

.topbar { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: 12px 24px;
  background: #fff; border-bottom: 1px solid #d5dbdb; padding: 14px 24px; }
.topbar h1 { font-size: 20px; font-weight: 650; margin: 0; }
.subtitle { margin: 2px 0 0; color: var(--muted); font-size: 13px; }
.topbar-side { display: flex; flex-wrap: wrap; align-items: center; gap: 10px 18px; }
.viewer { margin: 0; color: var(--muted); font-size: 13px; }
.viewer strong { color: var(--text); font-weight: 600; }
.companies { margin: 0; color: var(--muted); font-size: 13px; }
.no-data { max-width: 560px; margin: 8vh auto; padding: 32px; background: #fff; border: 1px solid var(--line); border-radius: 8px; text-align: center; }
.no-data h2 { font-size: 18px; margin: 0 0 8px; }
.no-data p { color: var(--muted); margin: 0; }
.segmented { display: flex; list-style: none; margin: 0; padding: 0; border: 1px solid #aab7b8;
  border-radius: 6px; overflow: hidden; }
.segmented li + li { border-left: 1px solid #aab7b8; }
.segmented a { display: block; padding: 5px 12px; font-size: 13px; text-decoration: none; color: var(--accent); background: #fff; }
.segmented a:hover { background: #eef4fc; }
.segmented a[aria-current="page"] { background: var(--accent); color: #fff; font-weight: 600; }

.dashboard { max-width: 1400px; margin: 0 auto; padding: 20px 24px; }
.kpis { display: grid; grid-template-columns: repeat(auto-fit, minmax(170px, 1fr)); gap: 14px;
  list-style: none; margin: 0 0 16px; padding: 0; }
.kpi { background: #fff; border: 1px solid var(--line); border-top: 3px solid var(--c1); border-radius: 8px; padding: 12px 16px; }
.kpi-label { margin: 0; font-size: 12px; text-transform: uppercase; letter-spacing: 0.04em; color: var(--muted); }
.kpi-value { margin: 4px 0 2px; font-size: 26px; font-weight: 650; font-variant-numeric: tabular-nums; }
.kpi-note { margin: 0; font-size: 12.5px; }
.kpi-note.good { color: #1d7a46; }
.kpi-note.bad { color: #b3261e; }
.kpi-note.neutral { color: var(--muted); }

.grid { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 16px; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 16px 18px; min-width: 0; }
.card.wide { grid-column: 1 / -1; }
.card h2 { margin: 0; font-size: 15px; font-weight: 650; }
.card-subtitle { margin: 2px 0 6px; color: var(--muted); font-size: 12.5px; }
@media (max-width: 860px) { .grid { grid-template-columns: minmax(0, 1fr); } .dashboard { padding: 14px; } }

.legend { display: flex; flex-wrap: wrap; gap: 6px 16px; list-style: none; margin: 8px 0 4px; padding: 0; font-size: 12.5px; color: #414750; }
.swatch { display: inline-block; width: 12px; height: 12px; margin-right: 6px; border-radius: 2px; vertical-align: -1px; }
.swatch.dashed { width: 18px; height: 0; border-top: 3px dashed var(--c6); background: none; vertical-align: 3px; border-radius: 0; }

.chart { display: block; width: 100%; height: auto; margin-top: 6px; font-family: inherit; }
.chart .axis-label { font-size: 11px; fill: #5f6b7a; }
.chart .gridline { stroke: #e9ecef; stroke-width: 1; }
.chart .axis { stroke: #aab7b8; stroke-width: 1; }
.chart .line { fill: none; stroke-width: 2.5; stroke-linejoin: round; stroke-linecap: round; }
.chart .line.dashed { stroke-dasharray: 6 4; stroke-width: 2; }
.chart .point { stroke: #fff; stroke-width: 1.5; }
.chart .bar-label { font-size: 12px; fill: var(--text); }
.chart .bar-value { font-size: 11.5px; fill: #414750; font-variant-numeric: tabular-nums; }
.chart .target { stroke: var(--text); stroke-width: 1.2; stroke-dasharray: 3 3; }
.chart .target-label { font-size: 11px; fill: #414750; }
.chart .bar-row:hover .bar { opacity: 0.85; }
.line.s1 { stroke: var(--c1); } .line.s2 { stroke: var(--c2); } .line.s3 { stroke: var(--c3); } .line.s4 { stroke: var(--c4); }
.line.s5 { stroke: var(--c5); } .line.s6 { stroke: var(--c6); } .line.s7 { stroke: var(--c7); } .line.s8 { stroke: var(--c8); }
.s1:not(.line) { fill: var(--c1); } .s2:not(.line) { fill: var(--c2); } .s3:not(.line) { fill: var(--c3); } .s4:not(.line) { fill: var(--c4); }
.s5:not(.line) { fill: var(--c5); } .s6:not(.line) { fill: var(--c6); } .s7:not(.line) { fill: var(--c7); } .s8:not(.line) { fill: var(--c8); }
.swatch.s1 { background: var(--c1); } .swatch.s2 { background: var(--c2); } .swatch.s3 { background: var(--c3); } .swatch.s4 { background: var(--c4); }
.swatch.s5 { background: var(--c5); } .swatch.s7 { background: var(--c7); } .swatch.s8 { background: var(--c8); }

.table-wrap { overflow-x: auto; margin-top: 8px; }
.data-table { width: 100%; border-collapse: collapse; font-size: 13px; }
.data-table caption { caption-side: top; text-align: left; color: var(--muted); font-size: 12.5px; padding-bottom: 6px; }
.data-table th, .data-table td { padding: 7px 10px; border-bottom: 1px solid #eaeded; text-align: left; white-space: nowrap; }
.data-table thead th { background: #f7f8fa; color: #414750; font-weight: 600; border-bottom: 2px solid #d5dbdb; }
.data-table tbody th { font-weight: 500; }
.data-table tbody tr:hover { background: #f4f8fd; }
.data-table tfoot th, .data-table tfoot td { font-weight: 650; background: #fafbfc; border-top: 2px solid #d5dbdb; border-bottom: 0; }
.data-table .num { text-align: right; font-variant-numeric: tabular-nums; }
.sort { color: inherit; text-decoration: none; display: inline-flex; align-items: center; gap: 4px; }
.sort:hover { text-decoration: underline; }
.sort-indicator { color: #8d99a8; font-size: 10px; }
.sort.active .sort-indicator { color: var(--accent); }
.badge { display: inline-block; padding: 1px 9px; border-radius: 10px; font-size: 12px; font-weight: 600; }
.badge.good { background: #e3f4ea; color: #1d6b3f; }
.badge.warn { background: #fdf3d7; color: #6f4e00; }
.badge.bad { background: #fbe4e4; color: #a1231b; }
.muted { color: #6b7580; }
.footnote { max-width: 1400px; margin: 0 auto; padding: 0 24px 20px; color: var(--muted); font-size: 12px; }

/* The features' stand-ins: a row of chips whose explanation opens over the dashboard, never pushing it down. */
.features { max-width: 1400px; margin: 0 auto; padding: 8px 24px 0; display: flex; flex-wrap: wrap; gap: 8px; }
.features details { position: relative; }
.features summary { cursor: pointer; list-style: none; padding: 3px 10px; font-size: 12px; color: var(--accent);
  background: #fff; border: 1px solid var(--line); border-radius: 999px; }
.features summary::-webkit-details-marker { display: none; }
.features details[open] summary { background: var(--accent); border-color: var(--accent); color: #fff; }
.features details p { position: absolute; z-index: 2; top: calc(100% + 6px); left: 0; width: max-content;
  max-width: min(320px, 80vw); margin: 0; padding: 10px 12px; font-size: 13px; background: #fff;
  border: 1px solid var(--line); border-radius: 8px; box-shadow: 0 4px 12px rgba(22, 25, 31, 0.12); }
/* What the frame says of a request (Print requested): a short note in a corner, over the dashboard. */
.frame-status { position: fixed; right: 16px; bottom: 16px; z-index: 3; margin: 0; padding: 8px 12px;
  border-radius: 6px; background: var(--text); color: #fff; font-size: 13px; }
.frame-status:empty { display: none; }

.message { max-width: 560px; margin: 12vh auto; padding: 32px; background: #fff; border: 1px solid var(--line);
  border-radius: 8px; text-align: center; }
.message h1 { font-size: 20px; margin: 0 0 8px; }
.message p { color: var(--muted); margin: 0 0 8px; }
.console .message { text-align: left; }
.message h2 { font-size: 15px; margin: 20px 0 6px; }
.eyebrow { text-transform: uppercase; letter-spacing: 0.06em; font-size: 12px; }
.plain { padding-left: 18px; margin: 0; }
.plain li { margin: 4px 0; }
`;
