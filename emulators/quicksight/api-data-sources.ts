import { z } from 'zod';
import { dataSourceArn, type AccountScope } from './arns.ts';
import { manifestFileLocationSchema } from './data-shapes.ts';
import { finishDataSourceCreation } from './data-source-check.ts';
import { dataSourceNotFound, invalidParameter, resourceExists } from './errors.ts';
import { parseBody, requireAccount, requireParam } from './input.ts';
import {
  DATA_SOURCE_ACTIONS,
  mergePermissions,
  permissionListSchema,
  requireValidPrincipals,
} from './resource-permissions.ts';
import type { StoredDataSource } from './state-data.ts';
import { epochSeconds, type ApiContext, type ApiOperation, type ApiRequest } from './api-types.ts';

/**
 * S3 data sources read through a manifest file: CreateDataSource, DescribeDataSource,
 * DeleteDataSource, DescribeDataSourcePermissions and UpdateDataSourcePermissions. Creation is
 * asynchronous, as in QuickSight: CreateDataSource answers 202 with CreationStatus
 * CREATION_IN_PROGRESS (API reference,
 * https://docs.aws.amazon.com/quicksight/latest/APIReference/API_CreateDataSource.html) and the
 * source ends CREATION_SUCCESSFUL, or CREATION_FAILED with ErrorInfo, a little later
 * (data-source-check.ts); until then no dataset may use it.
 */

/** Resource IDs become the last part of an ARN, so they hold no slash. */
export const RESOURCE_ID = /^[^/]{1,512}$/;
const ROLE_ARN = /^arn:[\w-]+:iam::\d{12}:role\/.+$/;
const DATA_SOURCE_TYPES_NOT_EMULATED = 'This emulator creates S3 data sources only';
const dataSourcePermissions = permissionListSchema(DATA_SOURCE_ACTIONS);

const createDataSourceSchema = z.object({
  DataSourceId: z.string({ error: 'is required' }).regex(RESOURCE_ID, 'must be 1-512 characters without /'),
  Name: z.string({ error: 'is required' }).min(1).max(128),
  Type: z.string({ error: 'is required' }).min(1),
  DataSourceParameters: z
    .object({
      S3Parameters: z
        .object({
          ManifestFileLocation: manifestFileLocationSchema,
          RoleArn: z.string().min(20).max(2048).regex(ROLE_ARN, 'must be an IAM role ARN').optional(),
        })
        .optional(),
    })
    .optional(),
  Permissions: dataSourcePermissions.optional(),
  // Only for database sources; an S3 source connects with QuickSight's role, not credentials.
  Credentials: z.undefined({ error: 'is not used by S3 data sources' }).optional(),
  VpcConnectionProperties: z.undefined({ error: 'is not used by S3 data sources' }).optional(),
});

/** UpdateDataSourcePermissions: "Minimum number of 1 item. Maximum number of 64 items." each. */
const updatePermissionsSchema = z.object({
  GrantPermissions: dataSourcePermissions.optional(),
  RevokePermissions: dataSourcePermissions.optional(),
});

function dataSourceView(scope: AccountScope, source: StoredDataSource) {
  return {
    Arn: dataSourceArn(scope, source.dataSourceId),
    DataSourceId: source.dataSourceId,
    Name: source.name,
    Type: source.type,
    Status: source.status,
    CreatedTime: epochSeconds(source.createdAt),
    LastUpdatedTime: epochSeconds(source.updatedAt),
    DataSourceParameters: {
      S3Parameters: { ManifestFileLocation: source.manifest, ...(source.roleArn && { RoleArn: source.roleArn }) },
    },
    ...(source.errorInfo && { ErrorInfo: source.errorInfo }),
  };
}

function targetDataSource(request: ApiRequest, context: ApiContext, operation: string): StoredDataSource {
  requireAccount(context.scope, request.params.AwsAccountId, operation);
  const dataSourceId = requireParam(request.params, 'DataSourceId');
  const source = context.store.state.data.dataSource(dataSourceId);
  if (!source) throw dataSourceNotFound(dataSourceArn(context.scope, dataSourceId));
  return source;
}

/** Schedules the end of a data source's creation (and again after a restart, for one left in progress). */
export function finishCreationLater(context: ApiContext, dataSourceId: string): void {
  context.later(`datasource/${dataSourceId}`, context.dataSourceCreationMs, () =>
    finishDataSourceCreation(context, dataSourceId),
  );
}

