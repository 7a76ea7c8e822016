import type { $ZodType, output } from 'zod/v4/core';
import { backoffDelay, defaultSleep, MAX_ATTEMPTS, NETWORK_ERROR, RETRYABLE_STATUSES } from './api.ts';
import { checkShape } from './schema.ts';

export class GraphqlError extends Error {
  override readonly name = 'GraphqlError';
}

export interface GraphqlClient {
  query<S extends $ZodType>(document: string, variables: Record<string, unknown>, schema: S): Promise<output<S>>;
}

export interface GraphqlClientOptions {
  readonly url: string;
  readonly getAccessToken: () => Promise<string>;
  readonly fetch?: typeof fetch;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** Reads change nothing, so they may be sent again; a mutation is sent once. */
const isQueryDocument = (document: string) => /^\s*(query\b|\{)/.test(document);

/**
 * The AppSync API with user-pool authorization: the raw access token in Authorization (no
 * Bearer prefix). `schema` checks the `data` member of the answer. Queries are retried on
 * throttling, 5xx and network failures as the function client's GET calls are (spec section 9),
 * so a passing failure does not show as an empty list.
 */
export function createGraphqlClient({
  url,
  getAccessToken,
  fetch: fetchImpl = fetch,
  sleep = defaultSleep,
}: GraphqlClientOptions): GraphqlClient {
  const send = async (document: string, variables: Record<string, unknown>): Promise<Response> => {
    const token = await getAccessToken();
    const attempts = isQueryDocument(document) ? MAX_ATTEMPTS : 1;
    for (let attempt = 1; ; attempt += 1) {
      let response: Response | null = null;
      try {
        response = await fetchImpl(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: token },
          body: JSON.stringify({ query: document, variables }),
          cache: 'no-store',
        });
      } catch {
        if (attempt >= attempts) throw new GraphqlError(NETWORK_ERROR);
      }
      if (response && (!RETRYABLE_STATUSES.has(response.status) || attempt >= attempts)) return response;
      await sleep(backoffDelay(attempt));
    }
  };

  return {
    async query(document, variables, schema) {
      const response = await send(document, variables);
      const body = (await response.json().catch(() => undefined)) as
        { data?: unknown; errors?: { message?: unknown }[] } | undefined;
      const firstError = body?.errors?.[0]?.message;
      if (typeof firstError === 'string') throw new GraphqlError(firstError);
      if (!response.ok || !body) throw new GraphqlError(`HTTP ${response.status}: ${response.statusText}`);
      const checked = checkShape(schema, body.data);
      if (!checked.ok) throw new GraphqlError(`Unexpected response from the API (${checked.problem})`);
      return checked.data;
    },
  };
}
