import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { SAMPLE_DATA_SETS, findSampleDataSet, type SampleDataSet } from '#emulators/sample-dashboards/catalog.ts';
import { dataSetArn, ingestionArn, resourceIdOf } from './arns.ts';
import { RESOURCE_ID } from './api-data-sources.ts';
import { runIngestion, type IngestionRequestType } from './api-ingestions.ts';
import {
  physicalTableMapSchema,
  rowLevelPermissionDataSetSchema,
  rowLevelPermissionTagConfigurationSchema,
  type InputColumn,
} from './data-shapes.ts';
import { NOT_EMULATED, dataSetNotFound, dataSourceNotFound, invalidParameter, resourceExists } from './errors.ts';
import { paginate, parseBody, requireAccount, requireParam } from './input.ts';
import {
  DATA_SET_ACTIONS,
  mergePermissions,
  permissionListSchema,
  requireValidPrincipals,
} from './resource-permissions.ts';
import { missingIdentityColumns } from './rls.ts';
import { requireValidTagConfiguration } from './rls-tags.ts';
import { sampleDataSetView } from './samples.ts';
import type { StoredDataSet } from './state-data.ts';
import { epochSeconds, type ApiContext, type ApiOperation, type ApiRequest } from './api-types.ts';

/**
 * CreateDataSet, UpdateDataSet, DescribeDataSet, ListDataSets, DescribeDataSetPermissions and
 * UpdateDataSetPermissions. Datasets read one S3 table into SPICE; creating or updating one starts
 * an ingestion (the response's IngestionId). The sample datasets behind the sample dashboards are
 * described and listed too, with the row-level security the emulator was given.
 */

/** A LogicalTable that passes one physical table through unchanged (no DataTransforms). */
const logicalTableSchema = z.object({
  Alias: z.string({ error: 'is required' }).min(1).max(64),
  Source: z.object({ PhysicalTableId: z.string({ error: 'is required' }).min(1) }, { error: 'is required' }),
  DataTransforms: z.array(z.unknown()).max(0, `with transforms ${NOT_EMULATED}`).optional(),
});

/**
 * The members CreateDataSet and UpdateDataSet share. UpdateDataSet replaces them all: "Partial
 * updates are not supported by this operation"
 * (https://docs.aws.amazon.com/quicksight/latest/APIReference/API_UpdateDataSet.html).
 */
const dataSetDefinitionSchema = z.object({
  Name: z.string({ error: 'is required' }).min(1).max(128),
  PhysicalTableMap: physicalTableMapSchema,
  LogicalTableMap: z.record(z.string().min(1).max(64), logicalTableSchema).optional(),
  ImportMode: z.enum(['SPICE', 'DIRECT_QUERY'], { error: 'must be SPICE or DIRECT_QUERY' }),
  RowLevelPermissionDataSet: rowLevelPermissionDataSetSchema.optional(),
  RowLevelPermissionTagConfiguration: rowLevelPermissionTagConfigurationSchema.optional(),
  // Restrictions the emulator would not apply are refused rather than silently dropped.
  ColumnLevelPermissionRules: z.undefined({ error: NOT_EMULATED }).optional(),
});
type DataSetDefinition = z.infer<typeof dataSetDefinitionSchema>;

const createDataSetSchema = dataSetDefinitionSchema.extend({
  DataSetId: z.string({ error: 'is required' }).regex(RESOURCE_ID, 'must be 1-512 characters without /'),
  Permissions: permissionListSchema(DATA_SET_ACTIONS).optional(),
  UseAs: z.literal('RLS_RULES', { error: 'must be RLS_RULES' }).optional(),
});

/** UpdateDataSetPermissions: "Minimum number of 1 item. Maximum number of 64 items." each. */
const updatePermissionsSchema = z.object({
  GrantPermissions: permissionListSchema(DATA_SET_ACTIONS).optional(),
  RevokePermissions: permissionListSchema(DATA_SET_ACTIONS).optional(),
});

/** S3Source.InputColumns: "For files that aren't JSON, only STRING data types are supported in input columns." */
function requireStringColumns(columns: readonly InputColumn[]): void {
  const other = columns.find((column) => column.Type !== 'STRING');
  if (other)
    throw invalidParameter(
      `Input column ${other.Name} is ${other.Type}: only STRING columns are supported for files that aren't JSON`,
    );
}

