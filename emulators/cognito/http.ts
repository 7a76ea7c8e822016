import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { confirmUserPage } from './confirm-page.ts';
import type { PoolContext } from './context.ts';
import { CognitoServiceError, ERRORS } from './errors.ts';
import type { PublicJwk } from './jwt.ts';
import { OPERATIONS } from './operations/index.ts';

/**
 * The Cognito endpoint: AWS JSON 1.1 over `POST /` (the action in `X-Amz-Target`), the
 * pool's JWKS, and the page behind the sign-up email link. Browsers call it cross-origin,
 * so it answers CORS as Cognito does.
 */

const TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';
const MAX_BODY_BYTES = 1024 * 1024;
const JSON_TYPE = 'application/x-amz-json-1.1';
const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'x-amzn-RequestId,x-amzn-ErrorType,x-amzn-ErrorMessage,Date',
};

export function createCognitoServer(context: PoolContext, jwks: { keys: PublicJwk[] }): Server {
  const jwksPath = `/${context.userPoolId}/.well-known/jwks.json`;
  return createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    for (const [name, value] of Object.entries(CORS_HEADERS)) response.setHeader(name, value);
    response.setHeader('x-amzn-RequestId', randomUUID());
    if (request.method === 'OPTIONS') return preflight(request, response);
    if (request.method === 'GET' && path === jwksPath) return sendJson(response, 200, jwks, 'application/json');
    if (request.method === 'GET' && path === '/confirmUser') return void serveConfirmPage(context, request, response);
    if (request.method === 'POST' && path === '/') return void serveAction(context, request, response);
    sendJson(response, 404, { message: 'Not Found' }, 'application/json');
  });
}

function preflight(request: IncomingMessage, response: ServerResponse): void {
  response.writeHead(200, {
    'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    'Access-Control-Allow-Headers':
      request.headers['access-control-request-headers'] ??
      'content-type,x-amz-target,x-amz-user-agent,cache-control,authorization,x-amz-date,x-amz-security-token,amz-sdk-invocation-id,amz-sdk-request',
    'Access-Control-Max-Age': '86400',
    'Content-Length': '0',
  });
  response.end();
}

function sendJson(response: ServerResponse, status: number, body: unknown, contentType = JSON_TYPE): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}

function sendError(response: ServerResponse, error: CognitoServiceError): void {
  response.setHeader('x-amzn-ErrorType', error.type);
  sendJson(response, error.statusCode, { __type: error.type, message: error.message });
}

async function serveAction(context: PoolContext, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const target = String(request.headers['x-amz-target'] ?? '');
  const name = target.startsWith(TARGET_PREFIX) ? target.slice(TARGET_PREFIX.length) : '';
  try {
    const body = await readJsonBody(request);
    const operation = OPERATIONS.get(name);
    if (!operation) throw ERRORS.unknownOperation();
    // Admin actions need IAM credentials: the SDK signs them, a browser cannot.
    if (operation.admin && !String(request.headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256 ')) {
      throw ERRORS.missingAuthenticationToken();
    }
    const result = await operation.run(context, body);
    await context.store.commit();
    sendJson(response, 200, result);
  } catch (error) {
    // Failed attempts change state too (counters, spent codes): keep them before answering.
    await context.store.commit().catch(() => undefined);
    if (error instanceof CognitoServiceError) return sendError(response, error);
    console.error(`Identity provider: ${name || 'request'} failed:`, error);
    sendError(response, ERRORS.internal());
  }
}

async function readJsonBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw ERRORS.bodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw ERRORS.malformedBody();
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw ERRORS.malformedBody();
  return body;
}

async function serveConfirmPage(
  context: PoolContext,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const query = new URL(request.url ?? '/', 'http://localhost').searchParams;
  let page;
  try {
    page = await confirmUserPage(context, query);
    await context.store.commit();
  } catch (error) {
    await context.store.commit().catch(() => undefined);
    console.error('Identity provider: confirmation page failed:', error);
    page = {
      status: 500,
      html: '<!doctype html><title>Error</title><p>Something went wrong. Please try again later.</p>',
    };
  }
  response.writeHead(page.status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(page.html),
    'Cache-Control': 'no-store',
    // The address holds a one-time code: never pass it on.
    'Referrer-Policy': 'no-referrer',
    'Content-Security-Policy':
      "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    'X-Content-Type-Options': 'nosniff',
  });
  response.end(page.html);
}
