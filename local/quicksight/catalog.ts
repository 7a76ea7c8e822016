/** The sample dashboards every emulated account holds, and the ARNs QuickSight gives them. */

export interface SampleDashboard {
  readonly dashboardId: string;
  readonly name: string;
  readonly description: string;
  /** Sheet names shown in DescribeDashboard's version. */
  readonly sheets: readonly string[];
}

export const SAMPLE_DASHBOARDS: readonly SampleDashboard[] = [
  {
    dashboardId: 'sales-performance',
    name: 'Sales Performance',
    description: 'Revenue against plan by month, product line, region and distributor.',
    sheets: ['Overview'],
  },
  {
    dashboardId: 'distributor-scorecard',
    name: 'Distributor Scorecard',
    description: 'Fill rate, on-time delivery, inventory days and stock-outs for every distributor.',
    sheets: ['Scorecard'],
  },
  {
    dashboardId: 'inventory-margins',
    name: 'Inventory & Margins',
    description: 'Gross margin and channel inventory by product line, with stock-out exposure.',
    sheets: ['Margins'],
  },
];

/** When the sample dashboards were "published"; fixed so that answers are reproducible. */
export const SAMPLE_DASHBOARDS_PUBLISHED_AT = Date.UTC(2026, 0, 5, 9, 30, 0);

export const DEFAULT_NAMESPACE = 'default';

export function findSampleDashboard(dashboardId: string): SampleDashboard | undefined {
  return SAMPLE_DASHBOARDS.find((d) => d.dashboardId === dashboardId);
}

/**
 * Link stored in the catalogue for a dashboard ("View" opens it in a new tab). Like
 * QuickSight's console link it is not an embed: the page explains where to view it.
 */
export function dashboardLink(emulatorUrl: string, dashboardId: string): string {
  return `${emulatorUrl.replace(/\/+$/, '')}/sn/dashboards/${encodeURIComponent(dashboardId)}`;
}

export interface AccountScope {
  readonly accountId: string;
  readonly region: string;
}

export function userArn(scope: AccountScope, namespace: string, userName: string): string {
  return `arn:aws:quicksight:${scope.region}:${scope.accountId}:user/${namespace}/${userName}`;
}

export function dashboardArn(scope: AccountScope, dashboardId: string): string {
  return `arn:aws:quicksight:${scope.region}:${scope.accountId}:dashboard/${dashboardId}`;
}

export function namespaceArn(scope: AccountScope, namespace: string): string {
  return `arn:aws:quicksight:${scope.region}:${scope.accountId}:namespace/${namespace}`;
}

export type ParsedPrincipal =
  | { readonly kind: 'user'; readonly namespace: string; readonly userName: string }
  | { readonly kind: 'namespace'; readonly namespace: string };

/**
 * Reads a permission principal of this account. QuickSight principals are user, group or
 * namespace ARNs; the emulator has no groups, so a group ARN is not a principal it knows.
 */
export function parsePrincipal(scope: AccountScope, arn: string): ParsedPrincipal | undefined {
  const prefix = `arn:aws:quicksight:${scope.region}:${scope.accountId}:`;
  if (!arn.startsWith(prefix)) return undefined;
  const resource = arn.slice(prefix.length);
  const user = /^user\/([^/]+)\/(.+)$/.exec(resource);
  if (user?.[1] && user[2]) return { kind: 'user', namespace: user[1], userName: user[2] };
  const namespace = /^namespace\/([^/]+)$/.exec(resource);
  if (namespace?.[1]) return { kind: 'namespace', namespace: namespace[1] };
  return undefined;
}
