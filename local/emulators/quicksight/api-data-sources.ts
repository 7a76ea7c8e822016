import { z } from 'zod';
import { dataSourceArn, type AccountScope } from './catalog.ts';
import { manifestFileLocationSchema, resourcePermissionListSchema } from './data-shapes.ts';
import { dataSourceNotFound, invalidParameter, resourceExists } from './errors.ts';
import { parseBody, requireAccount, requireParam } from './input.ts';
import type { StoredDataSource } from './state-data.ts';
import type { ApiOperation } from './api-types.ts';

/** CreateDataSource and DescribeDataSource, for S3 data sources read through a manifest file. */

/** Resource IDs become the last part of an ARN, so they hold no slash. */
export const RESOURCE_ID = /^[^/]{1,512}$/;
const ROLE_ARN = /^arn:[\w-]+:iam::\d{12}:role\/.+$/;
const DATA_SOURCE_TYPES_NOT_EMULATED = 'This emulator creates S3 data sources only';

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
  Permissions: resourcePermissionListSchema.optional(),
  // Only for database sources; an S3 source connects with QuickSight's role, not credentials.
  Credentials: z.undefined({ error: 'is not used by S3 data sources' }).optional(),
  VpcConnectionProperties: z.undefined({ error: 'is not used by S3 data sources' }).optional(),
});

const epochSeconds = (ms: number) => ms / 1000;

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
  };
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
      const now = context.now();
      // QuickSight creates data sources asynchronously; this one is ready by the next call.
      const source: StoredDataSource = {
        dataSourceId: input.DataSourceId,
        name: input.Name,
        type: 'S3',
        manifest: s3.ManifestFileLocation,
        roleArn: s3.RoleArn,
        status: 'CREATION_SUCCESSFUL',
        createdAt: now,
        updatedAt: now,
      };
      await context.store.commit({ type: 'putDataSource', dataSource: source });
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
      requireAccount(context.scope, request.params.AwsAccountId, 'DescribeDataSource');
      const dataSourceId = requireParam(request.params, 'DataSourceId');
      const source = context.store.state.data.dataSource(dataSourceId);
      if (!source) throw dataSourceNotFound(dataSourceArn(context.scope, dataSourceId));
      return { body: { DataSource: dataSourceView(context.scope, source) } };
    },
  },
];
