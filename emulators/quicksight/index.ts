import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import path from 'node:path';
import type { z } from 'zod';
import { finishCreationLater } from './api-data-sources.ts';
import { Background } from './background.ts';
import { openStateStore, type StateStore } from './persistence.ts';
import { createRequestListener } from './server.ts';
import { rowLevelPermissionTagConfigurationSchema, type RowLevelPermissionTagConfiguration } from './data-shapes.ts';
import { requireValidTagConfiguration } from './rls-tags.ts';
import { SAMPLE_OUTPUT_COLUMNS, type SampleRowLevelSecurity } from './samples.ts';
import { SnapshotFiles } from './snapshot-files.ts';
import { settleSnapshotJobs } from './snapshot-run.ts';
import { listen } from '../shared/http.ts';
import type { TlsMaterial } from './tls.ts';

/**
 * Local QuickSight: the REST API the handlers call through `@aws-sdk/client-quicksight`
 * (users, groups, dashboard permissions, embed URLs, sample dashboards, S3 data sources,
 * datasets and their SPICE ingestions, dashboard snapshot jobs) and the embedded dashboard
 * pages, with state kept under `dataDir` across restarts.
 */

export { SAMPLE_DASHBOARDS } from '#emulators/sample-dashboards/catalog.ts';
export { dashboardLink } from './arns.ts';
export { SAMPLE_COMPANIES } from '#emulators/sample-dashboards/data/generator.ts';
export { NO_DATA_TEXT } from './pages.ts';
export type { SampleRowLevelSecurity } from './samples.ts';
export { localTlsMaterial } from './tls.ts';

export interface QuickSightEmulatorOptions {
  host?: string;
  /**
   * Host name of the URLs handed to browsers (embed URLs), when it differs from `host`. Local
   * mode's site is `http://localhost:<port>`; embed pages at `http://localhost:<port>` are then
   * same-site with it, so the embed session cookie (SameSite=Lax) is kept inside its frame.
   */
  pageHost?: string;
  /** Port of the URLs handed to browsers, when a front (local mode's IAM gate) listens for the emulator. */
  pagesPort?: number;
  /** 0 = any free port. */
  port?: number;
  dataDir: string;
  accountId: string;
  region: string;
  /** Clock in epoch milliseconds; tests move it to expire links and sessions. */
  now?: () => number;
  /**
   * Row-level security of the company-scoped sample datasets (those behind every sample
   * dashboard but `market-benchmarks`): they apply `dataset/<rulesDataSetId>` of this account
   * with GRANT_ACCESS, VERSION_2 and ENABLED unless told otherwise. Without it no sample
   * dataset applies row-level security.
   */
  rowLevelSecurity?: SampleRowLevelSecurity;
  /**
   * Tag-based row-level security of the company-scoped sample datasets: the
   * RowLevelPermissionTagConfiguration they carry, checked as CreateDataSet checks one against their
   * columns (month, company, distributor_id, region and product_line are text). Anonymous snapshot
   * jobs choose their rows by it; without it they fail, as no dataset has tag rules.
   */
  rowLevelPermissionTagConfiguration?: z.input<typeof rowLevelPermissionTagConfigurationSchema>;
  /**
   * How long a snapshot job stays QUEUED, then RUNNING, before it ends (COMPLETED or FAILED).
   * @default 300
   */
  snapshotJobStepMs?: number;
  /**
   * Reads an S3 object's text for data sources and ingestions (manifests and data files) as the
   * data source's role (`roleArn`, undefined for a source without one); undefined when it does
   * not exist; throws ObjectAccessDenied (ingest.ts) when the role may not read it.
   */
  readObject?: (bucket: string, key: string, roleArn?: string) => Promise<string | undefined>;
  /** Lists the keys under a prefix, for manifests with URIPrefixes; without it such manifests fail to load. */
  listObjects?: (bucket: string, prefix: string, roleArn?: string) => Promise<string[]>;
  /**
   * How long after CreateDataSource a data source's creation ends (CREATION_SUCCESSFUL or
   * CREATION_FAILED); until then it answers CREATION_IN_PROGRESS. @default 200
   */
  dataSourceCreationMs?: number;
  /**
   * Serve the embed pages over https on their own port (0 = any free port) and hand out embed
   * URLs there, as QuickSight's embedding SDK takes only https URLs. Without it embed URLs use `pagesUrl`.
   */
  embedPages?: { readonly port?: number; readonly tls: TlsMaterial };
}

export interface QuickSightEmulator {
  /** `http://<host>:<port>`: the SDK endpoint. */
  url: string;
  /** Origin of the console link pages: `http://<pageHost>:<pagesPort>` (the same as `url` without either). */
  pagesUrl: string;
  /** Origin of the embed URLs: `https://<pageHost>:<port>` with `embedPages`, else `pagesUrl`. */
  embedUrl: string;
  close(): Promise<void>;
}

/** An ingestion the emulator was stopped in the middle of never ends by itself: it failed. */
async function failInterruptedIngestions(store: StateStore, now: () => number): Promise<void> {
  for (const ingestion of store.state.data.unfinishedIngestions()) {
    await store.commit({
      type: 'finishIngestion',
      ingestion: {
        ...ingestion,
        status: 'FAILED',
        timeInSeconds: Math.max(0, Math.round((now() - ingestion.createdAt) / 1000)),
        errorInfo: { Type: 'INTERNAL_SERVICE_ERROR', Message: 'The emulator stopped before the ingestion ended' },
      },
    });
  }
}

