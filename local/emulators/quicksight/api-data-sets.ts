import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { dataSetArn, findSampleDataSet, ingestionArn, resourceIdOf } from './catalog.ts';
import { RESOURCE_ID } from './api-data-sources.ts';
import { runIngestion } from './api-ingestions.ts';
import {
  physicalTableMapSchema,
  resourcePermissionListSchema,
  rowLevelPermissionDataSetSchema,
  type InputColumn,
} from './data-shapes.ts';
import { dataSetNotFound, dataSourceNotFound, invalidParameter, resourceExists } from './errors.ts';
import { parseBody, requireAccount, requireParam } from './input.ts';
import { sampleDataSetView } from './samples.ts';
import type { StoredDataSet } from './state-data.ts';
import type { ApiContext, ApiOperation } from './api-types.ts';

/**
 * CreateDataSet and DescribeDataSet. Datasets read one S3 table into SPICE; creating one
 * starts its first ingestion (the response's IngestionId). The sample datasets behind the
 * sample dashboards are described too, with the row-level security the emulator was given.
 */

const NOT_EMULATED = 'is not supported by this emulator';

/** A LogicalTable that passes one physical table through unchanged (no DataTransforms). */
const logicalTableSchema = z.object({
  Alias: z.string({ error: 'is required' }).min(1).max(64),
  Source: z.object({ PhysicalTableId: z.string({ error: 'is required' }).min(1) }, { error: 'is required' }),
  DataTransforms: z.array(z.unknown()).max(0, `with transforms ${NOT_EMULATED}`).optional(),
});

const createDataSetSchema = z.object({
  DataSetId: z.string({ error: 'is required' }).regex(RESOURCE_ID, 'must be 1-512 characters without /'),
  Name: z.string({ error: 'is required' }).min(1).max(128),
  PhysicalTableMap: physicalTableMapSchema,
  LogicalTableMap: z.record(z.string().min(1).max(64), logicalTableSchema).optional(),
  ImportMode: z.enum(['SPICE', 'DIRECT_QUERY'], { error: 'must be SPICE or DIRECT_QUERY' }),
  Permissions: resourcePermissionListSchema.optional(),
  RowLevelPermissionDataSet: rowLevelPermissionDataSetSchema.optional(),
  // Restrictions the emulator would not apply are refused rather than silently dropped.
  RowLevelPermissionTagConfiguration: z.undefined({ error: NOT_EMULATED }).optional(),
  ColumnLevelPermissionRules: z.undefined({ error: NOT_EMULATED }).optional(),
  UseAs: z.literal('RLS_RULES', { error: 'must be RLS_RULES' }).optional(),
});
type CreateDataSetInput = z.infer<typeof createDataSetSchema>;

/** S3Source.InputColumns: "For files that aren't JSON, only STRING data types are supported in input columns." */
function requireStringColumns(columns: readonly InputColumn[]): void {
  const other = columns.find((column) => column.Type !== 'STRING');
  if (other)
    throw invalidParameter(
      `Input column ${other.Name} is ${other.Type}: only STRING columns are supported for files that aren't JSON`,
    );
}

/** Checks beyond the shapes; throws the documented error of the first problem. */
function requireValidDataSet(context: ApiContext, input: CreateDataSetInput): void {
  const tables = Object.entries(input.PhysicalTableMap);
  if (tables.length !== 1) throw invalidParameter(`PhysicalTableMap with more than one table ${NOT_EMULATED}`);
  if (input.ImportMode !== 'SPICE')
    throw invalidParameter('S3 data can only be imported into SPICE: ImportMode must be SPICE');
  for (const [id, { S3Source: source }] of tables) {
    const format = (source.UploadSettings?.Format ?? 'CSV').toUpperCase();
    if (format !== 'CSV' && format !== 'TSV')
      throw invalidParameter(`PhysicalTableMap.${id}: ${format} files ${NOT_EMULATED} (CSV and TSV are)`);
    requireStringColumns(source.InputColumns);
    const dataSourceId = resourceIdOf(context.scope, 'datasource', source.DataSourceArn);
    if (dataSourceId === undefined)
      throw invalidParameter(`PhysicalTableMap.${id}.S3Source.DataSourceArn is not a data source ARN of this account`);
    if (!context.store.state.data.dataSource(dataSourceId)) throw dataSourceNotFound(source.DataSourceArn);
  }
  for (const [id, logical] of Object.entries(input.LogicalTableMap ?? {})) {
    if (!(logical.Source.PhysicalTableId in input.PhysicalTableMap)) {
      throw invalidParameter(`LogicalTableMap.${id}.Source.PhysicalTableId names no table of PhysicalTableMap`);
    }
  }
  const rls = input.RowLevelPermissionDataSet;
  if (rls) {
    if (input.UseAs === 'RLS_RULES')
      throw invalidParameter('A dataset used as RLS_RULES cannot itself apply row-level security');
    const rulesId = resourceIdOf(context.scope, 'dataset', rls.Arn);
    if (rulesId === undefined)
      throw invalidParameter('RowLevelPermissionDataSet.Arn is not a dataset ARN of this account');
    if (rulesId === input.DataSetId) throw invalidParameter('A dataset cannot be its own row-level security rules');
  }
}

