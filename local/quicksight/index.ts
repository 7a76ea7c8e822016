import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openStateStore, type StateStore } from './persistence.ts';
import type { SampleRowLevelSecurity } from './samples.ts';
import { createRequestListener } from './server.ts';

/**
 * Local QuickSight: the REST API the handlers call through `@aws-sdk/client-quicksight`
 * (users, groups, dashboard permissions, embed URLs, sample dashboards, S3 data sources,
 * datasets and their SPICE ingestions) and the embedded dashboard pages, with state kept
 * under `dataDir` across restarts.
 */

export { SAMPLE_DASHBOARDS, SAMPLE_DATA_SETS, dashboardLink } from './catalog.ts';
export { SAMPLE_COMPANIES } from './data/generator.ts';
export { NO_DATA_TEXT } from './render/pages.ts';
export type { SampleRowLevelSecurity } from './samples.ts';

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
  /** Reads an S3 object's text for ingestions (manifests and data files); undefined when it does not exist. */
  readObject?: (bucket: string, key: string) => Promise<string | undefined>;
  /** Lists the keys under a prefix, for manifests with URIPrefixes; without it such manifests fail to load. */
  listObjects?: (bucket: string, prefix: string) => Promise<string[]>;
}

export interface QuickSightEmulator {
  /** `http://<host>:<port>`: the SDK endpoint. */
  url: string;
  /** Origin of the embed pages: `http://<pageHost>:<pagesPort>` (the same as `url` without either). */
  pagesUrl: string;
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

export async function startQuickSightEmulator(options: QuickSightEmulatorOptions): Promise<QuickSightEmulator> {
  if (!/^\d{12}$/.test(options.accountId)) throw new Error('accountId must be a 12-digit AWS account ID');
  if (!/^[a-z]{2}(-[a-z]+)+-\d$/.test(options.region)) throw new Error(`region ${options.region} is not an AWS region name`);
  const host = options.host ?? '127.0.0.1';
  const now = options.now ?? Date.now;
  if (options.rowLevelSecurity && !/^[^/]{1,512}$/.test(options.rowLevelSecurity.rulesDataSetId)) {
    throw new Error('rowLevelSecurity.rulesDataSetId must be a dataset ID (1-512 characters, no /)');
  }
  const store = await openStateStore({ dataDir: options.dataDir, accountId: options.accountId, now });
  try {
    await failInterruptedIngestions(store, now);
  } catch (error) {
    await store.close();
    throw error;
  }

  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await store.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const origin = (name: string, at: number) => `http://${name.includes(':') ? `[${name}]` : name}:${at}`;
  const url = origin(host, port);
  const pagesUrl = origin(options.pageHost ?? host, options.pagesPort ?? port);
  server.on(
    'request',
    createRequestListener(
      {
        scope: { accountId: options.accountId, region: options.region },
        store,
        now,
        baseUrl: pagesUrl,
        objects: { readObject: options.readObject, listObjects: options.listObjects },
        rowLevelSecurity: options.rowLevelSecurity,
      },
      (error) =>
      console.error('QuickSight emulator: internal error:', error instanceof Error ? error.message : error),
    ),
  );

  let closing: Promise<void> | undefined;
  return {
    url,
    pagesUrl,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => store.close());
      return closing;
    },
  };
}
