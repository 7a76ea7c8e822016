import type { Context, LambdaFunctionURLEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { isPreflight, preflightHeaders, withCorsHeaders, type FunctionUrlCors } from '#local/function-url/cors.ts';
import { functionUrlEvent, httpResponseOf, isTextContentType, requestTime } from '#local/function-url/event.ts';
import { startFunctionUrl, type FunctionUrl, type FunctionUrlHandler } from '#local/function-url/server.ts';

const SITE = 'http://127.0.0.1:4400';
const cors: FunctionUrlCors = {
  allowOrigins: [SITE],
  allowMethods: ['POST'],
  allowHeaders: ['authorization', 'content-type'],
  maxAge: 3600,
};
const details = {
  requestId: 'req-1',
  urlId: 'abc123',
  domainName: '127.0.0.1:4404',
  receivedAt: new Date(Date.UTC(2026, 2, 12, 19, 3, 58, 390)),
};

describe('function URL event', () => {
  it('builds the payload-2.0 event a function URL hands its function', () => {
    const event = functionUrlEvent(
      {
        method: 'POST',
        url: '/my/path?a=1&a=2&b=x%20y',
        headers: {
          'content-type': 'application/json',
          'x-custom': ['one', 'two'],
          cookie: 'c1=v1; c2=v2',
          'user-agent': 'agent/1',
        },
        body: Buffer.from('{"action":"GET_USERS"}'),
        sourceIp: '127.0.0.1',
      },
      details,
    );
    expect(event).toEqual({
      version: '2.0',
      routeKey: '$default',
      rawPath: '/my/path',
      rawQueryString: 'a=1&a=2&b=x%20y',
      cookies: ['c1=v1', 'c2=v2'],
      headers: { 'content-type': 'application/json', 'x-custom': 'one,two', 'user-agent': 'agent/1' },
      queryStringParameters: { a: '1,2', b: 'x y' },
      requestContext: {
        accountId: 'anonymous',
        apiId: 'abc123',
        domainName: '127.0.0.1:4404',
        domainPrefix: 'abc123',
        http: { method: 'POST', path: '/my/path', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'agent/1' },
        requestId: 'req-1',
        routeKey: '$default',
        stage: '$default',
        time: '12/Mar/2026:19:03:58 +0000',
        timeEpoch: details.receivedAt.getTime(),
      },
      body: '{"action":"GET_USERS"}',
      isBase64Encoded: false,
    });
  });

  it('base64-encodes bodies that are not text and leaves out an empty body', () => {
    const binary = functionUrlEvent(
      {
        method: 'POST',
        url: '/',
        headers: { 'content-type': 'application/octet-stream' },
        body: Buffer.from([0, 255, 1]),
        sourceIp: '::1',
      },
      details,
    );
    expect(binary).toMatchObject({ body: 'AP8B', isBase64Encoded: true });
    const empty = functionUrlEvent(
      { method: 'GET', url: '/', headers: {}, body: Buffer.alloc(0), sourceIp: '::1' },
      details,
    );
    expect(empty.body).toBeUndefined();
    expect(empty.isBase64Encoded).toBe(false);
    expect(empty.queryStringParameters).toBeUndefined();
    expect(empty.cookies).toBeUndefined();
  });

  it('treats text, JSON and form bodies as text', () => {
    expect(
      [
        'text/plain',
        'application/json; charset=utf-8',
        'application/problem+json',
        'application/x-www-form-urlencoded',
      ].every(isTextContentType),
    ).toBe(true);
    expect([undefined, 'image/png', 'application/octet-stream', 'multipart/form-data'].some(isTextContentType)).toBe(
      false,
    );
  });

  it('formats the request time as the event does', () => {
    expect(requestTime(new Date(Date.UTC(2020, 0, 2, 3, 4, 5)))).toBe('02/Jan/2020:03:04:05 +0000');
  });
});

describe('function URL response', () => {
  it('takes a result with statusCode as the response', () => {
    const response = httpResponseOf({
      statusCode: 201,
      headers: { 'X-Id': 7 },
      body: 'aGk=',
      isBase64Encoded: true,
      cookies: ['a=b'],
    });
    expect(response.statusCode).toBe(201);
    expect(response.headers).toEqual({ 'x-id': '7', 'content-type': 'application/json' });
    expect(response.body.toString()).toBe('hi');
    expect(response.cookies).toEqual(['a=b']);
  });

  it('infers a 200 JSON response from any other result', () => {
    const response = httpResponseOf({ message: 'done' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(JSON.parse(response.body.toString())).toEqual({ message: 'done' });
  });
});

describe('function URL CORS', () => {
  const preflight = (origin: string, method: string) => ({ origin, 'access-control-request-method': method });

  it('answers a preflight from an allowed origin for an allowed method', () => {
    expect(isPreflight('OPTIONS', preflight(SITE, 'POST'))).toBe(true);
    expect(preflightHeaders(cors, preflight(SITE, 'POST'))).toEqual({
      'access-control-allow-origin': SITE,
      'access-control-allow-methods': 'POST',
      'access-control-allow-headers': 'authorization,content-type',
      'access-control-max-age': '3600',
      vary: 'Origin',
    });
  });

  it('gives no CORS headers to another origin or method', () => {
    expect(preflightHeaders(cors, preflight('http://evil.example', 'POST'))).toEqual({});
    expect(preflightHeaders(cors, preflight(SITE, 'DELETE'))).toEqual({});
    expect(isPreflight('OPTIONS', { origin: SITE })).toBe(false);
  });

  it('replaces the CORS headers a function sets with those of the configuration', () => {
    const fromFunction = {
      'access-control-allow-origin': '*',
      'Access-Control-Allow-Credentials': 'true',
      'content-type': 'application/json',
    };
    expect(withCorsHeaders(cors, { origin: SITE }, fromFunction)).toEqual({
      'content-type': 'application/json',
      'access-control-allow-origin': SITE,
      vary: 'Origin',
    });
    expect(withCorsHeaders(cors, { origin: 'http://evil.example' }, fromFunction)).toEqual({
      'content-type': 'application/json',
    });
  });
});

describe('function URL server', () => {
  let fn: FunctionUrl | undefined;
  const errors: string[] = [];
  const start = async (handler: FunctionUrlHandler, timeoutMs?: number) => {
    fn = await startFunctionUrl({
      functionName: 'test',
      handler,
      cors,
      host: '127.0.0.1',
      port: 0,
      region: 'us-east-2',
      timeoutMs,
      logError: (m) => errors.push(m),
    });
    return fn.url;
  };
  afterEach(async () => {
    await fn?.close();
    fn = undefined;
    errors.length = 0;
  });

  it('invokes the handler with the event and a Lambda context and answers its result with CORS', async () => {
    const seen: { event?: LambdaFunctionURLEvent; context?: Context } = {};
    const url = await start(async (event, context) => {
      Object.assign(seen, { event, context });
      return {
        statusCode: 200,
        headers: { 'access-control-allow-origin': '*' },
        body: JSON.stringify({ echo: event.body }),
      };
    });
    const response = await fetch(`${url}/?x=1`, {
      method: 'POST',
      headers: { origin: SITE, 'content-type': 'application/json', authorization: 'Bearer t' },
      body: '{"a":1}',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(await response.json()).toEqual({ echo: '{"a":1}' });
    expect(seen.event).toMatchObject({
      rawPath: '/',
      rawQueryString: 'x=1',
      headers: { authorization: 'Bearer t' },
      requestContext: { http: { method: 'POST' } },
    });
    expect(seen.context?.functionName).toBe('test');
    expect(seen.context?.getRemainingTimeInMillis()).toBeGreaterThan(0);
    expect(seen.context?.awsRequestId).toBe(seen.event?.requestContext.requestId);
  });

  it('answers preflights itself without invoking the function', async () => {
    let invoked = false;
    const url = await start(async () => {
      invoked = true;
      return {};
    });
    const response = await fetch(url, {
      method: 'OPTIONS',
      headers: { origin: SITE, 'access-control-request-method': 'POST' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-methods')).toBe('POST');
    expect(invoked).toBe(false);
  });

  /**
   * Lambda's invocation payload quota: 6 MB (6 MiB, 6,291,456 bytes) for a synchronous
   * request and for its response. https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html
   */
  const SIX_MIB = 6 * 1024 * 1024;

  it('invokes the function with an event of exactly 6 MiB and answers 413 to one byte more', async () => {
    const eventBytes: number[] = [];
    const url = await start(async (event) => {
      eventBytes.push(Buffer.byteLength(JSON.stringify(event)));
      return { ok: true };
    });
    const post = (length: number) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(length) });
    // What the event adds around a text body of the same number of digits in content-length.
    const probe = 6_000_000;
    expect((await post(probe)).status).toBe(200);
    const envelope = eventBytes[0]! - probe;
    const atLimit = await post(SIX_MIB - envelope);
    expect(atLimit.status).toBe(200);
    expect(eventBytes[1]).toBe(6_291_456);
    const overLimit = await post(SIX_MIB - envelope + 1);
    expect(overLimit.status).toBe(413);
    expect(await overLimit.json()).toEqual({
      message: 'Request must be smaller than 6291456 bytes for the InvokeFunction operation',
    });
    expect(eventBytes).toHaveLength(2);
  });

  it('refuses a body of 6 MiB and one byte with 413 without invoking the function', async () => {
    let invoked = false;
    const url = await start(async () => {
      invoked = true;
      return {};
    });
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x'.repeat(SIX_MIB + 1),
    });
    expect(response.status).toBe(413);
    expect(invoked).toBe(false);
  });

  it('passes a response body of exactly 6 MiB and fails one of a byte more with 502', async () => {
    const url = await start(async (event) => ({
      statusCode: 200,
      headers: { 'content-type': 'text/plain' },
      body: 'y'.repeat(SIX_MIB + (event.rawPath === '/over' ? 1 : 0)),
    }));
    const atLimit = await fetch(`${url}/at`, { method: 'POST' });
    expect(atLimit.status).toBe(200);
    expect((await atLimit.arrayBuffer()).byteLength).toBe(6_291_456);
    const overLimit = await fetch(`${url}/over`, { method: 'POST' });
    expect(overLimit.status).toBe(502);
    expect(errors.join('\n')).toContain('response of 6291457 bytes exceeds the payload limit');
  });

  it('answers 502 without details when the function throws or times out', async () => {
    const failing = await start(async () => {
      throw new Error('secret internals');
    });
    const failed = await fetch(failing, { method: 'POST' });
    expect(failed.status).toBe(502);
    expect(await failed.text()).not.toContain('secret internals');
    expect(errors.join('\n')).toContain('secret internals');
    await fn!.close();

    const slow = await start(() => new Promise((resolve) => setTimeout(resolve, 1_000)), 50);
    const timedOut = await fetch(slow, { method: 'POST' });
    expect(timedOut.status).toBe(502);
    expect(errors.join('\n')).toContain('Task timed out');
  });
});