const OUTPUT_TYPES: Record<string, string> = { INTEGER: 'INTEGER', DECIMAL: 'DECIMAL', DATETIME: 'DATETIME' };

function storedDataSetView(context: ApiContext, dataSet: StoredDataSet) {
  const columns = Object.values(dataSet.physicalTableMap).flatMap((table) => table.S3Source.InputColumns);
  const loaded = context.store.state.data.spiceTable(dataSet.dataSetId);
  const lastLoad = loaded && context.store.state.data.ingestion(dataSet.dataSetId, loaded.ingestionId);
  return {
    Arn: dataSetArn(context.scope, dataSet.dataSetId),
    DataSetId: dataSet.dataSetId,
    Name: dataSet.name,
    CreatedTime: dataSet.createdAt / 1000,
    LastUpdatedTime: dataSet.updatedAt / 1000,
    PhysicalTableMap: dataSet.physicalTableMap,
    ...(dataSet.logicalTableMap && { LogicalTableMap: dataSet.logicalTableMap }),
    OutputColumns: columns.map((column) => ({ Name: column.Name, Type: OUTPUT_TYPES[column.Type] ?? 'STRING' })),
    ImportMode: dataSet.importMode,
    ConsumedSpiceCapacityInBytes: lastLoad?.sizeInBytes ?? 0,
    ...(dataSet.rowLevelPermissionDataSet && { RowLevelPermissionDataSet: dataSet.rowLevelPermissionDataSet }),
    ...(dataSet.useAs && { UseAs: dataSet.useAs }),
  };
}

export const dataSetOperations: readonly ApiOperation[] = [
  {
    name: 'CreateDataSet',
    method: 'POST',
    path: '/accounts/{AwsAccountId}/data-sets',
    async handle(request, context) {
      requireAccount(context.scope, request.params.AwsAccountId, 'CreateDataSet');
      const input = parseBody(createDataSetSchema, request.body);
      if (context.store.state.data.dataSet(input.DataSetId) || findSampleDataSet(input.DataSetId)) {
        throw resourceExists(`The dataset ${input.DataSetId}`, 'DATA_SET');
      }
      requireValidDataSet(context, input);
      const now = context.now();
      const dataSet: StoredDataSet = {
        dataSetId: input.DataSetId,
        name: input.Name,
        importMode: input.ImportMode,
        physicalTableMap: input.PhysicalTableMap,
        logicalTableMap: input.LogicalTableMap,
        rowLevelPermissionDataSet: input.RowLevelPermissionDataSet,
        useAs: input.UseAs,
        permissions: input.Permissions ?? [],
        createdAt: now,
        updatedAt: now,
      };
      await context.store.commit({ type: 'putDataSet', dataSet });
      const ingestionId = randomUUID();
      await runIngestion(context, dataSet.dataSetId, ingestionId, 'INITIAL_INGESTION');
      return {
        status: 201,
        body: {
          Arn: dataSetArn(context.scope, dataSet.dataSetId),
          DataSetId: dataSet.dataSetId,
          IngestionArn: ingestionArn(context.scope, dataSet.dataSetId, ingestionId),
          IngestionId: ingestionId,
        },
      };
    },
  },
  {
    name: 'DescribeDataSet',
    method: 'GET',
    path: '/accounts/{AwsAccountId}/data-sets/{DataSetId}',
    handle(request, context) {
      requireAccount(context.scope, request.params.AwsAccountId, 'DescribeDataSet');
      const dataSetId = requireParam(request.params, 'DataSetId');
      const sample = findSampleDataSet(dataSetId);
      if (sample) return { body: { DataSet: sampleDataSetView(context.scope, context.rowLevelSecurity, sample) } };
      const dataSet = context.store.state.data.dataSet(dataSetId);
      if (!dataSet) throw dataSetNotFound(dataSetArn(context.scope, dataSetId));
      return { body: { DataSet: storedDataSetView(context, dataSet) } };
    },
  },
];
