/**
 * The row-level-security rules file and what QuickSight is told about it: facts the functions
 * that write the rules, the stack that grants access to them and the tools that check them share.
 */

/** Where the rules file and its manifest live in the rules bucket; every grant on them is confined here. */
export const RULES_PREFIX = 'company-rules/';
export const RULES_KEY = `${RULES_PREFIX}rules.csv`;
export const MANIFEST_KEY = `${RULES_PREFIX}manifest.json`;

/**
 * The columns of the rules file, in order. RowLevelPermissionDataSet.FormatVersion (API
 * reference, https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RowLevelPermissionDataSet.html):
 * "When FormatVersion is VERSION_2, UserARN and GroupARN are required"; the user guide ("Using
 * row-level security with user-based rules to restrict access to a dataset") says the field
 * names are case-sensitive. One rule per company: UserARN empty, GroupARN the company's group,
 * and the company's exact name (the `company` column of every company-scoped dataset).
 */
export const RULES_COLUMNS = ['UserARN', 'GroupARN', 'company'] as const;

/**
 * What the configured QuickSight author may do with the rules dataset: see it, choose it as a
 * dataset's rules and follow its loads, but not change it (the portal writes the rules). The
 * set of the developer guide's UpdateDataSetPermissions example
 * (https://docs.aws.amazon.com/quicksight/latest/developerguide/update-data-set-permissions.html).
 */
export const AUTHOR_DATA_SET_ACTIONS = [
  'quicksight:DescribeDataSet',
  'quicksight:DescribeDataSetPermissions',
  'quicksight:PassDataSet',
  'quicksight:DescribeIngestion',
  'quicksight:ListIngestions',
] as const;

/**
 * What the configured author may do with the rules data source: see and use it, not change it.
 * The set of the developer guide's UpdateDataSourcePermissions example
 * (https://docs.aws.amazon.com/quicksight/latest/developerguide/update-data-source-permissions.html).
 */
export const AUTHOR_DATA_SOURCE_ACTIONS = [
  'quicksight:DescribeDataSource',
  'quicksight:DescribeDataSourcePermissions',
  'quicksight:PassDataSource',
] as const;

/** DataSource.Status values (ResourceStatus) under which a data source may be used. */
const DATA_SOURCE_READY = ['CREATION_SUCCESSFUL', 'UPDATE_SUCCESSFUL'] as const;
/** DataSource.Status values of a data source that will not become ready by itself. */
const DATA_SOURCE_FAILED = ['CREATION_FAILED', 'UPDATE_FAILED'] as const;

/** A data source as DescribeDataSource answers it (the members read here). */
export interface DataSourceState {
  readonly Status?: string;
  readonly ErrorInfo?: { readonly Type?: string; readonly Message?: string };
}

export const isDataSourceReady = (source: DataSourceState): boolean =>
  (DATA_SOURCE_READY as readonly string[]).includes(source.Status ?? '');

export const isDataSourceFailed = (source: DataSourceState): boolean =>
  (DATA_SOURCE_FAILED as readonly string[]).includes(source.Status ?? '');

/** `CREATION_FAILED (ACCESS_DENIED: ...)`: the status with QuickSight's ErrorInfo, as messages name it. */
export const dataSourceStatusText = (source: DataSourceState): string => {
  const status = source.Status ?? 'no status';
  const info = [source.ErrorInfo?.Type, source.ErrorInfo?.Message].filter(Boolean).join(': ');
  return info ? `${status} (${info})` : status;
};

/** The principal a configured author ARN names: a QuickSight user or group of a namespace. */
export interface AuthorPrincipal {
  readonly kind: 'user' | 'group';
  readonly region: string;
  readonly accountId: string;
  readonly namespace: string;
  readonly name: string;
}

const AUTHOR_ARN = /^arn:aws[a-z-]*:quicksight:([a-z0-9-]+):(\d{12}):(user|group)\/([A-Za-z0-9._-]{1,64})\/([^/]+)$/;

/** The user or group an author ARN names; undefined when it is not a QuickSight user or group ARN. */
export const parseAuthorArn = (arn: string): AuthorPrincipal | undefined => {
  const match = AUTHOR_ARN.exec(arn);
  if (!match) return undefined;
  const [, region, accountId, kind, namespace, name] = match;
  return { kind: kind as 'user' | 'group', region: region!, accountId: accountId!, namespace: namespace!, name: name! };
};
