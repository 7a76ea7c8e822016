import type { $ZodType, output } from 'zod/v4/core';
import { errorBodySchema } from '#contracts/errors.ts';
import { NO_TOKEN_MESSAGE } from '#contracts/errors.ts';
import { checkShape } from './schema.ts';

/**
 * A failed call to one of the functions, with the fields of the contract's error body.
 * `error` is the server's text, or 'HTTP {status}: {statusText}' when the body has none.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly statusText: string;
  readonly error: string;
  readonly reason?: string;
  readonly suggestion?: string;
  readonly userEmail?: string;
  readonly missing?: readonly string[];
  readonly fields?: readonly string[];

  constructor(init: {
    status: number;
    statusText?: string;
    error: string;
    reason?: string;
    suggestion?: string;
    userEmail?: string;
    missing?: readonly string[];
    fields?: readonly string[];
  }) {
    super(init.error);
    this.status = init.status;
    this.statusText = init.statusText ?? '';
    this.error = init.error;
    if (init.reason !== undefined) this.reason = init.reason;
    if (init.suggestion !== undefined) this.suggestion = init.suggestion;
    if (init.userEmail !== undefined) this.userEmail = init.userEmail;
    if (init.missing !== undefined) this.missing = init.missing;
    if (init.fields !== undefined) this.fields = init.fields;
  }
}

export const NETWORK_ERROR = 'A network error has occurred.';

/** Statuses worth another attempt for idempotent calls (spec section 9). */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);
export const MAX_ATTEMPTS = 3;
const MAX_BACKOFF_MS = 300_000;

/** 2^attempt * 100 ms plus up to 100 ms of jitter, capped. */
export const backoffDelay = (attempt: number, random = Math.random) =>
  Math.min(2 ** attempt * 100 + random() * 100, MAX_BACKOFF_MS);

interface RequestOptions<S extends $ZodType> {
  readonly method?: 'GET' | 'POST';
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** The contract's response schema; a body that does not match is an error. */
  readonly schema: S;
  readonly signal?: AbortSignal;
}

export interface ApiClient {
  request<S extends $ZodType>(url: string, options: RequestOptions<S>): Promise<output<S>>;
}

export interface ApiClientOptions {
  readonly getAccessToken: () => Promise<string>;
  readonly fetch?: typeof fetch;
  readonly sleep?: (ms: number) => Promise<void>;
}

export const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function errorFromResponse(response: Response): Promise<ApiError> {
  const fallback = `HTTP ${response.status}: ${response.statusText}`;
  const text = await response.text().catch(() => '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const body = errorBodySchema.safeParse(parsed);
  if (!body.success) return new ApiError({ status: response.status, statusText: response.statusText, error: fallback });
  return new ApiError({ status: response.status, statusText: response.statusText, ...body.data });
}

/**
 * JSON client for the function URLs: bearer access token, contract-checked responses,
 * typed errors. GET calls are retried on throttling, 5xx and network failures; POST
 * actions are not, so a message or a change is never sent twice.
 */
export function createApiClient({
  getAccessToken,
  fetch: fetchImpl = fetch,
  sleep = defaultSleep,
}: ApiClientOptions): ApiClient {
  return {
    async request(url, { method = 'POST', body, headers, schema, signal }) {
      let token: string;
      try {
        token = await getAccessToken();
      } catch {
        throw new ApiError({ status: 401, error: NO_TOKEN_MESSAGE });
      }
      const init: RequestInit = {
        method,
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(signal ? { signal } : {}),
        cache: 'no-store',
      };
      const attempts = method === 'GET' ? MAX_ATTEMPTS : 1;
      for (let attempt = 1; ; attempt += 1) {
        let response: Response;
        try {
          response = await fetchImpl(url, init);
        } catch (error) {
          if (signal?.aborted) throw error;
          if (attempt < attempts) {
            await sleep(backoffDelay(attempt));
            continue;
          }
          throw new ApiError({ status: 0, error: NETWORK_ERROR });
        }
        if (!response.ok) {
          if (RETRYABLE_STATUSES.has(response.status) && attempt < attempts) {
            await sleep(backoffDelay(attempt));
            continue;
          }
          throw await errorFromResponse(response);
        }
        const data: unknown = await response.json().catch(() => undefined);
        const checked = checkShape(schema, data);
        if (!checked.ok) {
          throw new ApiError({
            status: response.status,
            statusText: response.statusText,
            error: `Unexpected response from the server (${checked.problem})`,
          });
        }
        return checked.data;
      }
    },
  };
}
