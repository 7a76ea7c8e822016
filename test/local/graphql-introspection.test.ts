import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProductSchema } from '#local/graphql/schema.ts';
import { startGraphqlServer, type GraphqlServer } from '#local/graphql/server.ts';
import { poolKeys, poolServerOptions, signPoolToken } from './support/graphql-pool.ts';

/**
 * The deployed API disables introspection (lib/graphql-api.ts: `introspectionConfig:
 * IntrospectionConfig.DISABLED`), so local mode's stand-in refuses it as AppSync does: the
 * operation fails validation and no resolver runs.
 * - https://docs.aws.amazon.com/appsync/latest/devguide/configuration-limits.html
 *   ("Using the introspection feature": disabled, "a validation error will appear in the response")
 * - https://docs.aws.amazon.com/sdk-for-kotlin/api/latest/appsync/aws.sdk.kotlin.services.appsync.model/-create-graphql-api-request/introspection-config.html
 *   (CreateGraphqlApi `introspectionConfig`: "This field will produce an error if the operation
 *   attempts to use the introspection feature while this field is disabled.")
 */

let server: GraphqlServer;
let token: string;
const resolved: string[] = [];

beforeAll(async () => {
  const { privateKey, jwks } = await poolKeys();
  token = await signPoolToken(privateKey);
  server = await startGraphqlServer({
    ...poolServerOptions(jwks),
    schema: await loadProductSchema(),
    handler: async (event) => {
      resolved.push((event as { info: { fieldName: string } }).info.fieldName);
      return { items: [{ id: 'v1', name: 'Sales' }], nextToken: null };
    },
  });
});
afterAll(() => server?.close());

const post = async (query: string) => {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: token },
    body: JSON.stringify({ query }),
  });
  return {
    status: response.status,
    body: (await response.json()) as {
      data: unknown;
      errors?: { errorType: string | null; message: string; path: unknown }[];
    },
  };
};

const undefinedField = (field: string) => ({
  errorType: 'ValidationError',
  path: null,
  message: `Validation error of type FieldUndefined: Field '${field}' in type 'Query' is undefined @ '${field}'`,
});

describe('local GraphQL refuses introspection, as the deployed API does', () => {
  it('answers __schema and __type with a validation error and no data', async () => {
    for (const [query, field] of [
      ['{ __schema { types { name } } }', '__schema'],
      ['{ __type(name: "TableauView") { fields { name } } }', '__type'],
      ['query Probe { __schema { queryType { name } } }', '__schema'],
    ] as const) {
      const { status, body } = await post(query);
      expect(status).toBe(200);
      expect(body.data).toBeNull();
      expect(body.errors).toEqual([expect.objectContaining(undefinedField(field))]);
      expect(JSON.stringify(body)).not.toContain('TableauView"');
    }
  });

  it('refuses the standard introspection query that GraphQL tools send', async () => {
    const { body } = await post(getIntrospectionQuery());
    expect(body.data).toBeNull();
    expect(body.errors?.map((error) => error.message)).toEqual([undefinedField('__schema').message]);
  });

  it('runs nothing of an operation that also asks for the schema, even through a fragment', async () => {
    resolved.length = 0;
    for (const query of [
      '{ listTableauViews { items { id } } __schema { types { name } } }',
      '{ ...Probe listTableauViews { items { id } } } fragment Probe on Query { __type(name: "Query") { name } }',
    ]) {
      const { body } = await post(query);
      expect(body.data).toBeNull();
      expect(body.errors?.[0]?.errorType).toBe('ValidationError');
    }
    expect(resolved).toEqual([]);
  });

  it('still answers __typename, which names a type without describing the schema', async () => {
    const { body } = await post('{ listTableauViews { __typename items { id __typename } } }');
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({
      listTableauViews: { __typename: 'ModelTableauViewConnection', items: [{ id: 'v1', __typename: 'TableauView' }] },
    });
  });
});
