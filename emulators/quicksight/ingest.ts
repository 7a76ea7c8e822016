import { type AccountScope, resourceIdOf } from './arns.ts';
import { DelimitedTextError, parseDelimited } from './csv.ts';
import type { S3Source, UploadSettings } from './data-shapes.ts';
import { ManifestError, MAX_MANIFEST_FILES, parseManifest, type Manifest, type S3Location } from './manifest.ts';
import type { DataState, StoredDataSet } from './state-data.ts';

/**
 * What a SPICE ingestion of an S3 dataset does: read the data source's manifest, then the
 * delimited files it names, and turn them into the dataset's rows (its InputColumns, by
 * position; an empty field is NULL). A failure names one of the ingestion error types of the
 * API reference (ErrorInfo.Type) and loads nothing.
 */

/**
 * Reads S3 objects for the emulator, as QuickSight reads them: with the data source's role
 * (S3Parameters.RoleArn; undefined for a source without one). Local mode wires these to its S3
 * stand-in behind the IAM gate, signed as that role.
 */
export interface ObjectStore {
  /**
   * The object's text, or undefined when there is no such object; throws ObjectAccessDenied
   * when the role may not read it.
   */
  readonly readObject?: (bucket: string, key: string, roleArn?: string) => Promise<string | undefined>;
  /** Keys under a prefix, for manifests with URIPrefixes; throws ObjectAccessDenied when the role may not list. */
  readonly listObjects?: (bucket: string, prefix: string, roleArn?: string) => Promise<string[]>;
}

/** S3 refused the role a read or a listing (AccessDenied). */
export class ObjectAccessDenied extends Error {
  override readonly name = 'AccessDenied';
}

type IngestionErrorType =
  | 'S3_MANIFEST_ERROR'
  | 'S3_FILE_INACCESSIBLE'
  | 'DATA_SOURCE_NOT_FOUND'
  | 'DATA_SOURCE_CONNECTION_FAILED'
  | 'DATA_SET_DELETED'
  | 'CUSTOMER_ERROR'
  | 'INTERNAL_SERVICE_ERROR';

export type LoadOutcome =
  | {
      readonly ok: true;
      readonly columns: string[];
      readonly rows: (string | null)[][];
      readonly rowsDropped: number;
      readonly bytes: number;
    }
  | { readonly ok: false; readonly type: IngestionErrorType; readonly message: string };

class LoadFailure extends Error {
  constructor(
    readonly type: IngestionErrorType,
    message: string,
  ) {
    super(message);
  }
}

interface FileSettings {
  readonly delimiter: string;
  readonly qualifier: string;
  readonly containsHeader: boolean;
  readonly startFromRow: number;
}

const DELIMITED_FORMATS: Record<string, string> = { CSV: ',', TSV: '\t' };

/** The dataset's UploadSettings first, then the manifest's globalUploadSettings, then the defaults. */
function fileSettings(upload: UploadSettings | undefined, manifest: Manifest): FileSettings {
  const format = (upload?.Format ?? manifest.uploadSettings.format ?? 'CSV').toUpperCase();
  const defaultDelimiter = DELIMITED_FORMATS[format];
  if (defaultDelimiter === undefined) {
    throw new LoadFailure('S3_MANIFEST_ERROR', `this emulator ingests CSV and TSV files only, not ${format}`);
  }
  const qualifier =
    upload?.TextQualifier === 'SINGLE_QUOTE'
      ? "'"
      : upload?.TextQualifier === 'DOUBLE_QUOTE'
        ? '"'
        : (manifest.uploadSettings.textqualifier ?? '"');
  return {
    delimiter: upload?.Delimiter ?? manifest.uploadSettings.delimiter ?? defaultDelimiter,
    qualifier,
    containsHeader: upload?.ContainsHeader ?? manifest.uploadSettings.containsHeader ?? true,
    startFromRow: upload?.StartFromRow ?? 1,
  };
}

