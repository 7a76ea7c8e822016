import type { JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILTER_TERMS_LIMIT } from '#contracts/graphql-limits.ts';
import { FILTER_WIDTH_MESSAGE, filterTermsExceed } from '#local/graphql/filter-width.ts';
import { loadProductSchema } from '#local/graphql/schema.ts';
import { startGraphqlServer, type GraphqlServer, type ResolverHandler } from '#local/graphql/server.ts';
import { poolKeys, poolServerOptions, signPoolToken, type SigningKey } from './support/graphql-pool.ts';

/**
 * The local GraphQL server refuses a request whose filters hold more than the request's 500
 * terms from its tokens, before parsing it: the resolver would refuse it too, but only after
 * parsing, validation and coercion had paid for every term.
 */

const LIST = 'query ($f: ModelTableauViewFilterInput) { listTableauViews(filter: $f) { items { id } } }';
const literal = (filter: string) => `{ listTableauViews(filter: ${filter}) { items { id } } }`;
/** An `or` of `n` comparisons: n parts and n comparisons, 2n terms. */
const orOf = (n: number) => ({ or: Array.from({ length: n }, (_, i) => ({ name: { eq: `View ${i}` } })) });
const orLiteral = (n: number) =>
  `{ or: [${Array.from({ length: n }, (_, i) => `{ name: { eq: "View ${i}" } }`).join(', ')}] }`;

describe('counting filter terms from the tokens', () => {
  /** Whether the count is exactly `terms`: over terms - 1, not over terms. */
  const countsExactly = (query: string, variables: Record<string, unknown>, terms: number) =>
    filterTermsExceed(query, variables, terms - 1) && !filterTermsExceed(query, variables, terms);

  it.each([
    ['an or of 3 comparisons', orLiteral(3), orOf(3), 6],
    ['one comparison', '{ name: { eq: "a" } }', { name: { eq: 'a' } }, 1],
    [
      'every operator of a field, a null one left out',
      '{ name: { eq: "a", ne: "b", beginsWith: "c", lt: null } }',
      { name: { eq: 'a', ne: 'b', beginsWith: 'c', lt: null } },
      3,
    ],
    [
      'a not and an and of two',
      '{ not: { and: [{ id: { eq: "x" } }, { name: { between: ["a", "b"] } }] } }',
      { not: { and: [{ id: { eq: 'x' } }, { name: { between: ['a', 'b'] } }] } },
      5,
    ],
    [
      'null parts of an or (each part counts)',
      '{ or: [null, null, { id: { eq: "x" } }] }',
      { or: [null, null, { id: { eq: 'x' } }] },
      4,
    ],
    ['a single filter given for a list', '{ or: { id: { eq: "x" } } }', { or: { id: { eq: 'x' } } }, 2],
  ])('counts %s as the function does, literally and in variables', (_, text, value, terms) => {
    expect(countsExactly(literal(text), {}, terms)).toBe(true);
    expect(countsExactly(LIST, { f: value }, terms)).toBe(true);
  });

  it('counts every root field, a variable each time a filter names it, and a filter-typed default', () => {
    const twice =
      'query ($f: ModelTableauViewFilterInput) { a: listTableauViews(filter: $f) { items { id } } b: listTableauViews(filter: $f) { items { id } } }';
    expect(countsExactly(twice, { f: orOf(3) }, 12)).toBe(true);
    const withDefault = `query ($f: ModelTableauViewFilterInput = ${orLiteral(4)}) { listTableauViews(filter: $f) { items { id } } }`;
    expect(countsExactly(withDefault, {}, 8)).toBe(true);
    const condition = `mutation { updateTableauView(input: { id: "v" }, condition: ${orLiteral(2)}) { id } }`;
    expect(countsExactly(condition, {}, 4)).toBe(true);
  });

  it('counts nothing of other arguments, aliases, selections or comments', () => {
    const query = `# filter: { or: [${'{ id: { eq: "x" } }, '.repeat(600)}] }
      query ($input: CreateTableauViewInput!) {
        made: createTableauView(input: $input) { id name }
        list: listTableauViews(limit: 5, nextToken: "filter: x") { items { id } }
      }`;
    expect(filterTermsExceed(query, { input: { name: 'or', link: 'https://bi.example.com/x' } }, 0)).toBe(false);
  });
});

describe('the local GraphQL server', () => {
  let key: SigningKey;
  let jwks: { keys: JWK[] };
  let server: GraphqlServer;
  const calls: unknown[] = [];
  const handler: ResolverHandler = async (event) => {
    calls.push(event);
    return { items: [], nextToken: null };
  };

  beforeAll(async () => {
    ({ privateKey: key, jwks } = await poolKeys());
    server = await startGraphqlServer({ handler, ...poolServerOptions(jwks), schema: await loadProductSchema() });
  });
  afterAll(async () => {
    await server?.close();
  });

  const post = async (body: string) => {
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: await signPoolToken(key) },
      body,
    });
    return (await response.json()) as { data?: unknown; errors?: { errorType: string; message: string }[] };
  };
  const refusal = {
    data: null,
    errors: [expect.objectContaining({ errorType: 'ValidationError', message: FILTER_WIDTH_MESSAGE })],
  };

  it('refuses a filter of 25,000 parts, in variables or in the document, without calling the resolver', async () => {
    calls.length = 0;
    expect(await post(JSON.stringify({ query: LIST, variables: { f: orOf(25_000) } }))).toEqual(refusal);
    expect(await post(JSON.stringify({ query: literal(orLiteral(25_000)) }))).toEqual(refusal);
    expect(calls).toEqual([]);
  });

  it('refuses before reading the whole filter: a document broken after its 501st term gets the width answer', async () => {
    const broken = literal(`{ or: [${'{ id: { eq: "x" } } '.repeat(260)} }}}} )) !!! "unterminated`);
    expect(await post(JSON.stringify({ query: broken }))).toEqual(refusal);
    // The same document within the limit is the parser's to refuse.
    const short = literal(`{ or: [${'{ id: { eq: "x" } } '.repeat(3)} }}}} )) !!! "unterminated`);
    expect((await post(JSON.stringify({ query: short }))).errors?.[0]?.errorType).toBe('InvalidSyntax');
  });

  it(`passes ${FILTER_TERMS_LIMIT} terms in all to the resolver, and refuses one more`, async () => {
    calls.length = 0;
    // Ten root fields of 25 parts of one comparison: 10 x 50 = 500 terms.
    const fields = (last: number) =>
      Array.from(
        { length: 10 },
        (_, i) => `f${i}: listTableauViews(filter: ${orLiteral(i === 9 ? last : 25)}) { items { id } }`,
      ).join(' ');
    const within = await post(JSON.stringify({ query: `{ ${fields(25)} }` }));
    expect(within.errors).toBeUndefined();
    expect(calls).toHaveLength(10);
    calls.length = 0;
    expect(await post(JSON.stringify({ query: `{ ${fields(26)} }` }))).toEqual(refusal);
    expect(calls).toEqual([]);
  });
});
