import { text, arn, restRules, SEGMENT, path, type CallScope } from './services.ts';

/**
 * QuickSight's API as the local IAM gate reads it: each REST route's IAM action and the
 * resources it is authorized on (users, groups, dashboards, data sources, datasets, ingestions).
 */

const qsUser = (scope: CallScope, namespace: string, user: string) =>
  arn(scope, 'quicksight', `user/${namespace}/${user}`);
const qsDashboard = (scope: CallScope, id: string) => arn(scope, 'quicksight', `dashboard/${id}`);
const qsSnapshotJob = (scope: CallScope, dashboardId: string, jobId: string) =>
  arn(scope, 'quicksight', `dashboard/${dashboardId}/snapshot-job/${jobId}`);
const qsGroup = (scope: CallScope, namespace: string, group: string) =>
  arn(scope, 'quicksight', `group/${namespace}/${group}`);
const qsDataSource = (scope: CallScope, id: string) => arn(scope, 'quicksight', `datasource/${id}`);
const qsDataSet = (scope: CallScope, id: string) => arn(scope, 'quicksight', `dataset/${id}`);
const qsIngestion = (scope: CallScope, dataSetId: string, id: string) =>
  arn(scope, 'quicksight', `dataset/${dataSetId}/ingestion/${id}`);

/** The data sources a CreateDataSet request reads (each physical table's DataSourceArn). */
function dataSourcesOf(body: Record<string, unknown>): string[] {
  const tables =
    body.PhysicalTableMap !== null && typeof body.PhysicalTableMap === 'object'
      ? Object.values(body.PhysicalTableMap)
      : [];
  return tables.flatMap((table) => {
    const source = (table ?? {}) as Record<string, { DataSourceArn?: unknown } | undefined>;
    return Object.values(source).flatMap((member) =>
      text(member?.DataSourceArn) ? [member!.DataSourceArn as string] : [],
    );
  });
}

