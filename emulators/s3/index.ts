import { createServer } from 'node:http';
import { join } from 'node:path';
import { closeServer, httpUrl, listen } from '../shared/http.ts';
import { createS3Listener } from './server.ts';
import { ObjectStore } from './store.ts';

/**
 * Local S3: the path-style REST API subset the functions use (lambdas/shared/aws/s3.ts), for
 * the buckets of the synthesized template, with objects kept under the data directory across
 * restarts. It also hands its objects to the other stand-ins directly: the QuickSight
 * emulator reads a data source's manifest and files with `readObject`, as QuickSight reads
 * them with the data source's role.
 */

export { LIST_BUCKET_HEADER } from './server.ts';

/** Where the stand-in keeps its buckets inside local mode's data directory. */
export const s3DataDir = (dataDir: string): string => join(dataDir, 's3');

/** S3's bucket naming rules (general purpose buckets): 3-63 characters, lowercase letters, digits, dots and hyphens. */
const BUCKET_NAME = /^(?!xn--)(?!.*\.\.)(?!\d+\.\d+\.\d+\.\d+$)[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

export interface S3StandInOptions {
  /** Folder of the buckets (`s3DataDir(dataDir)` in local mode). */
  readonly dataDir: string;
  /** The buckets that exist: the template's. */
  readonly buckets: readonly string[];
  /** @default '127.0.0.1' */
  readonly host?: string;
  /** 0 = any free port. */
  readonly port?: number;
  readonly now?: () => Date;
  readonly log?: (line: string) => void;
}

export interface S3StandIn {
  /** `http://<host>:<port>`: the endpoint (path-style). */
  readonly url: string;
  /** An object's body as UTF-8 text; undefined when the bucket or the key does not exist. */
  readObject(bucket: string, key: string): Promise<string | undefined>;
  /** The keys of a bucket under a prefix (none for a bucket that does not exist). */
  listObjects(bucket: string, prefix: string): Promise<string[]>;
  close(): Promise<void>;
}

export async function startS3StandIn(options: S3StandInOptions): Promise<S3StandIn> {
  for (const bucket of options.buckets) {
    if (!BUCKET_NAME.test(bucket)) throw new Error(`"${bucket}" is not a valid S3 bucket name`);
  }
  const store = await ObjectStore.open(options.dataDir, options.buckets);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const host = options.host ?? '127.0.0.1';
  const server = createServer(
    createS3Listener({
      store,
      ...(options.now && { now: options.now }),
      onInternalError: (error) =>
        log(`S3 stand-in: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
    }),
  );
  const port = await listen(server, options.port ?? 0, host);
  return {
    url: httpUrl(host, port),
    readObject: async (bucket, key) => (await store.get(bucket, key))?.body.toString('utf8'),
    listObjects: (bucket, prefix) => store.keys(bucket, prefix),
    close: () => closeServer(server),
  };
}