/** Checks beyond the shapes; throws the documented error of the first problem. */
function requireValidDataSet(
  context: ApiContext,
  dataSetId: string,
  input: DataSetDefinition,
  useAs: 'RLS_RULES' | undefined,
): void {
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
    const dataSource = context.store.state.data.dataSource(dataSourceId);
    if (!dataSource) throw dataSourceNotFound(source.DataSourceArn);
    // A data source may be used once QuickSight has created it (DataSource.Status).
    if (dataSource.status !== 'CREATION_SUCCESSFUL') {
      throw invalidParameter(
        `The data source ${source.DataSourceArn} is ${dataSource.status}: a dataset can use it once its Status is CREATION_SUCCESSFUL or UPDATE_SUCCESSFUL`,
      );
    }
  }
  for (const [id, logical] of Object.entries(input.LogicalTableMap ?? {})) {
    if (!(logical.Source.PhysicalTableId in input.PhysicalTableMap)) {
      throw invalidParameter(`LogicalTableMap.${id}.Source.PhysicalTableId names no table of PhysicalTableMap`);
    }
  }
  // The emulator's choice: CreateDataSet's page (UseAs, RowLevelPermissionTagConfiguration,
  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_CreateDataSet.html) does not say whether a
  // rules dataset may itself be restricted, and restricting the rules would hide rules from the datasets using them.
  if (useAs === 'RLS_RULES' && (input.RowLevelPermissionDataSet || input.RowLevelPermissionTagConfiguration))
    throw invalidParameter('A dataset used as RLS_RULES cannot itself apply row-level security');
  const tagConfiguration = input.RowLevelPermissionTagConfiguration;
  if (tagConfiguration) {
    const columns = Object.values(input.PhysicalTableMap).flatMap((table) => table.S3Source.InputColumns);
    requireValidTagConfiguration(
      tagConfiguration,
      columns.map((column) => ({ name: column.Name, type: column.Type })),
    );
  }
  const rls = input.RowLevelPermissionDataSet;
  if (rls) {
    const rulesId = resourceIdOf(context.scope, 'dataset', rls.Arn);
    if (rulesId === undefined)
      throw invalidParameter('RowLevelPermissionDataSet.Arn is not a dataset ARN of this account');
    if (rulesId === dataSetId) throw invalidParameter('A dataset cannot be its own row-level security rules');
    // RowLevelPermissionDataSet.FormatVersion: "When FormatVersion is VERSION_1, UserName and
    // GroupName are required. When FormatVersion is VERSION_2, UserARN and GroupARN are required".
    const rules = context.store.state.data.dataSet(rulesId);
    const columns = rules ? columnsOf(rules) : undefined;
    const missing = columns ? missingIdentityColumns(columns, rls.FormatVersion) : [];
    if (missing.length > 0) {
      throw invalidParameter(
        `The rules dataset ${rulesId} has no ${missing.join(' or ')} column, which FormatVersion ${rls.FormatVersion} requires (field names are case-sensitive)`,
      );
    }
  }
}

const OUTPUT_TYPES: Record<string, string> = { INTEGER: 'INTEGER', DECIMAL: 'DECIMAL', DATETIME: 'DATETIME' };

const inputColumnsOf = (dataSet: StoredDataSet) =>
  Object.values(dataSet.physicalTableMap).flatMap((table) => table.S3Source.InputColumns);
const columnsOf = (dataSet: StoredDataSet) => inputColumnsOf(dataSet).map((column) => column.Name);