// '/account' covers DescribeAccountSubscription (GET /account/{id}) besides the /accounts/ routes.
export const quicksightRules = restRules(
  'quicksight',
  '/account',
  { code: 'AccessDeniedException', status: 401 },
  'Message',
  [
    {
      method: 'POST',
      pattern: path('', 'accounts', SEGMENT, 'namespaces', SEGMENT, 'users'),
      operation: 'RegisterUser',
      resources: (scope, [, namespace], body) => [
        qsUser(scope, namespace!, text(body.UserName) ?? text(body.Email) ?? '*'),
      ],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'namespaces', SEGMENT, 'users'),
      operation: 'ListUsers',
      resources: (scope, [, ns]) => [qsUser(scope, ns!, '*')],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'namespaces', SEGMENT, 'users', SEGMENT),
      operation: 'DescribeUser',
      resources: (scope, [, ns, user]) => [qsUser(scope, ns!, user!)],
    },
    {
      method: 'DELETE',
      pattern: path('', 'accounts', SEGMENT, 'namespaces', SEGMENT, 'users', SEGMENT),
      operation: 'DeleteUser',
      resources: (scope, [, ns, user]) => [qsUser(scope, ns!, user!)],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'namespaces', SEGMENT, 'users', SEGMENT, 'groups'),
      operation: 'ListUserGroups',
      resources: (scope, [, ns, user]) => [qsUser(scope, ns!, user!)],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'dashboards'),
      operation: 'ListDashboards',
      resources: (scope) => [qsDashboard(scope, '*')],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'dashboards', SEGMENT),
      operation: 'DescribeDashboard',
      resources: (scope, [, id]) => [qsDashboard(scope, id!)],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'dashboards', SEGMENT, 'definition'),
      // The Service Authorization Reference has no action of its own for it: quicksight:DescribeDashboard.
      operation: 'DescribeDashboard',
      resources: (scope, [, id]) => [qsDashboard(scope, id!)],
    },
    // Snapshot jobs are authorized on the job (the Service Authorization Reference's dashboardSnapshotJob resource
    // type, dashboard/<dashboard id>/snapshot-job/<job id>); a start names its job in the body.
    {
      method: 'POST',
      pattern: path('', 'accounts', SEGMENT, 'dashboards', SEGMENT, 'snapshot-jobs'),
      operation: 'StartDashboardSnapshotJob',
      resources: (scope, [, id], body) => [qsSnapshotJob(scope, id!, String(body.SnapshotJobId ?? ''))],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'dashboards', SEGMENT, 'snapshot-jobs', SEGMENT),
      operation: 'DescribeDashboardSnapshotJob',
      resources: (scope, [, id, job]) => [qsSnapshotJob(scope, id!, job!)],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'dashboards', SEGMENT, 'snapshot-jobs', SEGMENT, 'result'),
      operation: 'DescribeDashboardSnapshotJobResult',
      resources: (scope, [, id, job]) => [qsSnapshotJob(scope, id!, job!)],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'dashboards', SEGMENT, 'permissions'),
      operation: 'DescribeDashboardPermissions',
      resources: (scope, [, id]) => [qsDashboard(scope, id!)],
    },
    {
      method: 'PUT',
      pattern: path('', 'accounts', SEGMENT, 'dashboards', SEGMENT, 'permissions'),
      operation: 'UpdateDashboardPermissions',
      resources: (scope, [, id]) => [qsDashboard(scope, id!)],
    },
    {
      method: 'POST',
      pattern: path('', 'accounts', SEGMENT, 'embed-url', 'registered-user'),
      operation: 'GenerateEmbedUrlForRegisteredUser',
      // Authorized on the user the URL is for; the dashboards are checked against that user's permissions.
      resources: (scope, _labels, body) => [text(body.UserArn) ?? qsUser(scope, 'default', '*')],
    },
    {
      method: 'GET',
      pattern: path('', 'account', SEGMENT),
      operation: 'DescribeAccountSubscription',
      resources: (scope, [id]) => [arn(scope, 'quicksight', `account/${id!}`)],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'namespaces', SEGMENT),
      operation: 'DescribeNamespace',
      resources: (scope, [, ns]) => [arn(scope, 'quicksight', `namespace/${ns!}`)],
    },
    {
      method: 'POST',
      pattern: path('', 'accounts', SEGMENT, 'namespaces', SEGMENT, 'groups'),
      operation: 'CreateGroup',
      resources: (scope, [, ns], body) => [qsGroup(scope, ns!, text(body.GroupName) ?? '*')],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'namespaces', SEGMENT, 'groups'),
      operation: 'ListGroups',
      resources: (scope, [, ns]) => [qsGroup(scope, ns!, '*')],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'namespaces', SEGMENT, 'groups', SEGMENT),
      operation: 'DescribeGroup',
      resources: (scope, [, ns, g]) => [qsGroup(scope, ns!, g!)],
    },
    {
      method: 'DELETE',
      pattern: path('', 'accounts', SEGMENT, 'namespaces', SEGMENT, 'groups', SEGMENT),
      operation: 'DeleteGroup',
      resources: (scope, [, ns, g]) => [qsGroup(scope, ns!, g!)],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'namespaces', SEGMENT, 'groups', SEGMENT, 'members'),
      operation: 'ListGroupMemberships',
      resources: (scope, [, ns, g]) => [qsGroup(scope, ns!, g!)],
    },
    {
      method: 'PUT',
      pattern: path('', 'accounts', SEGMENT, 'namespaces', SEGMENT, 'groups', SEGMENT, 'members', SEGMENT),
      operation: 'CreateGroupMembership',
      resources: (scope, [, ns, g]) => [qsGroup(scope, ns!, g!)],
    },
    {
      method: 'DELETE',
      pattern: path('', 'accounts', SEGMENT, 'namespaces', SEGMENT, 'groups', SEGMENT, 'members', SEGMENT),
      operation: 'DeleteGroupMembership',
      resources: (scope, [, ns, g]) => [qsGroup(scope, ns!, g!)],
    },
    // The Service Authorization Reference lists no resource type for CreateDataSource and ListIngestions: IAM
    // authorizes them on "*".
    {
      method: 'POST',
      pattern: path('', 'accounts', SEGMENT, 'data-sources'),
      operation: 'CreateDataSource',
      resources: () => ['*'],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'data-sources', SEGMENT),
      operation: 'DescribeDataSource',
      resources: (scope, [, id]) => [qsDataSource(scope, id!)],
    },
    {
      method: 'DELETE',
      pattern: path('', 'accounts', SEGMENT, 'data-sources', SEGMENT),
      operation: 'DeleteDataSource',
      resources: (scope, [, id]) => [qsDataSource(scope, id!)],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'data-sources', SEGMENT, 'permissions'),
      operation: 'DescribeDataSourcePermissions',
      resources: (scope, [, id]) => [qsDataSource(scope, id!)],
    },
    {
      method: 'POST',
      pattern: path('', 'accounts', SEGMENT, 'data-sources', SEGMENT, 'permissions'),
      operation: 'UpdateDataSourcePermissions',
      resources: (scope, [, id]) => [qsDataSource(scope, id!)],
    },
    // The API reference names dataset/* as ListDataSets' permissions resource, but the Service
    // Authorization Reference lists no resource type for it: IAM authorizes it on "*".
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'data-sets'),
      operation: 'ListDataSets',
      resources: () => ['*'],
    },
    {
      method: 'POST',
      pattern: path('', 'accounts', SEGMENT, 'data-sets'),
      operation: 'CreateDataSet',
      // Authorized on every data source it reads (the Service Authorization Reference's only resource type for it).
      resources: (_scope, _l, body) => {
        const sources = dataSourcesOf(body);
        return sources.length > 0 ? sources : ['*'];
      },
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'data-sets', SEGMENT),
      operation: 'DescribeDataSet',
      resources: (scope, [, id]) => [qsDataSet(scope, id!)],
    },
    {
      method: 'PUT',
      pattern: path('', 'accounts', SEGMENT, 'data-sets', SEGMENT),
      operation: 'UpdateDataSet',
      resources: (scope, [, id]) => [qsDataSet(scope, id!)],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'data-sets', SEGMENT, 'permissions'),
      operation: 'DescribeDataSetPermissions',
      resources: (scope, [, id]) => [qsDataSet(scope, id!)],
    },
    {
      method: 'POST',
      pattern: path('', 'accounts', SEGMENT, 'data-sets', SEGMENT, 'permissions'),
      operation: 'UpdateDataSetPermissions',
      resources: (scope, [, id]) => [qsDataSet(scope, id!)],
    },
    {
      method: 'PUT',
      pattern: path('', 'accounts', SEGMENT, 'data-sets', SEGMENT, 'ingestions', SEGMENT),
      operation: 'CreateIngestion',
      resources: (scope, [, ds, id]) => [qsIngestion(scope, ds!, id!)],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'data-sets', SEGMENT, 'ingestions', SEGMENT),
      operation: 'DescribeIngestion',
      resources: (scope, [, ds, id]) => [qsIngestion(scope, ds!, id!)],
    },
    {
      method: 'GET',
      pattern: path('', 'accounts', SEGMENT, 'data-sets', SEGMENT, 'ingestions'),
      operation: 'ListIngestions',
      resources: () => ['*'],
    },
  ],
);