async function read(
  objects: ObjectStore,
  { bucket, key }: S3Location,
  roleArn: string | undefined,
): Promise<string | undefined> {
  if (!objects.readObject) {
    throw new LoadFailure('S3_FILE_INACCESSIBLE', `this emulator has no S3 to read s3://${bucket}/${key} from`);
  }
  try {
    return await objects.readObject(bucket, key, roleArn);
  } catch (error) {
    throw new LoadFailure(
      'S3_FILE_INACCESSIBLE',
      `s3://${bucket}/${key} could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** The files a manifest names, prefixes expanded, in manifest order. */
async function filesOf(
  objects: ObjectStore,
  manifest: Manifest,
  roleArn: string | undefined,
): Promise<{ location: S3Location; mandatory: boolean }[]> {
  const files: { location: S3Location; mandatory: boolean }[] = [];
  for (const entry of manifest.locations) {
    if (entry.kind === 'file') {
      files.push({ location: entry.location, mandatory: entry.mandatory });
      continue;
    }
    if (!objects.listObjects)
      throw new LoadFailure('S3_MANIFEST_ERROR', `this emulator cannot list ${entry.uri}: use URIs`);
    let keys: string[];
    try {
      keys = await objects.listObjects(entry.location.bucket, entry.location.key, roleArn);
    } catch (error) {
      throw new LoadFailure(
        'S3_FILE_INACCESSIBLE',
        `${entry.uri} could not be listed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    // Keys ending in / are folder markers, not files.
    for (const key of [...keys].sort())
      if (!key.endsWith('/')) files.push({ location: { bucket: entry.location.bucket, key }, mandatory: true });
  }
  if (files.length === 0) throw new LoadFailure('S3_MANIFEST_ERROR', 'the manifest names no file');
  if (files.length > MAX_MANIFEST_FILES)
    throw new LoadFailure('S3_MANIFEST_ERROR', `the manifest names more than ${MAX_MANIFEST_FILES} files`);
  return files;
}

async function loadS3Source(
  scope: AccountScope,
  data: DataState,
  source: S3Source,
  objects: ObjectStore,
): Promise<LoadOutcome> {
  const dataSourceId = resourceIdOf(scope, 'datasource', source.DataSourceArn);
  const dataSource = dataSourceId === undefined ? undefined : data.dataSource(dataSourceId);
  if (!dataSource)
    throw new LoadFailure('DATA_SOURCE_NOT_FOUND', `the data source ${source.DataSourceArn} does not exist`);
  if (dataSource.status !== 'CREATION_SUCCESSFUL') {
    throw new LoadFailure(
      'DATA_SOURCE_CONNECTION_FAILED',
      `the data source ${source.DataSourceArn} is ${dataSource.status}${dataSource.errorInfo ? ` (${dataSource.errorInfo.Type}: ${dataSource.errorInfo.Message})` : ''}`,
    );
  }
  const { roleArn } = dataSource;
  const manifestText = await read(
    objects,
    { bucket: dataSource.manifest.Bucket, key: dataSource.manifest.Key },
    roleArn,
  );
  const manifestUri = `s3://${dataSource.manifest.Bucket}/${dataSource.manifest.Key}`;
  if (manifestText === undefined)
    throw new LoadFailure('S3_MANIFEST_ERROR', `the manifest ${manifestUri} does not exist`);
  let manifest: Manifest;
  try {
    manifest = parseManifest(manifestText);
  } catch (error) {
    if (error instanceof ManifestError) throw new LoadFailure('S3_MANIFEST_ERROR', `${manifestUri}: ${error.message}`);
    throw error;
  }
  const settings = fileSettings(source.UploadSettings, manifest);
  const columns = source.InputColumns.map((column) => column.Name);
  const rows: (string | null)[][] = [];
  let rowsDropped = 0;
  let bytes = 0;
  for (const file of await filesOf(objects, manifest, roleArn)) {
    const uri = `s3://${file.location.bucket}/${file.location.key}`;
    const text = await read(objects, file.location, roleArn);
    if (text === undefined) {
      if (file.mandatory) throw new LoadFailure('S3_FILE_INACCESSIBLE', `${uri} does not exist`);
      continue;
    }
    bytes += Buffer.byteLength(text, 'utf8');
    let records: string[][];
    try {
      records = parseDelimited(text, settings);
    } catch (error) {
      if (error instanceof DelimitedTextError)
        throw new LoadFailure('CUSTOMER_ERROR', `${uri} is not valid delimited text: ${error.message}`);
      throw error;
    }
    const data = records.slice(settings.startFromRow - 1 + (settings.containsHeader ? 1 : 0));
    for (const record of data) {
      // A row with more fields than the dataset has columns is skipped, as SPICE skips rows it cannot read.
      if (record.length > columns.length) {
        rowsDropped += 1;
        continue;
      }
      rows.push(columns.map((_, index) => (record[index] ?? '') || null));
    }
  }
  return { ok: true, columns, rows, rowsDropped, bytes };
}

/** Loads a stored dataset's (single) S3 table; never throws for a problem of the data. */
export async function loadDataSet(
  scope: AccountScope,
  data: DataState,
  dataSet: StoredDataSet,
  objects: ObjectStore,
): Promise<LoadOutcome> {
  const [table] = Object.values(dataSet.physicalTableMap);
  try {
    if (!table) throw new LoadFailure('CUSTOMER_ERROR', 'the dataset has no physical table');
    return await loadS3Source(scope, data, table.S3Source, objects);
  } catch (error) {
    if (error instanceof LoadFailure) return { ok: false, type: error.type, message: error.message };
    return {
      ok: false,
      type: 'INTERNAL_SERVICE_ERROR',
      message: error instanceof Error ? error.message : String(error),
    };
  }
}
