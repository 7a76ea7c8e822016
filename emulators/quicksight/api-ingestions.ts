import { z } from 'zod';
import { findSampleDataSet } from '#emulators/sample-dashboards/catalog.ts';
import { dataSetArn, ingestionArn, type AccountScope } from './arns.ts';
import { sampleDataset } from '#emulators/sample-dashboards/data/generator.ts';
import { QuickSightError, dataSetNotFound, ingestionNotFound, invalidParameter, resourceExists } from './errors.ts';
import { loadDataSet, type LoadOutcome } from './ingest.ts';
import { paginate, parseBody, requireAccount, requireParam } from './input.ts';
import type { StateStore } from './persistence.ts';
import type { StoredIngestion } from './state-data.ts';
import { epochSeconds, type ApiContext, type ApiOperation, type ApiRequest } from './api-types.ts';

/**
 * SPICE ingestions: CreateIngestion, DescribeIngestion and ListIngestions, and the ingestion a
 * SPICE CreateDataSet starts. An ingestion is recorded INITIALIZED, then loads its dataset's
 * files and ends COMPLETED (the dataset's rows replaced) or FAILED (its rows kept, ErrorInfo
 * saying why). The emulator finishes the load before it answers, so a caller that polls, as
 * QuickSight's callers must, finds it ended at the first look.
 */

// IngestionId: "Length Constraints: Minimum length of 1. Maximum length of 128. Pattern: ^[a-zA-Z0-9-_]+$"
const INGESTION_ID = /^[a-zA-Z0-9_-]{1,128}$/;

/**
 * CreateIngestion: "You can manually refresh datasets in an Enterprise edition account 32 times
 * in a 24-hour period. ... Each 24-hour period is measured starting 24 hours before the current
 * date and time." Counted per dataset; the ingestion CreateDataSet starts is not a refresh.
 */
const MANUAL_REFRESHES_PER_DAY = 32;
const DAY_MS = 24 * 60 * 60_000;

const createIngestionSchema = z.object({
  IngestionType: z
    .enum(['INCREMENTAL_REFRESH', 'FULL_REFRESH'], { error: 'must be INCREMENTAL_REFRESH or FULL_REFRESH' })
    .optional(),
});

export type IngestionRequestType = StoredIngestion['requestType'];

function ingestionView(scope: AccountScope, ingestion: StoredIngestion) {
  return {
    Arn: ingestionArn(scope, ingestion.dataSetId, ingestion.ingestionId),
    IngestionId: ingestion.ingestionId,
    IngestionStatus: ingestion.status,
    CreatedTime: epochSeconds(ingestion.createdAt),
    RequestSource: ingestion.requestSource,
    RequestType: ingestion.requestType,
    ...(ingestion.errorInfo && { ErrorInfo: ingestion.errorInfo }),
    ...(ingestion.rowInfo && { RowInfo: ingestion.rowInfo }),
    ...(ingestion.sizeInBytes !== undefined && { IngestionSizeInBytes: ingestion.sizeInBytes }),
    ...(ingestion.timeInSeconds !== undefined && { IngestionTimeInSeconds: ingestion.timeInSeconds }),
  };
}

/** Per store and dataset, the load running now: a dataset's ingestions load one after another. */
const running = new WeakMap<StateStore, Map<string, Promise<void>>>();

function oneAtATime(store: StateStore, dataSetId: string, task: () => Promise<void>): Promise<void> {
  const perDataSet = running.get(store) ?? new Map<string, Promise<void>>();
  running.set(store, perDataSet);
  const next = (perDataSet.get(dataSetId) ?? Promise.resolve()).then(task);
  const settled = next.catch(() => undefined);
  perDataSet.set(dataSetId, settled);
  void settled.then(() => {
    if (perDataSet.get(dataSetId) === settled) perDataSet.delete(dataSetId);
  });
  return next;
}

async function load(context: ApiContext, dataSetId: string): Promise<LoadOutcome> {
  if (findSampleDataSet(dataSetId)) {
    // The sample data is generated, not read: a refresh loads the same rows.
    return { ok: true, columns: [], rows: [], rowsDropped: 0, bytes: 0 };
  }
  const dataSet = context.store.state.data.dataSet(dataSetId);
  if (!dataSet) return { ok: false, type: 'DATA_SET_DELETED', message: 'the dataset was deleted' };
  return loadDataSet(context.scope, context.store.state.data, dataSet, context.objects);
}

