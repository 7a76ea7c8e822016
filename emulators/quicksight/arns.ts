/** The names QuickSight gives an account's resources (ARNs), and the console link of a dashboard. */

export const DEFAULT_NAMESPACE = 'default';

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

export function groupArn(scope: AccountScope, namespace: string, groupName: string): string {
  return `arn:aws:quicksight:${scope.region}:${scope.accountId}:group/${namespace}/${groupName}`;
}

export function dataSourceArn(scope: AccountScope, dataSourceId: string): string {
  return `arn:aws:quicksight:${scope.region}:${scope.accountId}:datasource/${dataSourceId}`;
}

export function dataSetArn(scope: AccountScope, dataSetId: string): string {
  return `arn:aws:quicksight:${scope.region}:${scope.accountId}:dataset/${dataSetId}`;
}

export function ingestionArn(scope: AccountScope, dataSetId: string, ingestionId: string): string {
  return `${dataSetArn(scope, dataSetId)}/ingestion/${ingestionId}`;
}

export function snapshotJobArn(scope: AccountScope, dashboardId: string, snapshotJobId: string): string {
  return `${dashboardArn(scope, dashboardId)}/snapshot-job/${snapshotJobId}`;
}

/** The ID in a data source or dataset ARN of this account, or undefined for any other ARN. */
export function resourceIdOf(scope: AccountScope, kind: 'datasource' | 'dataset', arn: string): string | undefined {
  const prefix = `arn:aws:quicksight:${scope.region}:${scope.accountId}:${kind}/`;
  if (!arn.startsWith(prefix)) return undefined;
  const id = arn.slice(prefix.length);
  return id === '' || id.includes('/') ? undefined : id;
}

export type ParsedPrincipal =
  | { readonly kind: 'user'; readonly namespace: string; readonly userName: string }
  | { readonly kind: 'group'; readonly namespace: string; readonly groupName: string }
  | { readonly kind: 'namespace'; readonly namespace: string };

/** Reads a permission principal of this account: a user, group or namespace ARN. */
export function parsePrincipal(scope: AccountScope, arn: string): ParsedPrincipal | undefined {
  const prefix = `arn:aws:quicksight:${scope.region}:${scope.accountId}:`;
  if (!arn.startsWith(prefix)) return undefined;
  const resource = arn.slice(prefix.length);
  const user = /^user\/([^/]+)\/(.+)$/.exec(resource);
  if (user?.[1] && user[2]) return { kind: 'user', namespace: user[1], userName: user[2] };
  const group = /^group\/([^/]+)\/(.+)$/.exec(resource);
  if (group?.[1] && group[2]) return { kind: 'group', namespace: group[1], groupName: group[2] };
  const namespace = /^namespace\/([^/]+)$/.exec(resource);
  if (namespace?.[1]) return { kind: 'namespace', namespace: namespace[1] };
  return undefined;
}
