import { z } from 'zod';
import {
  ingestionStatuses,
  manifestFileLocationSchema,
  rowLevelPermissionDataSetSchema,
  rowLevelPermissionTagConfigurationSchema,
  s3SourceSchema,
} from './data-shapes.ts';

/**
 * Data sources, datasets, their SPICE ingestions and the rows the last completed ingestion
 * loaded. Part of the emulator's state: changed only through the data changes below.
 */

const dataSourceStatus = z.enum(['CREATION_IN_PROGRESS', 'CREATION_SUCCESSFUL', 'CREATION_FAILED']);
const permissionsSchema = z.array(z.object({ Principal: z.string(), Actions: z.array(z.string()) }));

const storedDataSourceSchema = z.object({
  dataSourceId: z.string(),
  name: z.string(),
  type: z.literal('S3'),
  manifest: manifestFileLocationSchema,
  roleArn: z.string().optional(),
  status: dataSourceStatus,
  /** Why creation failed (DataSource.ErrorInfo: DataSourceErrorInfoType and a message). */
  errorInfo: z.object({ Type: z.string(), Message: z.string() }).optional(),
  permissions: permissionsSchema.default([]),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type StoredDataSource = z.infer<typeof storedDataSourceSchema>;

const storedDataSetSchema = z.object({
  dataSetId: z.string(),
  name: z.string(),
  importMode: z.enum(['SPICE', 'DIRECT_QUERY']),
  physicalTableMap: z.record(z.string(), z.object({ S3Source: s3SourceSchema })),
  logicalTableMap: z.record(z.string(), z.unknown()).optional(),
  rowLevelPermissionDataSet: rowLevelPermissionDataSetSchema.optional(),
  /** Optional: datasets stored before tag rules were emulated have none. */
  rowLevelPermissionTagConfiguration: rowLevelPermissionTagConfigurationSchema.optional(),
  useAs: z.literal('RLS_RULES').optional(),
  permissions: permissionsSchema,
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type StoredDataSet = z.infer<typeof storedDataSetSchema>;

const storedIngestionSchema = z.object({
  dataSetId: z.string(),
  ingestionId: z.string(),
  status: z.enum(ingestionStatuses),
  createdAt: z.number(),
  requestType: z.enum(['INITIAL_INGESTION', 'EDIT', 'INCREMENTAL_REFRESH', 'FULL_REFRESH']),
  requestSource: z.enum(['MANUAL', 'SCHEDULED']),
  errorInfo: z.object({ Type: z.string(), Message: z.string() }).optional(),
  rowInfo: z.object({ RowsIngested: z.number(), RowsDropped: z.number(), TotalRowsInDataset: z.number() }).optional(),
  sizeInBytes: z.number().optional(),
  timeInSeconds: z.number().optional(),
});
export type StoredIngestion = z.infer<typeof storedIngestionSchema>;

/** The SPICE copy of a dataset: column names and rows, NULL for an empty field. */
const spiceTableSchema = z.object({
  dataSetId: z.string(),
  ingestionId: z.string(),
  columns: z.array(z.string()),
  rows: z.array(z.array(z.string().nullable())),
});
export type SpiceTable = z.infer<typeof spiceTableSchema>;

export const dataChangeSchemas = [
  z.object({ type: z.literal('putDataSource'), dataSource: storedDataSourceSchema }),
  z.object({ type: z.literal('deleteDataSource'), dataSourceId: z.string() }),
  z.object({ type: z.literal('putDataSet'), dataSet: storedDataSetSchema }),
  z.object({ type: z.literal('deleteDataSet'), dataSetId: z.string() }),
  z.object({ type: z.literal('putIngestion'), ingestion: storedIngestionSchema }),
  /** An ingestion's end; a COMPLETED one replaces the dataset's rows with `table` in the same change. */
  z.object({
    type: z.literal('finishIngestion'),
    ingestion: storedIngestionSchema,
    table: spiceTableSchema.optional(),
  }),
] as const;
export type DataChange = z.infer<(typeof dataChangeSchemas)[number]>;

const DATA_CHANGE_TYPES: ReadonlySet<string> = new Set(dataChangeSchemas.map((schema) => schema.shape.type.value));
export const isDataChange = (change: { type: string }): change is DataChange => DATA_CHANGE_TYPES.has(change.type);

export const dataSnapshotSchema = z.object({
  dataSources: z.array(storedDataSourceSchema).default([]),
  dataSets: z.array(storedDataSetSchema).default([]),
  ingestions: z.array(storedIngestionSchema).default([]),
  spiceTables: z.array(spiceTableSchema).default([]),
});
export type DataSnapshot = z.infer<typeof dataSnapshotSchema>;

export class DataState {
  /** Maps, not objects: ids come from requests and may be '__proto__'. */
  private readonly dataSources = new Map<string, StoredDataSource>();
  private readonly dataSets = new Map<string, StoredDataSet>();
  /** Per dataset, its ingestions in creation order. */
  private readonly ingestions = new Map<string, Map<string, StoredIngestion>>();
  private readonly spiceTables = new Map<string, SpiceTable>();

  constructor(snapshot?: DataSnapshot) {
    if (!snapshot) return;
    for (const source of snapshot.dataSources) this.dataSources.set(source.dataSourceId, source);
    for (const dataSet of snapshot.dataSets) this.dataSets.set(dataSet.dataSetId, dataSet);
    for (const ingestion of snapshot.ingestions) this.putIngestion(ingestion);
    for (const table of snapshot.spiceTables) this.spiceTables.set(table.dataSetId, table);
  }

  apply(change: DataChange): void {
    switch (change.type) {
      case 'putDataSource':
        this.dataSources.set(change.dataSource.dataSourceId, change.dataSource);
        return;
      case 'deleteDataSource':
        this.dataSources.delete(change.dataSourceId);
        return;
      case 'putDataSet':
        this.dataSets.set(change.dataSet.dataSetId, change.dataSet);
        return;
      case 'deleteDataSet':
        // Its ingestion history and SPICE rows go with it.
        this.dataSets.delete(change.dataSetId);
        this.ingestions.delete(change.dataSetId);
        this.spiceTables.delete(change.dataSetId);
        return;
      case 'putIngestion':
        this.putIngestion(change.ingestion);
        return;
      case 'finishIngestion':
        this.putIngestion(change.ingestion);
        if (change.ingestion.status === 'COMPLETED' && change.table)
          this.spiceTables.set(change.table.dataSetId, change.table);
        return;
    }
  }

  private putIngestion(ingestion: StoredIngestion): void {
    const list = this.ingestions.get(ingestion.dataSetId) ?? new Map<string, StoredIngestion>();
    list.set(ingestion.ingestionId, ingestion);
    this.ingestions.set(ingestion.dataSetId, list);
  }

  dataSource(dataSourceId: string): StoredDataSource | undefined {
    return this.dataSources.get(dataSourceId);
  }

  allDataSources(): StoredDataSource[] {
    return [...this.dataSources.values()];
  }

  dataSet(dataSetId: string): StoredDataSet | undefined {
    return this.dataSets.get(dataSetId);
  }

  /** Stored datasets in creation order. */
  allDataSets(): StoredDataSet[] {
    return [...this.dataSets.values()];
  }

  ingestion(dataSetId: string, ingestionId: string): StoredIngestion | undefined {
    return this.ingestions.get(dataSetId)?.get(ingestionId);
  }

  /** A dataset's ingestions, oldest first. */
  ingestionsOf(dataSetId: string): StoredIngestion[] {
    return [...(this.ingestions.get(dataSetId)?.values() ?? [])];
  }

  /** Data sources whose creation had not ended when the emulator stopped. */
  dataSourcesInProgress(): StoredDataSource[] {
    return this.allDataSources().filter((source) => source.status === 'CREATION_IN_PROGRESS');
  }

  /** Ingestions that had not ended when the emulator stopped, oldest first. */
  unfinishedIngestions(): StoredIngestion[] {
    return [...this.ingestions.values()]
      .flatMap((list) => [...list.values()])
      .filter((i) => i.status === 'INITIALIZED' || i.status === 'QUEUED' || i.status === 'RUNNING')
      .sort((a, b) => a.createdAt - b.createdAt);
  }

  /** The rows of the dataset's last COMPLETED ingestion, if it had one. */
  spiceTable(dataSetId: string): SpiceTable | undefined {
    return this.spiceTables.get(dataSetId);
  }

  toSnapshot(): DataSnapshot {
    return {
      dataSources: this.allDataSources(),
      dataSets: this.allDataSets(),
      ingestions: [...this.ingestions.values()].flatMap((list) => [...list.values()]),
      spiceTables: [...this.spiceTables.values()],
    };
  }
}