function storedDataSetView(context: ApiContext, dataSet: StoredDataSet) {
  const columns = inputColumnsOf(dataSet);
  const loaded = context.store.state.data.spiceTable(dataSet.dataSetId);
  const lastLoad = loaded && context.store.state.data.ingestion(dataSet.dataSetId, loaded.ingestionId);
  return {
    Arn: dataSetArn(context.scope, dataSet.dataSetId),
    DataSetId: dataSet.dataSetId,
    Name: dataSet.name,
    CreatedTime: epochSeconds(dataSet.createdAt),
    LastUpdatedTime: epochSeconds(dataSet.updatedAt),
    PhysicalTableMap: dataSet.physicalTableMap,
    ...(dataSet.logicalTableMap && { LogicalTableMap: dataSet.logicalTableMap }),
    OutputColumns: columns.map((column) => ({ Name: column.Name, Type: OUTPUT_TYPES[column.Type] ?? 'STRING' })),
    ImportMode: dataSet.importMode,
    ConsumedSpiceCapacityInBytes: lastLoad?.sizeInBytes ?? 0,
    ...(dataSet.rowLevelPermissionDataSet && { RowLevelPermissionDataSet: dataSet.rowLevelPermissionDataSet }),
    ...(dataSet.rowLevelPermissionTagConfiguration && {
      RowLevelPermissionTagConfiguration: dataSet.rowLevelPermissionTagConfiguration,
    }),
    ...(dataSet.useAs && { UseAs: dataSet.useAs }),
  };
}

/** ListDataSets' DataSetSummary: the members of a described dataset a summary carries. */
function dataSetSummary(view: {
  Arn: string;
  DataSetId: string;
  Name: string;
  CreatedTime: number;
  LastUpdatedTime: number;
  ImportMode: string;
  RowLevelPermissionDataSet?: unknown;
  RowLevelPermissionTagConfiguration?: { Status: string };
  UseAs?: string;
}) {
  return {
    Arn: view.Arn,
    DataSetId: view.DataSetId,
    Name: view.Name,
    CreatedTime: view.CreatedTime,
    LastUpdatedTime: view.LastUpdatedTime,
    ImportMode: view.ImportMode,
    ...(view.RowLevelPermissionDataSet !== undefined && { RowLevelPermissionDataSet: view.RowLevelPermissionDataSet }),
    RowLevelPermissionTagConfigurationApplied: view.RowLevelPermissionTagConfiguration?.Status === 'ENABLED',
    ColumnLevelPermissionRulesApplied: false,
    ...(view.UseAs && { UseAs: view.UseAs }),
  };
}

/** DescribeDataSet's view of a sample dataset, with the row-level security the emulator was given. */
const sampleView = (context: ApiContext, sample: SampleDataSet) =>
  sampleDataSetView(context.scope, context.rowLevelSecurity, sample, context.rowLevelPermissionTagConfiguration);

/** A stored dataset of the request's path (the sample datasets have no permissions of their own here). */
function targetStoredDataSet(request: ApiRequest, context: ApiContext, operation: string): StoredDataSet {
  requireAccount(context.scope, request.params.AwsAccountId, operation);
  const dataSetId = requireParam(request.params, 'DataSetId');
  const dataSet = context.store.state.data.dataSet(dataSetId);
  if (!dataSet) throw dataSetNotFound(dataSetArn(context.scope, dataSetId));
  return dataSet;
}

/** The stored members a CreateDataSet or UpdateDataSet request defines. */
const definitionOf = (input: DataSetDefinition) => ({
  name: input.Name,
  importMode: input.ImportMode,
  physicalTableMap: input.PhysicalTableMap,
  logicalTableMap: input.LogicalTableMap,
  rowLevelPermissionDataSet: input.RowLevelPermissionDataSet,
  rowLevelPermissionTagConfiguration: input.RowLevelPermissionTagConfiguration,
});

