import type { AccountScope } from './catalog.ts';
import type { StateStore } from './persistence.ts';

/** What every API operation handler gets besides its request. */
export interface ApiContext {
  readonly scope: AccountScope;
  readonly store: StateStore;
  readonly now: () => number;
  /** The emulator's own address, for the URLs it hands out. */
  readonly baseUrl: string;
}

export interface ApiRequest {
  /** Decoded path labels, e.g. AwsAccountId, Namespace, UserName, DashboardId. */
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** Parsed JSON body of POST/PUT requests; `{}` when there is none. */
  readonly body: unknown;
}

export interface ApiResponse {
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
