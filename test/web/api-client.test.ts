import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, backoffDelay, createApiClient } from '#web/lib/api.ts';
import { createGraphqlClient, GraphqlError } from '#web/lib/graphql.ts';

const schema = z.object({ message: z.string() });
const noSleep = vi.fn(async () => undefined);

function client(responses: (Response | Error)[], token: () => Promise<string> = async () => 'tok') {
  const fetchMock = vi.fn(async () => {
    const next = responses.shift();
    if (!next) throw new Error('no more responses');
    if (next instanceof Error) throw next;
    return next;
  });
  return { api: createApiClient({ getAccessToken: token, fetch: fetchMock, sleep: noSleep }), fetchMock };
}

describe('function client', () => {
  it('sends JSON with the bearer token and checks the answer', async () => {
    const { api, fetchMock } = client([Response.json({ message: 'ok' })]);
    await expect(api.request('https://fn.example/', { body: { action: 'X' }, schema })).resolves.toEqual({
      message: 'ok',
    });
    expect(fetchMock).toHaveBeenCalledWith(
      'https://fn.example/',
      expect.objectContaining({
        method: 'POST',
        body: '{"action":"X"}',
        headers: expect.objectContaining({ Authorization: 'Bearer tok', 'Content-Type': 'application/json' }),
      }),
    );
  });

  it('turns an error body into a typed error with every field', async () => {
    const body = {
      error: 'Failed to register user',
      reason: 'QuickSight refused',
      suggestion: 'Check the namespace',
      userEmail: 'a@example.com',
      missing: ['QUICKSIGHT_NAMESPACE'],
    };
    const { api } = client([Response.json(body, { status: 502, statusText: 'Bad Gateway' })]);
    const error = await api.request('https://fn.example/', { schema }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 502,
      statusText: 'Bad Gateway',
      ...body,
      message: 'Failed to register user',
    });
  });

  it("falls back to 'HTTP {status}: {statusText}' without an error body", async () => {
    const { api } = client([new Response('<html>', { status: 500, statusText: 'Internal Server Error' })]);
    await expect(api.request('https://fn.example/', { schema })).rejects.toMatchObject({
      error: 'HTTP 500: Internal Server Error',
    });
  });

  it('fails without a token before any request', async () => {
    const { api, fetchMock } = client([], async () => Promise.reject(new Error('signed out')));
    await expect(api.request('https://fn.example/', { schema })).rejects.toMatchObject({
      status: 401,
      error: 'No authentication token found',
    });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('retries a GET on 503 and network errors, at most three attempts', async () => {
    const { api, fetchMock } = client([
      new Response('', { status: 503 }),
      new TypeError('Failed to fetch'),
      Response.json({ message: 'third time' }),
    ]);
    await expect(api.request('https://fn.example/', { method: 'GET', schema })).resolves.toEqual({
      message: 'third time',
    });
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('never retries a POST', async () => {
    const { api, fetchMock } = client([new Response('', { status: 503 }), Response.json({ message: 'x' })]);
    await expect(api.request('https://fn.example/', { body: {}, schema })).rejects.toMatchObject({ status: 503 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('rejects an answer that does not match the contract', async () => {
    const { api } = client([Response.json({ nope: true })]);
    await expect(api.request('https://fn.example/', { schema })).rejects.toThrow(/Unexpected response/);
  });

  it('backs off 2^attempt * 100 ms plus up to 100 ms, capped at 300000 ms', () => {
    expect(backoffDelay(1, () => 0)).toBe(200);
    expect(backoffDelay(2, () => 0.5)).toBe(450);
    expect(backoffDelay(30, () => 0)).toBe(300_000);
  });
});

describe('GraphQL client', () => {
  it('sends the raw token and returns the checked data', async () => {
    const fetchMock = vi.fn(async () => Response.json({ data: { message: 'hi' } }));
    const gql = createGraphqlClient({
      url: 'https://api.example/graphql',
      getAccessToken: async () => 'raw',
      fetch: fetchMock,
    });
    await expect(gql.query('query { message }', {}, schema)).resolves.toEqual({ message: 'hi' });
    expect(fetchMock).toHaveBeenCalledWith(
      'https://api.example/graphql',
      expect.objectContaining({ headers: expect.objectContaining({ Authorization: 'raw' }) }),
    );
  });

  it('raises the first GraphQL error', async () => {
    const fetchMock = vi.fn(async () => Response.json({ data: null, errors: [{ message: 'Not Authorized' }] }));
    const gql = createGraphqlClient({
      url: 'https://api.example/graphql',
      getAccessToken: async () => 'raw',
      fetch: fetchMock,
    });
    await expect(gql.query('query { message }', {}, schema)).rejects.toEqual(new GraphqlError('Not Authorized'));
  });

  const scripted = (responses: (Response | Error)[]) => {
    const fetchMock = vi.fn(async () => {
      const next = responses.shift();
      if (!next) throw new Error('no more responses');
      if (next instanceof Error) throw next;
      return next;
    });
    const gql = createGraphqlClient({
      url: 'https://api.example/graphql',
      getAccessToken: async () => 'raw',
      fetch: fetchMock,
      sleep: noSleep,
    });
    return { gql, fetchMock };
  };

  it('retries a query on 503, throttling and network errors, at most three attempts', async () => {
    const { gql, fetchMock } = scripted([
      new Response('', { status: 503 }),
      new TypeError('Failed to fetch'),
      Response.json({ data: { message: 'third time' } }),
    ]);
    await expect(gql.query('\n  query Views { message }', {}, schema)).resolves.toEqual({ message: 'third time' });
    expect(fetchMock).toHaveBeenCalledTimes(3);

    const throttled = scripted([429, 429, 429, 200].map((status) => new Response('', { status })));
    await expect(throttled.gql.query('query { message }', {}, schema)).rejects.toEqual(new GraphqlError('HTTP 429: '));
    expect(throttled.fetchMock).toHaveBeenCalledTimes(3);
  });

  it('never retries a mutation', async () => {
    const { gql, fetchMock } = scripted([new Response('', { status: 503 }), Response.json({ data: { message: 'x' } })]);
    await expect(gql.query('mutation { message }', {}, schema)).rejects.toBeInstanceOf(GraphqlError);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