/** Records an ingestion, loads the dataset and records how it ended; returns the ingestion as created. */
export async function runIngestion(
  context: ApiContext,
  dataSetId: string,
  ingestionId: string,
  requestType: IngestionRequestType,
): Promise<StoredIngestion> {
  const created: StoredIngestion = {
    dataSetId,
    ingestionId,
    status: 'INITIALIZED',
    createdAt: context.now(),
    requestType,
    requestSource: 'MANUAL',
  };
  await context.store.commit({ type: 'putIngestion', ingestion: created });
  await oneAtATime(context.store, dataSetId, async () => {
    const outcome = await load(context, dataSetId);
    const timeInSeconds = Math.max(0, Math.round((context.now() - created.createdAt) / 1000));
    if (!outcome.ok) {
      await context.store.commit({
        type: 'finishIngestion',
        ingestion: {
          ...created,
          status: 'FAILED',
          timeInSeconds,
          errorInfo: { Type: outcome.type, Message: outcome.message },
        },
      });
      return;
    }
    const sample = findSampleDataSet(dataSetId) !== undefined;
    const rowsIngested = sample ? sampleDataset().facts.length : outcome.rows.length;
    await context.store.commit({
      type: 'finishIngestion',
      ingestion: {
        ...created,
        status: 'COMPLETED',
        timeInSeconds,
        sizeInBytes: outcome.bytes,
        rowInfo: { RowsIngested: rowsIngested, RowsDropped: outcome.rowsDropped, TotalRowsInDataset: rowsIngested },
      },
      table: sample ? undefined : { dataSetId, ingestionId, columns: outcome.columns, rows: outcome.rows },
    });
  });
  return created;
}

/** The dataset of the ingestion routes: stored or a sample. */
function targetDataSet(request: ApiRequest, context: ApiContext, operation: string): string {
  requireAccount(context.scope, request.params.AwsAccountId, operation);
  const dataSetId = requireParam(request.params, 'DataSetId');
  if (!context.store.state.data.dataSet(dataSetId) && !findSampleDataSet(dataSetId)) {
    throw dataSetNotFound(dataSetArn(context.scope, dataSetId));
  }
  return dataSetId;
}

function requireIngestionId(request: ApiRequest): string {
  const ingestionId = requireParam(request.params, 'IngestionId');
  if (!INGESTION_ID.test(ingestionId))
    throw invalidParameter('IngestionId must be 1-128 letters, digits, hyphens or underscores');
  return ingestionId;
}

export const ingestionOperations: readonly ApiOperation[] = [
  {
    name: 'CreateIngestion',
    method: 'PUT',
    path: '/accounts/{AwsAccountId}/data-sets/{DataSetId}/ingestions/{IngestionId}',
    async handle(request, context) {
      const dataSetId = targetDataSet(request, context, 'CreateIngestion');
      const ingestionId = requireIngestionId(request);
      const input = parseBody(createIngestionSchema, request.body);
      if (input.IngestionType === 'INCREMENTAL_REFRESH') {
        // Incremental refresh needs a lookback window (PutDataSetRefreshProperties) on a SQL source.
        throw invalidParameter('INCREMENTAL_REFRESH needs refresh properties, which S3 datasets cannot have');
      }
      if (context.store.state.data.ingestion(dataSetId, ingestionId)) {
        throw resourceExists(`The ingestion ${ingestionId} of dataset ${dataSetId}`, 'INGESTION');
      }
      const since = context.now() - DAY_MS;
      const refreshes = context.store.state.data
        .ingestionsOf(dataSetId)
        .filter((i) => i.requestSource === 'MANUAL' && i.requestType !== 'INITIAL_INGESTION' && i.createdAt > since);
      if (refreshes.length >= MANUAL_REFRESHES_PER_DAY) {
        throw new QuickSightError(
          'LimitExceededException',
          `Dataset ${dataSetId} was refreshed manually ${MANUAL_REFRESHES_PER_DAY} times in the last 24 hours, the most QuickSight allows`,
          'INGESTION',
        );
      }
      const created = await runIngestion(context, dataSetId, ingestionId, 'FULL_REFRESH');
      return {
        status: 201,
        body: {
          Arn: ingestionArn(context.scope, dataSetId, ingestionId),
          IngestionId: ingestionId,
          IngestionStatus: created.status,
        },
      };
    },
  },
  {
    name: 'DescribeIngestion',
    method: 'GET',
    path: '/accounts/{AwsAccountId}/data-sets/{DataSetId}/ingestions/{IngestionId}',
    handle(request, context) {
      const dataSetId = targetDataSet(request, context, 'DescribeIngestion');
      const ingestionId = requireIngestionId(request);
      const ingestion = context.store.state.data.ingestion(dataSetId, ingestionId);
      if (!ingestion) throw ingestionNotFound(ingestionArn(context.scope, dataSetId, ingestionId));
      return { body: { Ingestion: ingestionView(context.scope, ingestion) } };
    },
  },
  {
    name: 'ListIngestions',
    method: 'GET',
    path: '/accounts/{AwsAccountId}/data-sets/{DataSetId}/ingestions',
    handle(request, context) {
      const dataSetId = targetDataSet(request, context, 'ListIngestions');
      const newestFirst = context.store.state.data.ingestionsOf(dataSetId).reverse();
      const page = paginate(newestFirst, request.query, 'ingestions');
      return {
        body: { Ingestions: page.items.map((i) => ingestionView(context.scope, i)), NextToken: page.nextToken },
      };
    },
  },
];
