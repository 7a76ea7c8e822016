import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openStateStore } from './persistence.ts';
import { createRequestListener } from './server.ts';

/**
 * Local QuickSight: the REST API the handlers call through `@aws-sdk/client-quicksight`
 * (users, dashboard permissions, embed URLs, sample dashboards) and the embedded dashboard
 * pages, with state kept under `dataDir` across restarts.
 */

export { SAMPLE_DASHBOARDS, dashboardLink } from './catalog.ts';

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
}

export interface QuickSightEmulator {
  /** `http://<host>:<port>`: the SDK endpoint. */
  url: string;
  /** Origin of the embed pages: `http://<pageHost>:<pagesPort>` (the same as `url` without either). */
  pagesUrl: string;
  close(): Promise<void>;
}

export async function startQuickSightEmulator(options: QuickSightEmulatorOptions): Promise<QuickSightEmulator> {
  if (!/^\d{12}$/.test(options.accountId)) throw new Error('accountId must be a 12-digit AWS account ID');
  if (!/^[a-z]{2}(-[a-z]+)+-\d$/.test(options.region)) throw new Error(`region ${options.region} is not an AWS region name`);
  const host = options.host ?? '127.0.0.1';
  const now = options.now ?? Date.now;
  const store = await openStateStore({ dataDir: options.dataDir, accountId: options.accountId, now });

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
    createRequestListener({ scope: { accountId: options.accountId, region: options.region }, store, now, baseUrl: pagesUrl }, (error) =>
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
