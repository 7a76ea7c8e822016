import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { accountOperations } from './api-account.ts';
import { dashboardOperations } from './api-dashboards.ts';
import { dataSetOperations } from './api-data-sets.ts';
import { dataSourceOperations } from './api-data-sources.ts';
import { embedOperations } from './api-embed.ts';
import { groupOperations } from './api-groups.ts';
import { ingestionOperations } from './api-ingestions.ts';
import { snapshotJobOperations } from './api-snapshot-jobs.ts';
import type { ApiContext, ApiOperation } from './api-types.ts';
import { userOperations } from './api-users.ts';
import { QuickSightError, invalidParameter } from './errors.ts';
import { handlePage } from './web.ts';

/**
 * Request dispatch: the QuickSight REST routes under /accounts/ (and /account/) answer JSON as the service
 * does (errors in `x-amzn-errortype`); snapshot files are downloaded under /snapshot-files/; everything
 * else is a page for browsers.
 */

const MAX_BODY_BYTES = 1024 * 1024;
const DISCARD_LIMIT_BYTES = 16 * MAX_BODY_BYTES;
const SIGV4_AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=\S+/;

interface CompiledRoute {
  readonly operation: ApiOperation;
  readonly pattern: RegExp;
  readonly labels: readonly string[];
}

function compile(operation: ApiOperation): CompiledRoute {
  const labels: string[] = [];
  const source = operation.path
    .split('/')
    .map((segment) => {
      const label = /^\{(\w+)\}$/.exec(segment)?.[1];
      if (!label) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      labels.push(label);
      return '([^/]+)';
    })
    .join('/');
  return { operation, pattern: new RegExp(`^${source}/?$`), labels };
}

/** Every operation the emulator answers. */
export const API_OPERATIONS: readonly ApiOperation[] = [
  ...userOperations,
  ...groupOperations,
  ...dashboardOperations,
  ...embedOperations,
  ...accountOperations,
  ...dataSourceOperations,
  ...dataSetOperations,
  ...ingestionOperations,
  ...snapshotJobOperations,
];

const ROUTES = API_OPERATIONS.map(compile);

function matchRoute(
  method: string,
  pathname: string,
): { route: CompiledRoute; params: Record<string, string> } | undefined {
  for (const route of ROUTES) {
    if (route.operation.method !== method) continue;
    const match = route.pattern.exec(pathname);
    if (!match) continue;
    const params: Record<string, string> = {};
    route.labels.forEach((label, i) => {
      try {
        params[label] = decodeURIComponent(match[i + 1] ?? '');
      } catch {
        throw invalidParameter(`${label} is not correctly URL-encoded`);
      }
    });
    return { route, params };
  }
  return undefined;
}

/**
 * Reads a body of at most MAX_BODY_BYTES. A larger one is read to its end and discarded, so
 * the client receives the 413 instead of a reset connection, unless it keeps sending past
 * DISCARD_LIMIT_BYTES, when the connection is cut.
 */
function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > DISCARD_LIMIT_BYTES) request.destroy();
      else if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => {
      if (size > MAX_BODY_BYTES) {
        reject(new QuickSightError('InvalidParameterValueException', 'The request body is too large', undefined, 413));
      } else {
        resolve(Buffer.concat(chunks).toString('utf8'));
      }
    });
    request.on('error', reject);
  });
}

function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalidParameter('The request body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidParameter('The request body must be a JSON object');
  }
  return body;
}

function sendJson(
  response: ServerResponse,
  status: number,
  requestId: string,
  body: Record<string, unknown>,
  errorName?: string,
): void {
  if (response.headersSent || response.destroyed) return;
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'x-amzn-requestid': requestId,
  };
  if (errorName) headers['x-amzn-errortype'] = errorName;
  response.writeHead(status, headers);
  response.end(JSON.stringify(body));
}

async function handleApi(
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  context: ApiContext,
  requestId: string,
) {
  if (!SIGV4_AUTHORIZATION.test(request.headers.authorization ?? '')) {
    throw new QuickSightError('MissingAuthenticationTokenException', 'Missing Authentication Token');
  }
  const method = request.method ?? 'GET';
  const matched = matchRoute(method, url.pathname);
  if (!matched) {
    throw new QuickSightError('UnknownOperationException', `No QuickSight operation answers ${method} ${url.pathname}`);
  }
  const body = method === 'POST' || method === 'PUT' ? parseJsonBody(await readBody(request)) : {};
  const result = await matched.route.operation.handle(
    { params: matched.params, query: url.searchParams, body },
    context,
  );
  const status = result.status ?? 200;
  sendJson(response, status, requestId, { ...result.body, RequestId: requestId, Status: status });
}

export function createRequestListener(context: ApiContext, onInternalError: (error: unknown) => void) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    const requestId = randomUUID();
    void (async () => {
      try {
        const url = new URL(request.url ?? '/', 'http://emulator.invalid');
        if (url.pathname.startsWith('/accounts/') || url.pathname.startsWith('/account/')) {
          await handleApi(request, response, url, context, requestId);
          return;
        }
        const method = request.method ?? 'GET';
        if (await context.snapshots.files.serve(request, response, url, context.now())) return;
        if ((method === 'GET' || method === 'HEAD') && (await handlePage(request, response, url, context))) return;
        throw new QuickSightError('UnknownOperationException', `Nothing answers ${method} ${url.pathname}`);
      } catch (error) {
        if (error instanceof QuickSightError) {
          const body: Record<string, unknown> = { Message: error.message, RequestId: requestId };
          if (error.resourceType) body.ResourceType = error.resourceType;
          sendJson(response, error.status, requestId, body, error.errorName);
          return;
        }
        onInternalError(error);
        sendJson(
          response,
          500,
          requestId,
          { Message: 'An internal failure occurred', RequestId: requestId },
          'InternalFailureException',
        );
      }
    })();
  };
}
