import type { AppSyncResolverEvent } from 'aws-lambda';
import { parse, type FieldNode, type OperationDefinitionNode } from 'graphql';
import type { JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appsyncSchema, loadProductSchema } from '#local/graphql/schema.ts';
import { selectionSetList } from '#local/graphql/resolver-event.ts';
import { startGraphqlServer, type GraphqlServer, type ResolverHandler } from '#local/graphql/server.ts';
import {
  ISSUER,
  poolKeys,
  poolServerOptions,
  signPoolToken,
  type SigningKey,
  type TokenOptions,
} from './support/graphql-pool.ts';
import { QUERY_DEPTH_LIMIT, RESOLVER_COUNT_LIMIT } from '#contracts/graphql-limits.ts';

let poolKey: SigningKey;
let otherKey: SigningKey;
let jwks: { keys: JWK[] };

const token = ({ key = poolKey, ...options }: TokenOptions & { key?: SigningKey } = {}) => signPoolToken(key, options);

const calls: AppSyncResolverEvent<Record<string, unknown>>[] = [];
let answer: (event: AppSyncResolverEvent<Record<string, unknown>>) => Promise<unknown> = async () => null;
const handler: ResolverHandler = async (event) => {
  const e = event as AppSyncResolverEvent<Record<string, unknown>>;
  calls.push(e);
  return answer(e);
};

async function post(server: GraphqlServer, body: unknown, authorization?: string) {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization && { authorization }) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** What every test server shares: the pool's keys and the recording handler. */
const serverOptions = () => ({ handler, ...poolServerOptions(jwks) });

const UNAUTHORIZED = {
  errors: [{ errorType: 'UnauthorizedException', message: 'Valid authorization header not provided.' }],
};