/** Stores a created or updated dataset and loads it; the response members both operations share. */
async function storeAndIngest(context: ApiContext, dataSet: StoredDataSet, requestType: IngestionRequestType) {
  await context.store.commit({ type: 'putDataSet', dataSet });
  const ingestionId = randomUUID();
  await runIngestion(context, dataSet.dataSetId, ingestionId, requestType);
  return {
    Arn: dataSetArn(context.scope, dataSet.dataSetId),
    DataSetId: dataSet.dataSetId,
    IngestionArn: ingestionArn(context.scope, dataSet.dataSetId, ingestionId),
    IngestionId: ingestionId,
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
      requireValidDataSet(context, input.DataSetId, input, input.UseAs);
      const permissions = input.Permissions ?? [];
      requireValidPrincipals(context, permissions, { mustExist: true, namespaces: false });
      const now = context.now();
      const dataSet: StoredDataSet = {
        ...definitionOf(input),
        dataSetId: input.DataSetId,
        useAs: input.UseAs,
        permissions: mergePermissions([], permissions, []),
        createdAt: now,
        updatedAt: now,
      };
      return { status: 201, body: await storeAndIngest(context, dataSet, 'INITIAL_INGESTION') };
    },
  },
  {
    // UpdateDataSet replaces the definition (row-level security included: a member left out is
    // removed) and, for SPICE, loads the dataset again; permissions, UseAs and CreatedTime stay.
    name: 'UpdateDataSet',
    method: 'PUT',
    path: '/accounts/{AwsAccountId}/data-sets/{DataSetId}',
    async handle(request, context) {
      requireAccount(context.scope, request.params.AwsAccountId, 'UpdateDataSet');
      const dataSetId = requireParam(request.params, 'DataSetId');
      const input = parseBody(dataSetDefinitionSchema, request.body);
      if (findSampleDataSet(dataSetId))
        throw invalidParameter(`Updating the sample dataset ${dataSetId} ${NOT_EMULATED}`);
      const existing = context.store.state.data.dataSet(dataSetId);
      if (!existing) throw dataSetNotFound(dataSetArn(context.scope, dataSetId));
      requireValidDataSet(context, dataSetId, input, existing.useAs);
      const dataSet: StoredDataSet = { ...existing, ...definitionOf(input), updatedAt: context.now() };
      return { body: await storeAndIngest(context, dataSet, 'EDIT') };
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
      if (sample) return { body: { DataSet: sampleView(context, sample) } };
      const dataSet = context.store.state.data.dataSet(dataSetId);
      if (!dataSet) throw dataSetNotFound(dataSetArn(context.scope, dataSetId));
      return { body: { DataSet: storedDataSetView(context, dataSet) } };
    },
  },
  {
    // ListDataSets: "Lists all of the datasets belonging to the current Amazon Web Services account in
    // an Amazon Web Services Region", paged (MaxResults 1-100).
    name: 'ListDataSets',
    method: 'GET',
    path: '/accounts/{AwsAccountId}/data-sets',
    handle(request, context) {
      requireAccount(context.scope, request.params.AwsAccountId, 'ListDataSets');
      const summaries = [
        ...SAMPLE_DATA_SETS.map((sample) => dataSetSummary(sampleView(context, sample))),
        ...context.store.state.data.allDataSets().map((dataSet) => dataSetSummary(storedDataSetView(context, dataSet))),
      ];
      const page = paginate(summaries, request.query, 'data-sets');
      return { body: { DataSetSummaries: page.items, NextToken: page.nextToken } };
    },
  },
  {
    name: 'DescribeDataSetPermissions',
    method: 'GET',
    path: '/accounts/{AwsAccountId}/data-sets/{DataSetId}/permissions',
    handle(request, context) {
      const dataSet = targetStoredDataSet(request, context, 'DescribeDataSetPermissions');
      return {
        body: {
          DataSetArn: dataSetArn(context.scope, dataSet.dataSetId),
          DataSetId: dataSet.dataSetId,
          Permissions: dataSet.permissions,
        },
      };
    },
  },
  {
    name: 'UpdateDataSetPermissions',
    method: 'POST',
    path: '/accounts/{AwsAccountId}/data-sets/{DataSetId}/permissions',
    async handle(request, context) {
      const dataSet = targetStoredDataSet(request, context, 'UpdateDataSetPermissions');
      const input = parseBody(updatePermissionsSchema, request.body);
      const grants = input.GrantPermissions ?? [];
      const revocations = input.RevokePermissions ?? [];
      requireValidPrincipals(context, grants, { mustExist: true, namespaces: false });
      requireValidPrincipals(context, revocations, { mustExist: false, namespaces: false });
      const permissions = mergePermissions(dataSet.permissions, grants, revocations);
      await context.store.commit({
        type: 'putDataSet',
        dataSet: { ...dataSet, permissions, updatedAt: context.now() },
      });
      return { body: { DataSetArn: dataSetArn(context.scope, dataSet.dataSetId), DataSetId: dataSet.dataSetId } };
    },
  },
];