export const dataSourceOperations: readonly ApiOperation[] = [
  {
    name: 'CreateDataSource',
    method: 'POST',
    path: '/accounts/{AwsAccountId}/data-sources',
    async handle(request, context) {
      requireAccount(context.scope, request.params.AwsAccountId, 'CreateDataSource');
      const input = parseBody(createDataSourceSchema, request.body);
      if (input.Type !== 'S3') throw invalidParameter(`${DATA_SOURCE_TYPES_NOT_EMULATED}; got Type ${input.Type}`);
      const s3 = input.DataSourceParameters?.S3Parameters;
      if (!s3) throw invalidParameter('DataSourceParameters.S3Parameters is required for Type S3');
      if (context.store.state.data.dataSource(input.DataSourceId)) {
        throw resourceExists(`The data source ${input.DataSourceId}`, 'DATA_SOURCE');
      }
      const permissions = input.Permissions ?? [];
      requireValidPrincipals(context, permissions, { mustExist: true, namespaces: false });
      const now = context.now();
      const source: StoredDataSource = {
        dataSourceId: input.DataSourceId,
        name: input.Name,
        type: 'S3',
        manifest: s3.ManifestFileLocation,
        roleArn: s3.RoleArn,
        status: 'CREATION_IN_PROGRESS',
        permissions: mergePermissions([], permissions, []),
        createdAt: now,
        updatedAt: now,
      };
      await context.store.commit({ type: 'putDataSource', dataSource: source });
      finishCreationLater(context, source.dataSourceId);
      return {
        status: 202,
        body: {
          Arn: dataSourceArn(context.scope, source.dataSourceId),
          DataSourceId: source.dataSourceId,
          CreationStatus: 'CREATION_IN_PROGRESS',
        },
      };
    },
  },
  {
    name: 'DescribeDataSource',
    method: 'GET',
    path: '/accounts/{AwsAccountId}/data-sources/{DataSourceId}',
    handle(request, context) {
      const source = targetDataSource(request, context, 'DescribeDataSource');
      return { body: { DataSource: dataSourceView(context.scope, source) } };
    },
  },
  {
    // DeleteDataSource: "Deletes the data source permanently. This operation breaks all the
    // datasets that reference the deleted data source."
    name: 'DeleteDataSource',
    method: 'DELETE',
    path: '/accounts/{AwsAccountId}/data-sources/{DataSourceId}',
    async handle(request, context) {
      const source = targetDataSource(request, context, 'DeleteDataSource');
      await context.store.commit({ type: 'deleteDataSource', dataSourceId: source.dataSourceId });
      return {
        body: { Arn: dataSourceArn(context.scope, source.dataSourceId), DataSourceId: source.dataSourceId },
      };
    },
  },
  {
    name: 'DescribeDataSourcePermissions',
    method: 'GET',
    path: '/accounts/{AwsAccountId}/data-sources/{DataSourceId}/permissions',
    handle(request, context) {
      const source = targetDataSource(request, context, 'DescribeDataSourcePermissions');
      return {
        body: {
          DataSourceArn: dataSourceArn(context.scope, source.dataSourceId),
          DataSourceId: source.dataSourceId,
          Permissions: source.permissions,
        },
      };
    },
  },
  {
    name: 'UpdateDataSourcePermissions',
    method: 'POST',
    path: '/accounts/{AwsAccountId}/data-sources/{DataSourceId}/permissions',
    async handle(request, context) {
      const source = targetDataSource(request, context, 'UpdateDataSourcePermissions');
      const input = parseBody(updatePermissionsSchema, request.body);
      const grants = input.GrantPermissions ?? [];
      const revocations = input.RevokePermissions ?? [];
      requireValidPrincipals(context, grants, { mustExist: true, namespaces: false });
      requireValidPrincipals(context, revocations, { mustExist: false, namespaces: false });
      const permissions = mergePermissions(source.permissions, grants, revocations);
      await context.store.commit({
        type: 'putDataSource',
        dataSource: { ...source, permissions, updatedAt: context.now() },
      });
      return {
        body: { DataSourceArn: dataSourceArn(context.scope, source.dataSourceId), DataSourceId: source.dataSourceId },
      };
    },
  },
];
