import type { IncomingHttpHeaders } from 'node:http';
import type { APIGatewayProxyStructuredResultV2, LambdaFunctionURLEvent } from 'aws-lambda';

/** What the adapter knows of one HTTP request once its body is read. */
export interface FunctionUrlRequest {
  readonly method: string;
  /** Path and query as received (`/x?a=1`). */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  readonly sourceIp: string;
}

export interface InvocationDetails {
  readonly requestId: string;
  /** Stands for the function URL's id (the first label of `<id>.lambda-url.<region>.on.aws`). */
  readonly urlId: string;
  /** Host the request was addressed to. */
  readonly domainName: string;
  readonly receivedAt: Date;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** `12/Mar/2020:19:03:58 +0000`, the requestContext.time format. */
export function requestTime(at: Date): string {
  return `${pad(at.getUTCDate())}/${MONTHS[at.getUTCMonth()]}/${at.getUTCFullYear()}:${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}:${pad(at.getUTCSeconds())} +0000`;
}

/** Bodies of these types reach the function as text; all others base64-encoded, as Lambda does. */
export function isTextContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return (
    type.startsWith('text/') ||
    /^application\/([\w.-]+\+)?(json|xml)$/.test(type) ||
    type === 'application/javascript' ||
    type === 'application/x-www-form-urlencoded' ||
    type === 'application/graphql'
  );
}

function queryParameters(rawQuery: string): Record<string, string> | undefined {
  if (rawQuery === '') return undefined;
  const params: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(rawQuery)) {
    params[key] = key in params ? `${params[key]},${value}` : value;
  }
  return params;
}

/** The payload-2.0 event a Lambda function URL hands its function. */
export function functionUrlEvent(request: FunctionUrlRequest, details: InvocationDetails): LambdaFunctionURLEvent {
  const queryIndex = request.url.indexOf('?');
  const rawPath = queryIndex === -1 ? request.url : request.url.slice(0, queryIndex);
  const rawQueryString = queryIndex === -1 ? '' : request.url.slice(queryIndex + 1);

  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    const joined = Array.isArray(value) ? value.join(',') : value;
    // Payload 2.0 moves cookies out of the headers into their own list.
    if (name === 'cookie') cookies = joined.split(/;\s*/).filter((c) => c !== '');
    else headers[name] = joined;
  }

  const hasBody = request.body.length > 0;
  const asText = isTextContentType(headers['content-type']);
  const queryStringParameters = queryParameters(rawQueryString);
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString,
    ...(cookies && { cookies }),
    headers,
    ...(queryStringParameters && { queryStringParameters }),
    requestContext: {
      accountId: 'anonymous',
      apiId: details.urlId,
      domainName: details.domainName,
      domainPrefix: details.urlId,
      http: {
        method: request.method,
        path: rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: request.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: details.requestId,
      routeKey: '$default',
      stage: '$default',
      time: requestTime(details.receivedAt),
      timeEpoch: details.receivedAt.getTime(),
    },
    ...(hasBody && { body: asText ? request.body.toString('utf8') : request.body.toString('base64') }),
    isBase64Encoded: hasBody && !asText,
  };
}

export interface HttpResponse {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly cookies: readonly string[];
  readonly body: Buffer;
}

function isStructuredResult(result: unknown): result is APIGatewayProxyStructuredResultV2 & { statusCode: number } {
  return (
    typeof result === 'object' && result !== null && typeof (result as { statusCode?: unknown }).statusCode === 'number'
  );
}

/**
 * The HTTP response for a function's result: a result with `statusCode` is taken as the
 * response; anything else becomes a 200 JSON body, as the function URL infers it.
 */
export function httpResponseOf(result: unknown): HttpResponse {
  if (!isStructuredResult(result)) {
    return {
      statusCode: 200,
      headers: { 'content-type': 'application/json' },
      cookies: [],
      body: Buffer.from(JSON.stringify(result) ?? 'null'),
    };
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name.toLowerCase()] = String(value);
  headers['content-type'] ??= 'application/json';
  const body =
    result.body === undefined ? Buffer.alloc(0) : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  return { statusCode: result.statusCode, headers, cookies: result.cookies ?? [], body };
}
