import { ManifestError, parseManifest, type Manifest } from './manifest.ts';
import { ObjectAccessDenied, type ObjectStore } from './ingest.ts';
import type { StoredDataSource } from './state-data.ts';
import type { ApiContext } from './api-types.ts';

/**
 * How QuickSight finishes creating an S3 data source: CreateDataSource answers
 * CREATION_IN_PROGRESS (202) and the source is checked a little later, reading its manifest
 * and the objects the manifest names with the source's role (S3Parameters.RoleArn). A source
 * whose role may not read them ends CREATION_FAILED with ErrorInfo (DataSourceErrorInfo: Type
 * ACCESS_DENIED and S3's message); one whose manifest is missing or unreadable ends
 * CREATION_FAILED too (Type UNKNOWN, the reason). Data files that do not exist yet are the
 * ingestion's business (S3_FILE_INACCESSIBLE), not the source's.
 */

interface DataSourceErrorInfo {
  readonly Type: 'ACCESS_DENIED' | 'UNKNOWN';
  readonly Message: string;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Reads an object as the role; a refusal becomes ACCESS_DENIED, any other failure UNKNOWN. */
async function readAs(
  objects: ObjectStore,
  uri: { bucket: string; key: string },
  roleArn: string | undefined,
): Promise<{ text?: string; problem?: DataSourceErrorInfo }> {
  const where = `s3://${uri.bucket}/${uri.key}`;
  if (!objects.readObject)
    return { problem: { Type: 'UNKNOWN', Message: `This emulator has no S3 to read ${where} from` } };
  try {
    return { text: await objects.readObject(uri.bucket, uri.key, roleArn) };
  } catch (error) {
    if (error instanceof ObjectAccessDenied) {
      return {
        problem: {
          Type: 'ACCESS_DENIED',
          Message: `Amazon QuickSight could not read ${where}${roleArn ? ` with role ${roleArn}` : ''}: ${error.message}`,
        },
      };
    }
    return { problem: { Type: 'UNKNOWN', Message: `${where} could not be read: ${describe(error)}` } };
  }
}

/** Why the data source cannot be created, or undefined when its role reads what it needs. */
async function dataSourceProblem(
  objects: ObjectStore,
  source: StoredDataSource,
): Promise<DataSourceErrorInfo | undefined> {
  const { roleArn } = source;
  const manifestUri = { bucket: source.manifest.Bucket, key: source.manifest.Key };
  const read = await readAs(objects, manifestUri, roleArn);
  if (read.problem) return read.problem;
  if (read.text === undefined)
    return { Type: 'UNKNOWN', Message: `The manifest s3://${manifestUri.bucket}/${manifestUri.key} does not exist` };
  let manifest: Manifest;
  try {
    manifest = parseManifest(read.text);
  } catch (error) {
    if (error instanceof ManifestError)
      return { Type: 'UNKNOWN', Message: `s3://${manifestUri.bucket}/${manifestUri.key}: ${error.message}` };
    throw error;
  }
  for (const entry of manifest.locations) {
    if (entry.kind === 'file') {
      const file = await readAs(objects, entry.location, roleArn);
      if (file.problem?.Type === 'ACCESS_DENIED') return file.problem;
      continue;
    }
    try {
      await objects.listObjects?.(entry.location.bucket, entry.location.key, roleArn);
    } catch (error) {
      if (error instanceof ObjectAccessDenied)
        return { Type: 'ACCESS_DENIED', Message: `Amazon QuickSight could not list ${entry.uri}: ${error.message}` };
    }
  }
  return undefined;
}

/** Ends the creation of a data source still in progress: CREATION_SUCCESSFUL, or CREATION_FAILED with ErrorInfo. */
export async function finishDataSourceCreation(context: ApiContext, dataSourceId: string): Promise<void> {
  const source = context.store.state.data.dataSource(dataSourceId);
  if (source?.status !== 'CREATION_IN_PROGRESS') return;
  const problem = await dataSourceProblem(context.objects, source);
  // The source may have been deleted (or created again) while it was read; its permissions may have changed.
  const current = context.store.state.data.dataSource(dataSourceId);
  if (current?.status !== 'CREATION_IN_PROGRESS' || current.createdAt !== source.createdAt) return;
  await context.store.commit({
    type: 'putDataSource',
    dataSource: {
      ...current,
      status: problem ? 'CREATION_FAILED' : 'CREATION_SUCCESSFUL',
      ...(problem && { errorInfo: problem }),
      updatedAt: context.now(),
    },
  });
}
