import type { $ZodType, output } from 'zod/v4/core';
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
}

/**
 * The AppSync API with user-pool authorization: the raw access token in Authorization (no
 * Bearer prefix). `schema` checks the `data` member of the answer.
 */
export function createGraphqlClient({ url, getAccessToken, fetch: fetchImpl = fetch }: GraphqlClientOptions): GraphqlClient {
  return {
    async query(document, variables, schema) {
      const token = await getAccessToken();
      let response: Response;
      try {
        response = await fetchImpl(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: token },
          body: JSON.stringify({ query: document, variables }),
          cache: 'no-store',
        });
      } catch {
        throw new GraphqlError('A network error has occurred.');
      }
      const body = (await response.json().catch(() => undefined)) as
        | { data?: unknown; errors?: { message?: unknown }[] }
        | undefined;
      const firstError = body?.errors?.[0]?.message;
      if (typeof firstError === 'string') throw new GraphqlError(firstError);
      if (!response.ok || !body) throw new GraphqlError(`HTTP ${response.status}: ${response.statusText}`);
      const checked = checkShape(schema, body.data);
      if (!checked.ok) throw new GraphqlError(`Unexpected response from the API (${checked.problem})`);
      return checked.data;
    },
  };
}