/** The https listener answers pages only: the API stays behind local mode's IAM gate. */
function pagesOnly(listener: RequestListener): RequestListener {
  return (request: IncomingMessage, response: ServerResponse) => {
    if (/^\/accounts?\//.test(request.url ?? '')) {
      response.writeHead(404, { 'Content-Type': 'text/plain' });
      response.end('The QuickSight API is not served on the embed pages address');
      return;
    }
    listener(request, response);
  };
}

/** The sample datasets' tag rules, checked as CreateDataSet checks a request's. */
function checkedSampleTagRules(option: QuickSightEmulatorOptions['rowLevelPermissionTagConfiguration']) {
  if (option === undefined) return undefined;
  const parsed = rowLevelPermissionTagConfigurationSchema.safeParse(option);
  if (!parsed.success) {
    throw new Error(`rowLevelPermissionTagConfiguration is not valid: ${parsed.error.issues[0]?.message ?? ''}`);
  }
  const configuration: RowLevelPermissionTagConfiguration = parsed.data;
  try {
    requireValidTagConfiguration(
      configuration,
      SAMPLE_OUTPUT_COLUMNS.map((column) => ({ name: column.Name, type: column.Type })),
    );
  } catch (error) {
    throw new Error(`rowLevelPermissionTagConfiguration is not valid: ${(error as Error).message}`);
  }
  return configuration;
}

export async function startQuickSightEmulator(options: QuickSightEmulatorOptions): Promise<QuickSightEmulator> {
  if (!/^\d{12}$/.test(options.accountId)) throw new Error('accountId must be a 12-digit AWS account ID');
  if (!/^[a-z]{2}(-[a-z]+)+-\d$/.test(options.region))
    throw new Error(`region ${options.region} is not an AWS region name`);
  const host = options.host ?? '127.0.0.1';
  const now = options.now ?? Date.now;
  if (options.rowLevelSecurity && !/^[^/]{1,512}$/.test(options.rowLevelSecurity.rulesDataSetId)) {
    throw new Error('rowLevelSecurity.rulesDataSetId must be a dataset ID (1-512 characters, no /)');
  }
  const tagRules = checkedSampleTagRules(options.rowLevelPermissionTagConfiguration);
  const snapshotJobStepMs = options.snapshotJobStepMs ?? 300;
  if (!Number.isFinite(snapshotJobStepMs) || snapshotJobStepMs < 0) throw new Error('snapshotJobStepMs must be >= 0');
  const store = await openStateStore({ dataDir: options.dataDir, accountId: options.accountId, now });
  const snapshotFiles = new SnapshotFiles(path.join(options.dataDir, 'snapshot-files'));
  try {
    await failInterruptedIngestions(store, now);
    await settleSnapshotJobs(store, snapshotFiles, now());
  } catch (error) {
    await store.close();
    throw error;
  }

  const server = createServer();
  const embedServer = options.embedPages
    ? createTlsServer({ key: options.embedPages.tls.key, cert: options.embedPages.tls.cert })
    : undefined;
  let port: number;
  let embedPort: number | undefined;
  try {
    port = await listen(server, options.port ?? 0, host);
    if (embedServer) embedPort = await listen(embedServer, options.embedPages?.port ?? 0, host);
  } catch (error) {
    server.close();
    embedServer?.close();
    await store.close();
    throw error;
  }
  const origin = (scheme: string, name: string, at: number) =>
    `${scheme}://${name.includes(':') ? `[${name}]` : name}:${at}`;
  const url = origin('http', host, port);
  const pagesUrl = origin('http', options.pageHost ?? host, options.pagesPort ?? port);
  const embedUrl = embedPort === undefined ? pagesUrl : origin('https', options.pageHost ?? host, embedPort);
  const reportError = (error: unknown) =>
    console.error('QuickSight emulator: internal error:', error instanceof Error ? error.message : error);
  const background = new Background(reportError);
  const context = {
    scope: { accountId: options.accountId, region: options.region },
    store,
    now,
    baseUrl: pagesUrl,
    embedBaseUrl: embedUrl,
    objects: { readObject: options.readObject, listObjects: options.listObjects },
    rowLevelSecurity: options.rowLevelSecurity,
    rowLevelPermissionTagConfiguration: tagRules,
    snapshots: { stepMs: snapshotJobStepMs, files: snapshotFiles },
    dataSourceCreationMs: options.dataSourceCreationMs ?? 200,
    later: background.later,
  };
  // A data source whose creation the emulator was stopped in the middle of is finished now.
  for (const source of store.state.data.dataSourcesInProgress()) finishCreationLater(context, source.dataSourceId);
  const listener = createRequestListener(context, reportError);
  server.on('request', listener);
  embedServer?.on('request', pagesOnly(listener));

  let closing: Promise<void> | undefined;
  return {
    url,
    pagesUrl,
    embedUrl,
    close() {
      const stop = (listening: Server) =>
        new Promise<void>((resolve) => {
          listening.close(() => resolve());
          listening.closeAllConnections();
        });
      closing ??= Promise.all([stop(server), ...(embedServer ? [stop(embedServer)] : [])])
        .then(() => background.stop())
        .then(() => store.close());
      return closing;
    },
  };
}