describe('local GraphQL server', () => {
  let server: GraphqlServer;
  let guarded: GraphqlServer;

  beforeAll(async () => {
    ({ privateKey: poolKey, jwks } = await poolKeys());
    ({ privateKey: otherKey } = await poolKeys());
    server = await startGraphqlServer({ ...serverOptions(), schema: await loadProductSchema() });
    guarded = await startGraphqlServer({
      ...serverOptions(),
      schema: appsyncSchema(`
        type Query { ping: String }
        type Mutation { purge: String @aws_cognito_user_pools(cognito_groups: ["Admins"]) machineOnly: String @aws_iam }
      `),
    });
  });

  afterAll(async () => {
    await server?.close();
    await guarded?.close();
  });

  it('refuses a missing, forged, foreign or expired token with 401 as AppSync does', async () => {
    const query = { query: '{ listDashboardMetadata { items { id } } }' };
    calls.length = 0;
    for (const authorization of [
      undefined,
      'not-a-jwt',
      await token({ key: otherKey }),
      await token({ clientId: 'another-client' }),
      await token({ expiresIn: '-1m' }),
      `Bearer ${await token()}`,
    ]) {
      expect(await post(server, query, authorization)).toEqual({ status: 401, body: UNAUTHORIZED });
    }
    expect(calls).toHaveLength(0);
  });

  it('calls the resolver once per root field with the direct-resolver event and resolves nested fields from its result', async () => {
    calls.length = 0;
    answer = async (event) =>
      event.info.fieldName === 'listTableauViews'
        ? { items: [{ id: 'v1', name: 'Sales', isDefault: true, internal: 'hidden' }], nextToken: null }
        : { id: 'd1', dashboardId: 'sales', dashboardName: 'Sales', dashboardLink: 'http://x' };
    const accessToken = await token();
    const { status, body } = await post(
      server,
      {
        query: `query Views($limit: Int) {
          listTableauViews(limit: $limit, filter: { userEmail: { eq: "someone@example.com" } }) { items { ...ViewFields } nextToken }
          getDashboardMetadata(id: "d1") { dashboardId }
        }
        fragment ViewFields on TableauView { id name isDefault __typename }`,
        variables: { limit: 5 },
      },
      accessToken,
    );
    expect(status).toBe(200);
    expect(body).toEqual({
      data: {
        listTableauViews: {
          items: [{ id: 'v1', name: 'Sales', isDefault: true, __typename: 'TableauView' }],
          nextToken: null,
        },
        getDashboardMetadata: { dashboardId: 'sales' },
      },
    });
    expect(calls).toHaveLength(2);
    const list = calls.find((c) => c.info.fieldName === 'listTableauViews')!;
    expect(list.arguments).toEqual({ limit: 5, filter: { userEmail: { eq: 'someone@example.com' } } });
    expect(list.info).toMatchObject({
      parentTypeName: 'Query',
      variables: { limit: 5 },
      selectionSetList: ['items', 'items/id', 'items/name', 'items/isDefault', 'nextToken'],
    });
    expect(list.source).toBeNull();
    expect(list.request.headers.authorization).toBe(accessToken);
    expect(list.identity).toMatchObject({
      sub: 'user-uuid',
      username: 'user-uuid',
      issuer: ISSUER,
      groups: ['Users'],
      defaultAuthStrategy: 'ALLOW',
    });
  });

  it('serves the subscription fields, their enums and their input as the product schema defines them', async () => {
    calls.length = 0;
    const subscription = {
      id: '0b6c8f1e-5d2a-4c1b-9e3f-7a8d9c0b1e2f',
      dashboardId: 'sales',
      format: 'PDF',
      frequency: 'WEEKLY',
      weekday: 'MONDAY',
      time: '08:00',
      timeZone: 'America/Argentina/Buenos_Aires',
      status: 'ACTIVE',
      nextDeliveryAt: '2026-03-09T11:00:00.000Z',
      createdAt: '2026-03-02T10:00:00.000Z',
    };
    answer = async (event) => (event.info.fieldName === 'listMySubscriptions' ? [subscription] : subscription);
    const input = { dashboardId: 'sales', format: 'PDF', frequency: 'WEEKLY', weekday: 'MONDAY' };
    const { status, body } = await post(
      server,
      {
        query: `mutation Subscribe($input: CreateSubscriptionInput!) {
          createSubscription(input: $input) { id status nextDeliveryAt __typename }
          setSubscriptionPaused(id: "${subscription.id}", paused: true) { status }
          deleteSubscription(id: "${subscription.id}") { id }
        }`,
        variables: { input: { ...input, time: '08:00', timeZone: subscription.timeZone } },
      },
      await token(),
    );
    expect(status).toBe(200);
    expect(body).toEqual({
      data: {
        createSubscription: {
          id: subscription.id,
          status: 'ACTIVE',
          nextDeliveryAt: subscription.nextDeliveryAt,
          __typename: 'DashboardSubscription',
        },
        setSubscriptionPaused: { status: 'ACTIVE' },
        deleteSubscription: { id: subscription.id },
      },
    });
    expect(calls.map((call) => [call.info.parentTypeName, call.info.fieldName, call.arguments])).toEqual([
      ['Mutation', 'createSubscription', { input: { ...input, time: '08:00', timeZone: subscription.timeZone } }],
      ['Mutation', 'setSubscriptionPaused', { id: subscription.id, paused: true }],
      ['Mutation', 'deleteSubscription', { id: subscription.id }],
    ]);
    const list = await post(server, { query: '{ listMySubscriptions { id weekday dayOfMonth } }' }, await token());
    expect(list.body).toEqual({
      data: { listMySubscriptions: [{ id: subscription.id, weekday: 'MONDAY', dayOfMonth: null }] },
    });
    // A value outside an enum never reaches the resolver.
    calls.length = 0;
    const refused = await post(
      server,
      {
        query: `mutation { createSubscription(input: { dashboardId: "sales", format: XLSX, frequency: DAILY, time: "08:00", timeZone: "UTC" }) { id } }`,
      },
      await token(),
    );
    expect(refused.body.errors).toBeDefined();
    expect(calls).toHaveLength(0);
  });

  it('accepts an ID token of the pool as AppSync does', async () => {
    calls.length = 0;
    answer = async () => ({ items: [], nextToken: null });
    const { status } = await post(
      server,
      { query: '{ listDashboardMetadata { nextToken } }' },
      await token({ use: 'id' }),
    );
    expect(status).toBe(200);
    expect(calls[0]?.identity).toMatchObject({ username: 'user-uuid', claims: { email: 'someone@example.com' } });
  });

  it('reports a resolver failure as an AppSync error on its field', async () => {
    answer = async () => {
      const error = new Error('You can only read your own views');
      error.name = 'Unauthorized';
      throw error;
    };
    const { status, body } = await post(server, { query: '{\n  getTableauView(id: "v2") { id }\n}' }, await token());
    expect(status).toBe(200);
    expect(body).toEqual({
      data: { getTableauView: null },
      errors: [
        {
          path: ['getTableauView'],
          data: null,
          errorType: 'Unauthorized',
          errorInfo: null,
          locations: [{ line: 2, column: 3, sourceName: null }],
          message: 'You can only read your own views',
        },
      ],
    });
  });

  it('answers invalid documents with validation errors without calling the resolver', async () => {
    calls.length = 0;
    const invalid = await post(server, { query: '{ listTableauViews { items { nope } } }' }, await token());
    expect(invalid.status).toBe(200);
    expect(invalid.body.data).toBeNull();
    expect(invalid.body.errors).toEqual([
      expect.objectContaining({
        errorType: 'ValidationError',
        path: null,
        locations: [{ line: 1, column: 30, sourceName: null }],
      }),
    ]);
    const syntax = await post(server, { query: '{ listTableauViews {' }, await token());
    expect((syntax.body.errors as { errorType: string }[])[0]?.errorType).toBe('InvalidSyntax');
    expect(calls).toHaveLength(0);
  });

  it('answers malformed requests with 400 MalformedHttpRequestException', async () => {
    const accessToken = await token();
    for (const [body, message] of [
      ['', 'Request body is empty.'],
      ['meow', 'Unable to parse GraphQL query.'],
      ['{}', 'Unable to parse GraphQL query.'],
      ['[]', 'Unable to parse GraphQL query.'],
    ] as const) {
      expect(await post(server, body, accessToken)).toEqual({
        status: 400,
        body: { errors: [{ errorType: 'MalformedHttpRequestException', message }] },
      });
    }
  });

  it('enforces cognito_groups and auth-mode directives on fields', async () => {
    calls.length = 0;
    answer = async () => 'done';
    const asUser = await post(guarded, { query: 'mutation { purge }' }, await token({ groups: ['Users'] }));
    expect(asUser.body.errors).toEqual([
      expect.objectContaining({
        errorType: 'Unauthorized',
        message: 'Not Authorized to access purge on type Mutation',
      }),
    ]);
    const asAdmin = await post(guarded, { query: 'mutation { purge }' }, await token({ groups: ['Admins'] }));
    expect(asAdmin.body).toEqual({ data: { purge: 'done' } });
    const iamOnly = await post(guarded, { query: 'mutation { machineOnly }' }, await token({ groups: ['Admins'] }));
    expect(iamOnly.body.errors).toEqual([expect.objectContaining({ errorType: 'Unauthorized' })]);
    expect(calls).toHaveLength(1);
  });
});

