import { SAMPLE_DASHBOARDS, type SampleDashboard } from '#emulators/sample-dashboards/catalog.ts';
import {
  MANUFACTURER,
  sampleDataset,
  type Dataset,
  type MonthlyFact,
} from '#emulators/sample-dashboards/data/generator.ts';
import { lastMonths } from '#emulators/sample-dashboards/data/aggregate.ts';
import { renderDistributorScorecard } from '#emulators/sample-dashboards/render/dashboards/distributor-scorecard.ts';
import { renderInventoryMargins } from '#emulators/sample-dashboards/render/dashboards/inventory-margins.ts';
import { renderMarketBenchmarks } from '#emulators/sample-dashboards/render/dashboards/market-benchmarks.ts';
import { renderSalesPerformance } from '#emulators/sample-dashboards/render/dashboards/sales-performance.ts';
import { periodLabel } from '#emulators/sample-dashboards/render/format.ts';
import { frameHead, type EmbedFrameContext } from './embed-frame.ts';
import { html, type SafeHtml } from '#emulators/sample-dashboards/render/html.ts';
import { dashboardDocument, document, type ViewState } from '#emulators/sample-dashboards/render/layout.ts';

/** The HTML pages the emulator serves: embedded dashboards, link errors and the console link. */

const RENDERERS: Record<string, (dataset: Dataset, state: ViewState) => SafeHtml> = {
  'sales-performance': renderSalesPerformance,
  'distributor-scorecard': renderDistributorScorecard,
  'inventory-margins': renderInventoryMargins,
  'market-benchmarks': renderMarketBenchmarks,
};

/** What a reader whose row-level security leaves no row sees instead of the visuals. */
export const NO_DATA_TEXT = 'No data for your companies';

/**
 * A dashboard drawn over `facts`, the rows its reader may see (every row by default): the
 * visuals aggregate only them, and the page names the companies they belong to.
 */
export interface EmbeddedPageOptions {
  /** The SDK's frame: the script and what it reads (absent when no SDK opened the page). */
  readonly frame?: EmbedFrameContext;
  /** The features the embed URL turned on. */
  readonly features?: readonly string[];
  /** The `company` parameter's values, when the dashboard declares it ([] = every company). */
  readonly companyParameter?: readonly string[];
}

/** Names of the dashboard features' stand-ins, and what QuickSight offers through each. */
const FEATURE_STAND_INS: Record<string, { label: string; text: string }> = {
  StatePersistence: {
    label: 'State persistence',
    text: 'QuickSight keeps this reader\u2019s filters and sheet between sessions.',
  },
  Bookmarks: { label: 'Bookmarks', text: 'QuickSight lets the reader save and reopen views of this dashboard.' },
  SharedView: {
    label: 'Share view',
    text: 'QuickSight makes a link to the current view for other readers of this dashboard.',
  },
  Schedules: {
    label: 'Schedules',
    text: 'QuickSight emails this dashboard as a report on a schedule the reader sets.',
  },
  ThresholdAlerts: {
    label: 'Threshold alerts',
    text: 'QuickSight emails the reader when a KPI or gauge crosses a threshold.',
  },
  RecentSnapshots: {
    label: 'Recent snapshots',
    text: 'QuickSight lists the reports delivered recently to this reader.',
  },
  DashboardCustomizationSummary: {
    label: 'Customization summary',
    text: 'QuickSight summarises the filters and controls the reader changed.',
  },
  AmazonQInQuickSight: {
    label: 'Executive summary',
    text: 'Amazon Q in QuickSight writes a summary of this dashboard\u2019s insights.',
  },
};

function featureStandIns(features: readonly string[]): SafeHtml | undefined {
  const known = features.filter((feature) => FEATURE_STAND_INS[feature]);
  if (known.length === 0) return undefined;
  return html`<nav class="features" aria-label="Dashboard features">${known.map((feature) => {
    const standIn = FEATURE_STAND_INS[feature];
    return html`<details data-feature="${feature}"><summary>${standIn?.label}</summary><p>${standIn?.text} (local stand-in)</p></details>`;
  })}</nav>`;
}

