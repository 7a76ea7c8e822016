import type { IncomingHttpHeaders } from 'node:http';

/** The CORS settings of a function URL (AWS::Lambda::Url Cors). */
export interface FunctionUrlCors {
  readonly allowOrigins: readonly string[];
  readonly allowMethods: readonly string[];
  readonly allowHeaders: readonly string[];
  readonly exposeHeaders?: readonly string[];
  /** Seconds a browser may cache the preflight answer. */
  readonly maxAge?: number;
}

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

function allowedOrigin(cors: FunctionUrlCors, headers: IncomingHttpHeaders): string | undefined {
  const origin = header(headers, 'origin');
  if (!origin) return undefined;
  if (cors.allowOrigins.includes('*')) return '*';
  return cors.allowOrigins.includes(origin) ? origin : undefined;
}

/** A browser's preflight, which the function URL answers itself without invoking the function. */
export function isPreflight(method: string, headers: IncomingHttpHeaders): boolean {
  return (
    method === 'OPTIONS' &&
    header(headers, 'origin') !== undefined &&
    header(headers, 'access-control-request-method') !== undefined
  );
}

/** Headers of the preflight answer; none when the origin or method is not allowed, so the browser refuses. */
export function preflightHeaders(cors: FunctionUrlCors, headers: IncomingHttpHeaders): Record<string, string> {
  const origin = allowedOrigin(cors, headers);
  const method = header(headers, 'access-control-request-method')?.toUpperCase();
  const methodAllowed = method !== undefined && (cors.allowMethods.includes('*') || cors.allowMethods.includes(method));
  if (!origin || !methodAllowed) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': cors.allowMethods.join(','),
    'access-control-allow-headers': cors.allowHeaders.join(','),
    ...(cors.maxAge !== undefined && { 'access-control-max-age': String(cors.maxAge) }),
    vary: 'Origin',
  };
}

/**
 * The response headers with the CORS headers of the configuration, replacing whatever CORS
 * headers the function set: a function URL with CORS configured does the same.
 */
export function withCorsHeaders(
  cors: FunctionUrlCors,
  requestHeaders: IncomingHttpHeaders,
  responseHeaders: Record<string, string>,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(responseHeaders)) {
    if (!name.toLowerCase().startsWith('access-control-')) result[name] = value;
  }
  const origin = allowedOrigin(cors, requestHeaders);
  if (origin) {
    result['access-control-allow-origin'] = origin;
    if (cors.exposeHeaders?.length) result['access-control-expose-headers'] = cors.exposeHeaders.join(',');
    result.vary = result.vary ? `${result.vary}, Origin` : 'Origin';
  }
  return result;
}