describe('request limits of the local GraphQL server', () => {
  let server: GraphqlServer;
  let recursive: GraphqlServer;
  beforeAll(async () => {
    server = await startGraphqlServer({ ...serverOptions(), schema: await loadProductSchema() });
    recursive = await startGraphqlServer({
      ...serverOptions(),
      schema: appsyncSchema('type Node { name: String child: Node } type Query { node: Node }'),
    });
  });
  afterAll(async () => {
    await server?.close();
    await recursive?.close();
  });

  const refusal = (body: Record<string, unknown>) => {
    expect(body.data).toBeNull();
    const errors = body.errors as { errorType: string; message: string }[];
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).not.toMatch(/call stack|RangeError|at .+\(/);
    return errors[0]!;
  };

  it('uses the numbers the AppSync API is deployed with', () => {
    expect([QUERY_DEPTH_LIMIT, RESOLVER_COUNT_LIMIT]).toEqual([8, 10]);
  });

  it(`refuses more than ${RESOLVER_COUNT_LIMIT} root fields, aliases included, before any resolver runs`, async () => {
    calls.length = 0;
    answer = async () => null;
    const aliases = (n: number) =>
      `{ ${Array.from({ length: n }, (_, i) => `d${i}: getDashboardMetadata(id: "${i}") { id }`).join(' ')} }`;
    const { status, body } = await post(server, { query: aliases(100) }, await token());
    expect(status).toBe(200);
    expect(refusal(body)).toEqual({
      path: null,
      data: null,
      errorType: 'ValidationError',
      errorInfo: null,
      locations: null,
      message: `The request has 100 root fields; at most ${RESOLVER_COUNT_LIMIT} are allowed per request.`,
    });
    expect(calls).toHaveLength(0);

    const viaFragment = await post(
      server,
      {
        query: `query { ...F ...F d99: getDashboardMetadata(id: "x") { id } } fragment F on Query { ${aliases(10).slice(1, -1)} }`,
      },
      await token(),
    );
    expect(refusal(viaFragment.body).message).toContain('has 11 root fields');
    expect(calls).toHaveLength(0);

    const allowed = await post(server, { query: aliases(RESOLVER_COUNT_LIMIT) }, await token());
    expect(allowed.body.errors).toBeUndefined();
    expect(calls).toHaveLength(RESOLVER_COUNT_LIMIT);
  });

  it(`refuses a selection nested deeper than ${QUERY_DEPTH_LIMIT} levels before any resolver runs`, async () => {
    calls.length = 0;
    answer = async () => ({ name: 'root', child: null });
    const nested = (levels: number) => `{ node { ${'child { '.repeat(levels - 2)}name${' }'.repeat(levels - 2)} } }`;
    const deep = await post(recursive, { query: nested(QUERY_DEPTH_LIMIT + 1) }, await token());
    expect(refusal(deep.body)).toMatchObject({
      errorType: 'ValidationError',
      message: `The query is ${QUERY_DEPTH_LIMIT + 1} levels deep; at most ${QUERY_DEPTH_LIMIT} are allowed.`,
    });
    const viaFragments = await post(
      recursive,
      {
        query: `{ node { ...A } } fragment A on Node { child { ...B } } fragment B on Node { child { child { child { child { child { child { name } } } } } } }`,
      },
      await token(),
    );
    expect(refusal(viaFragments.body).message).toContain('is 9 levels deep');
    expect(calls).toHaveLength(0);
    const allowed = await post(recursive, { query: nested(QUERY_DEPTH_LIMIT) }, await token());
    expect(allowed.body).toEqual({ data: { node: { child: null } } });
    expect(calls).toHaveLength(1);
  });

  it('answers a 60,000-deep filter with a clear error and no internal text, in the document or in variables', async () => {
    calls.length = 0;
    const depth = 60_000;
    const literal = `{ listTableauViews(filter: ${'{ not: '.repeat(depth)}{ name: { eq: "x" } }${' }'.repeat(depth)}) { items { id } } }`;
    const inDocument = await post(server, { query: literal }, await token());
    expect(inDocument.status).toBe(200);
    expect(refusal(inDocument.body)).toMatchObject({
      errorType: 'ValidationError',
      message: expect.stringMatching(/^The request is nested more than \d+ levels deep\.$/),
    });

    const filter = `${'{"not":'.repeat(depth)}{"name":{"eq":"x"}}${'}'.repeat(depth)}`;
    const query = JSON.stringify(
      'query ($f: ModelTableauViewFilterInput) { listTableauViews(filter: $f) { items { id } } }',
    );
    const variables = await post(server, `{"query":${query},"variables":{"f":${filter}}}`, await token());
    expect(refusal(variables.body)).toMatchObject({
      errorType: 'ValidationError',
      message: expect.stringMatching(/^The request is nested more than \d+ levels deep\.$/),
    });
    expect(calls).toHaveLength(0);
  });
});

describe('selectionSetList', () => {
  it('lists nested paths with fragments expanded and introspection left out', () => {
    const document = parse(`{ a { b c { d } ... on T { e } ...F __typename } } fragment F on T { f { g } }`);
    const operation = document.definitions[0] as OperationDefinitionNode;
    const fragments = Object.fromEntries(
      document.definitions.flatMap((d) => (d.kind === 'FragmentDefinition' ? [[d.name.value, d]] : [])),
    );
    expect(selectionSetList([operation.selectionSet.selections[0] as FieldNode], fragments)).toEqual([
      'b',
      'c',
      'c/d',
      'e',
      'f',
      'f/g',
    ]);
  });
});
