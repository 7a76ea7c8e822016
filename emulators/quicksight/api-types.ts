import type { AccountScope } from './arns.ts';
import type { RowLevelPermissionTagConfiguration } from './data-shapes.ts';
import type { ObjectStore } from './ingest.ts';
import type { StateStore } from './persistence.ts';
import type { SampleRowLevelSecurity } from './samples.ts';
import type { SnapshotFiles } from './snapshot-files.ts';

/** A time of the emulator (epoch milliseconds) as QuickSight's answers give times: epoch seconds. */
export const epochSeconds = (ms: number) => ms / 1000;

/** What every API operation handler gets besides its request. */
export interface ApiContext {
  readonly scope: AccountScope;
  readonly store: StateStore;
  readonly now: () => number;
  /** The emulator's own address, for the URLs it hands out. */
  readonly baseUrl: string;
  /** Origin of the embed URLs it hands out (https when the embed pages have their own listener). */
  readonly embedBaseUrl: string;
  /** Where ingestions read S3 objects (manifests and data files). */
  readonly objects: ObjectStore;
  /** The rules the company-scoped sample datasets apply, if any. */
  readonly rowLevelSecurity?: SampleRowLevelSecurity;
  /** The tag rules the company-scoped sample datasets apply, if any. */
  readonly rowLevelPermissionTagConfiguration?: RowLevelPermissionTagConfiguration;
  /** Snapshot jobs: how long each of QUEUED and RUNNING lasts, and where their files are kept. */
  readonly snapshots: { readonly stepMs: number; readonly files: SnapshotFiles };
  /** How long after CreateDataSource the data source's creation ends (QuickSight creates them asynchronously). */
  readonly dataSourceCreationMs: number;
  /**
   * Runs `task` after `delayMs`, as QuickSight finishes work after answering. A task scheduled
   * under a key replaces one still waiting under it; closing the emulator drops waiting tasks
   * and waits for running ones.
   */
  readonly later: (key: string, delayMs: number, task: () => Promise<void>) => void;
}

export interface ApiRequest {
  /** Decoded path labels, e.g. AwsAccountId, Namespace, UserName, DashboardId. */
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** Parsed JSON body of POST/PUT requests; `{}` when there is none. */
  readonly body: unknown;
}

interface ApiResponse {
  readonly status?: number;
  readonly body: Record<string, unknown>;
}

export interface ApiOperation {
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Route of the QuickSight API reference, labels in braces. */
  readonly path: string;
  readonly handle: (request: ApiRequest, context: ApiContext) => Promise<ApiResponse> | ApiResponse;
}
