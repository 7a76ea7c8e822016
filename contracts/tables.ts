/**
 * DynamoDB tables of the product. The CDK data construct and local mode (dynalite) both
 * create their tables from these definitions, so the two cannot drift.
 *
 * - views: one item per dashboard assigned to a user (GraphQL type TableauView).
 * - dashboards: the dashboard catalogue (GraphQL type DashboardMetadata).
 * - state: small per-user and per-key items the server rules need: the default-view
 *   pointer (pk USER#<email>, sk DEFAULT), contact rate-limit records, the view an admin
 *   assignment wrote for a dashboard (pk USER#<email>, sk ASSIGNED#<dashboard id>, viewId)
 *   and dashboard-id claims that keep catalogue IDs unique case-insensitively
 *   (pk DASHBOARD#<lowercased id>, sk CLAIM), and the portal's copy of the user directory that
 *   the admin pages list (pk DIRECTORY, sk <lowercased email>; lambdas/shared/data/directory.ts),
 *   and the dashboard subscriptions (pk SUBSCRIPTIONS, sk <email>#<id>; lambdas/shared/data/subscriptions.ts),
 *   the active ones also in the sparse index byDueTime by their next delivery time.
 * - audit: the admin activity trail (pk AUDIT, sk <ISO time>#<id>), read newest first.
 * - usage: dashboard view events and the aggregates the Insights page reads
 *   (lambdas/shared/data/usage.ts), every item expiring through TTL.
 */
type AttributeType = 'S' | 'N';

export interface KeyDefinition {
  readonly name: string;
  readonly type: AttributeType;
}

interface IndexDefinition {
  readonly indexName: string;
  readonly partitionKey: KeyDefinition;
  readonly sortKey?: KeyDefinition;
}

export interface TableDefinition {
  /** Construct id in CDK and table-name suffix in local mode. */
  readonly id: 'Views' | 'Dashboards' | 'State' | 'Audit' | 'Usage';
  /** Environment variable through which handlers receive the table name. */
  readonly envVar: 'VIEWS_TABLE' | 'DASHBOARDS_TABLE' | 'STATE_TABLE' | 'AUDIT_TABLE' | 'USAGE_TABLE';
  readonly partitionKey: KeyDefinition;
  readonly sortKey?: KeyDefinition;
  readonly globalSecondaryIndexes: readonly IndexDefinition[];
  /** Attribute holding an epoch-seconds expiry (TTL in AWS; dynalite ignores it). */
  readonly timeToLiveAttribute?: string;
}

export const VIEWS_BY_USER_INDEX = 'byUserEmail';
export const VIEWS_BY_DASHBOARD_INDEX = 'byDashboard';

export const viewsTable: TableDefinition = {
  id: 'Views',
  envVar: 'VIEWS_TABLE',
  partitionKey: { name: 'id', type: 'S' },
  globalSecondaryIndexes: [
    {
      indexName: VIEWS_BY_USER_INDEX,
      partitionKey: { name: 'userEmail', type: 'S' },
      sortKey: { name: 'quicksightDashboardId', type: 'S' },
    },
    {
      indexName: VIEWS_BY_DASHBOARD_INDEX,
      partitionKey: { name: 'quicksightDashboardId', type: 'S' },
      sortKey: { name: 'userEmail', type: 'S' },
    },
  ],
};

export const dashboardsTable: TableDefinition = {
  id: 'Dashboards',
  envVar: 'DASHBOARDS_TABLE',
  partitionKey: { name: 'id', type: 'S' },
  globalSecondaryIndexes: [],
};

/** Active subscriptions by their next delivery or retry time (sparse: only items with `dueKey`). */
export const STATE_DUE_INDEX = 'byDueTime';

export const stateTable: TableDefinition = {
  id: 'State',
  envVar: 'STATE_TABLE',
  partitionKey: { name: 'pk', type: 'S' },
  sortKey: { name: 'sk', type: 'S' },
  globalSecondaryIndexes: [
    { indexName: STATE_DUE_INDEX, partitionKey: { name: 'dueKey', type: 'S' }, sortKey: { name: 'dueAt', type: 'S' } },
  ],
  timeToLiveAttribute: 'expiresAt',
};

export const auditTable: TableDefinition = {
  id: 'Audit',
  envVar: 'AUDIT_TABLE',
  partitionKey: { name: 'pk', type: 'S' },
  sortKey: { name: 'sk', type: 'S' },
  globalSecondaryIndexes: [],
};

export const usageTable: TableDefinition = {
  id: 'Usage',
  envVar: 'USAGE_TABLE',
  partitionKey: { name: 'pk', type: 'S' },
  sortKey: { name: 'sk', type: 'S' },
  globalSecondaryIndexes: [],
  timeToLiveAttribute: 'expiresAt',
};

export const tables: readonly TableDefinition[] = [viewsTable, dashboardsTable, stateTable, auditTable, usageTable];
