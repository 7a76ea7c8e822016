import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Context, LambdaFunctionURLEvent } from 'aws-lambda';
import { closeServer, httpUrl, listen, PayloadTooLargeError, readBody } from '#emulators/shared/http.ts';
import { DEFAULT_FUNCTION_TIMEOUT_MS, invokeWithTimeout, lambdaContext } from '../lambda-context.ts';
import { isPreflight, preflightHeaders, withCorsHeaders, type FunctionUrlCors } from './cors.ts';
import { functionUrlEvent, httpResponseOf, type HttpResponse } from './event.ts';

/** Lambda's synchronous invocation limit, for the request event and the response alike. */
const PAYLOAD_LIMIT_BYTES = 6 * 1024 * 1024;

export type FunctionUrlHandler = (event: LambdaFunctionURLEvent, context: Context) => Promise<unknown>;

export interface FunctionUrlOptions {
  readonly functionName: string;
  readonly handler: FunctionUrlHandler;
  readonly cors: FunctionUrlCors;
  readonly host: string;
  readonly port: number;
  readonly region: string;
  /** @default 30 s */
  readonly timeoutMs?: number;
  /** Where unhandled function errors are reported (a function URL logs them to CloudWatch). */
  readonly logError?: (message: string) => void;
}

export interface FunctionUrl {
  readonly url: string;
  close(): Promise<void>;
}

function jsonResponse(statusCode: number, body: object): HttpResponse {
  return {
    statusCode,
    headers: { 'content-type': 'application/json' },
    cookies: [],
    body: Buffer.from(JSON.stringify(body)),
  };
}

const TOO_LARGE = jsonResponse(413, {
  message: `Request must be smaller than ${PAYLOAD_LIMIT_BYTES} bytes for the InvokeFunction operation`,
});
const FUNCTION_FAILED = jsonResponse(502, { message: 'Internal Server Error' });

function write(res: ServerResponse, response: HttpResponse, headers: Record<string, string>): void {
  const all: Record<string, string | string[]> = { ...headers, 'content-length': String(response.body.length) };
  if (response.cookies.length > 0) all['set-cookie'] = [...response.cookies];
  res.writeHead(response.statusCode, all);
  res.end(response.body);
}

/**
 * One function URL: an HTTP server on its own origin that answers CORS from the URL's
 * configuration and turns every other request into a payload-2.0 invocation of the handler.
 */
export async function startFunctionUrl(options: FunctionUrlOptions): Promise<FunctionUrl> {
  const { functionName, handler, cors, host, region, timeoutMs = DEFAULT_FUNCTION_TIMEOUT_MS } = options;
  const logError = options.logError ?? ((message: string) => process.stderr.write(`${message}\n`));
  const urlId = createHash('md5').update(functionName).digest('hex');

  const invoke = async (req: IncomingMessage): Promise<HttpResponse> => {
    let body: Buffer;
    try {
      body = await readBody(req, PAYLOAD_LIMIT_BYTES);
    } catch (error) {
      if (error instanceof PayloadTooLargeError) return TOO_LARGE;
      throw error;
    }
    const requestId = randomUUID();
    const event = functionUrlEvent(
      {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
      },
      { requestId, urlId, domainName: req.headers.host ?? host, receivedAt: new Date() },
    );
    // Base64 makes a binary body a third larger: the limit applies to the event.
    if (Buffer.byteLength(JSON.stringify(event)) > PAYLOAD_LIMIT_BYTES) return TOO_LARGE;
    try {
      const context = lambdaContext(functionName, requestId, region, timeoutMs);
      const response = httpResponseOf(await invokeWithTimeout(() => handler(event, context), timeoutMs));
      if (response.body.length > PAYLOAD_LIMIT_BYTES) {
        logError(`[${functionName}] ${requestId} response of ${response.body.length} bytes exceeds the payload limit`);
        return FUNCTION_FAILED;
      }
      return response;
    } catch (error) {
      logError(
        `[${functionName}] ${requestId} invocation failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      return FUNCTION_FAILED;
    }
  };

  const server = createServer((req, res) => {
    if (isPreflight(req.method ?? '', req.headers)) {
      req.resume();
      write(
        res,
        { statusCode: 200, headers: {}, cookies: [], body: Buffer.alloc(0) },
        preflightHeaders(cors, req.headers),
      );
      return;
    }
    invoke(req).then(
      (response) => write(res, response, withCorsHeaders(cors, req.headers, response.headers)),
      (error: unknown) => {
        logError(`[${functionName}] request failed: ${error instanceof Error ? error.message : String(error)}`);
        if (!res.headersSent) write(res, FUNCTION_FAILED, withCorsHeaders(cors, req.headers, FUNCTION_FAILED.headers));
      },
    );
  });
  const port = await listen(server, options.port, host);
  return { url: httpUrl(host, port), close: () => closeServer(server) };
}