export function dashboardPage(
  dashboard: SampleDashboard,
  viewer: string,
  state: ViewState,
  visible: readonly MonthlyFact[] = sampleDataset().facts,
  options: EmbeddedPageOptions = {},
): string {
  const chosen = options.companyParameter ?? [];
  const facts = chosen.length > 0 ? visible.filter((fact) => chosen.includes(fact.company)) : visible;
  const render = RENDERERS[dashboard.dashboardId];
  if (!render) throw new Error(`No renderer for dashboard ${dashboard.dashboardId}`);
  const all = sampleDataset();
  const present = new Set(facts.map((f) => f.distributorId));
  const dataset: Dataset = { ...all, facts, distributors: all.distributors.filter((d) => present.has(d.id)) };
  const period = periodLabel(lastMonths(dataset, state.period).months);
  return dashboardDocument({
    head:
      options.frame &&
      frameHead({
        ...options.frame,
        role: 'dashboard',
        dashboardId: dashboard.dashboardId,
        title: dashboard.name,
        parameters: options.companyParameter ? [{ Name: 'company', Values: [...options.companyParameter] }] : [],
      }),
    features: featureStandIns(options.features ?? []),
    title: dashboard.name,
    subtitle: `${MANUFACTURER} \u00B7 ${period}`,
    viewer,
    companies: [...new Set(facts.map((f) => f.company))].sort(),
    state,
    body:
      facts.length === 0
        ? html`<section class="no-data" role="status"><h2>${NO_DATA_TEXT}</h2><p>The data of this dashboard is limited to your companies, and none of its rows belong to them.</p></section>`
        : render(dataset, state),
    footnote: `Sample data generated for ${MANUFACTURER} and ${all.distributors.length} distributors, ${periodLabel(all.months)}. Figures in US dollars.`,
  });
}

/** A centred message, as shown inside the portal's frame when a dashboard cannot be opened. */
function messagePage(heading: string, text: string, head: SafeHtml | '' = ''): string {
  return document(heading, html`<main class="message"><h1>${heading}</h1><p>${text}</p></main>`, 'embed', head);
}

export const linkExpiredPage = (head: SafeHtml | '' = '') =>
  messagePage(
    'This link has expired',
    'Dashboard links work once and for five minutes. Go back to the portal and open the dashboard again.',
    head,
  );

export const sessionEndedPage = (head: SafeHtml | '' = '') =>
  messagePage('Your dashboard session has ended', 'Go back to the portal and open the dashboard again.', head);

/**
 * What QuickSight shows in the frame when the embed URL's user has no permission on the
 * dashboard: QuickSight issues such URLs and refuses only when the page is opened.
 */
export const noAccessPage = (head: SafeHtml | '' = '') =>
  messagePage(
    'You are not authorized to view this dashboard',
    'Your user does not have permission to view this dashboard. Ask the dashboard owner or an administrator to share it with you.',
    head,
  );

export const notFoundPage = (head: SafeHtml | '' = '') =>
  messagePage('Page not found', 'There is no page at this address.', head);

/** Where a catalogue entry's link leads: dashboards are only viewed through the portal. */
export function consolePage(dashboard: SampleDashboard): string {
  return document(
    dashboard.name,
    html`<main class="message console"><p class="eyebrow">QuickSight dashboard</p><h1>${dashboard.name}</h1><p>${dashboard.description}</p><p>This dashboard is viewed through the analytics portal: sign in there and choose it from your dashboards. Its ID is <code>${dashboard.dashboardId}</code>.</p></main>`,
    'console',
  );
}

/** What a person finds at the emulator's root: what it is and which dashboards it holds. */
export function landingPage(baseUrl: string): string {
  return document(
    'Local QuickSight',
    html`<main class="message console"><p class="eyebrow">Local mode</p><h1>Local QuickSight</h1><p>This server answers the QuickSight API for <code>@aws-sdk/client-quicksight</code> at <code>${baseUrl}</code> and serves embedded dashboards to the portal.</p><h2>Sample dashboards</h2><ul class="plain">${SAMPLE_DASHBOARDS.map(
      (d) =>
        html`<li><a href="/sn/dashboards/${encodeURIComponent(d.dashboardId)}">${d.name}</a> <code>${d.dashboardId}</code></li>`,
    )}</ul></main>`,
    'console',
  );
}
