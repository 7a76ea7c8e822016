import type { z } from 'zod';
import { runtimeConfigSchema } from '#contracts/config.ts';
import { EMBED_DASHBOARD_HEADER } from '#contracts/embed.ts';
import { securityHeaders } from '#contracts/security-headers.ts';
import type { PortalTarget } from './target.ts';

/**
 * The portal's HTTP surface called the way the SPA calls it: function URLs with the bearer
 * access token and the site's Origin (so CORS is checked as a browser would), GraphQL with
 * the raw access token, and the site's config.json and security headers.
 */

const REQUEST_TIMEOUT_MS = 30_000;

export interface FunctionAnswer {
  readonly status: number;
  readonly body: unknown;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return text.slice(0, 200);
  }
}

const siteOrigin = (target: PortalTarget) => new URL(target.siteUrl).origin;

function checkCors(target: PortalTarget, url: string, response: Response): void {
  const allowed = response.headers.get('access-control-allow-origin');
  if (allowed !== siteOrigin(target) && allowed !== '*') {
    throw new Error(
      `${url} does not allow the site's origin ${siteOrigin(target)} (Access-Control-Allow-Origin: ${allowed ?? 'missing'}): the browser would refuse the answer`,
    );
  }
}

/** POST a JSON action to a function URL (or GET with headers, for the embed function). */
export async function callFunction(
  target: PortalTarget,
  url: string,
  accessToken: string,
  request: { readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> },
): Promise<FunctionAnswer> {
  const response = await fetch(url, {
    method: request.body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${accessToken}`,
      origin: siteOrigin(target),
      ...(request.body !== undefined && { 'content-type': 'application/json' }),
      ...request.headers,
    },
    ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  checkCors(target, url, response);
  return { status: response.status, body: await readJson(response) };
}

/** The answer's body in the contract's shape, or an error naming the status and body. */
export function expectOk<S extends z.ZodType>(answer: FunctionAnswer, schema: S, what: string): z.infer<S> {
  if (answer.status !== 200) throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  const parsed = schema.safeParse(answer.body);
  if (!parsed.success)
    throw new Error(`${what} answered an unexpected body: ${JSON.stringify(answer.body).slice(0, 300)}`);
  return parsed.data;
}

export function embedRequest(target: PortalTarget, accessToken: string, dashboardId: string): Promise<FunctionAnswer> {
  return callFunction(target, target.functions.embed, accessToken, {
    headers: { [EMBED_DASHBOARD_HEADER]: dashboardId },
  });
}

/** A GraphQL operation with user-pool authorization; errors in the answer fail it. */
export async function graphql(
  target: PortalTarget,
  accessToken: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const response = await fetch(target.graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: accessToken, origin: siteOrigin(target) },
    body: JSON.stringify({ query, variables }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const body = (await readJson(response)) as { data?: Record<string, unknown> | null; errors?: unknown[] } | undefined;
  if (response.status !== 200 || body?.errors?.length || !body?.data) {
    throw new Error(`GraphQL answered ${response.status}: ${JSON.stringify(body?.errors ?? body).slice(0, 300)}`);
  }
  return body.data;
}

/** config.json of the site must name the stack's pool, client, API and functions. */
export async function checkRuntimeConfig(target: PortalTarget): Promise<void> {
  const response = await fetch(`${target.siteUrl}/config.json`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  if (response.status !== 200) throw new Error(`${target.siteUrl}/config.json answered ${response.status}`);
  const parsed = runtimeConfigSchema.safeParse(await readJson(response));
  if (!parsed.success)
    throw new Error(`config.json does not match the runtime config schema: ${parsed.error.issues[0]?.message}`);
  const config = parsed.data;
  const expected: Record<string, string> = {
    userPoolId: target.userPoolId,
    userPoolClientId: target.clientId,
    graphqlUrl: target.graphqlUrl,
    ...Object.fromEntries(Object.entries(target.functions).map(([name, url]) => [`functions.${name}`, url])),
  };
  const actual: Record<string, string> = {
    userPoolId: config.userPoolId,
    userPoolClientId: config.userPoolClientId,
    graphqlUrl: config.graphqlUrl,
    ...Object.fromEntries(Object.entries(config.functions).map(([name, url]) => [`functions.${name}`, url])),
  };
  const wrong = Object.keys(expected).filter((key) => actual[key] !== expected[key]);
  if (wrong.length > 0) {
    throw new Error(
      `config.json differs from the stack in ${wrong.map((key) => `${key} (${actual[key]} instead of ${expected[key]})`).join(', ')}`,
    );
  }
}

/** The directives of a Content-Security-Policy, by name. */
function cspDirectives(policy: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name.toLowerCase(), sources);
  }
  return directives;
}

/** Whether a CSP source expression (`https://*.example.com`, an origin, 'self') allows an origin. */
function sourceAllows(source: string, origin: string, self: string): boolean {
  if (source === "'self'") return origin === self;
  const wildcard = /^(https?:\/\/)\*\.(.+)$/.exec(source);
  if (wildcard) return origin.startsWith(wildcard[1]!) && origin.endsWith(`.${wildcard[2]!}`);
  return source.replace(/\/+$/, '') === origin;
}

function requireAllowed(directives: Map<string, string[]>, directive: string, url: string, self: string): void {
  const origin = new URL(url).origin;
  const sources = directives.get(directive) ?? directives.get('default-src') ?? [];
  if (!sources.some((source) => sourceAllows(source, origin, self))) {
    throw new Error(`the site's ${directive} does not allow ${origin}: the browser would block it`);
  }
}

/**
 * The site's security headers: exactly those contracts/security-headers.ts builds from the
 * sources the site's CSP names (CloudFront and local mode both use it), with framing
 * forbidden and those sources letting the SPA reach Cognito, GraphQL and the functions.
 */
export async function checkSecurityHeaders(target: PortalTarget): Promise<Headers> {
  const response = await fetch(`${target.siteUrl}/`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${target.siteUrl}/ answered ${response.status}`);
  const policy = response.headers.get('content-security-policy');
  if (!policy) throw new Error('Content-Security-Policy is missing');
  const directives = cspDirectives(policy);
  const sources = {
    connectSrc: (directives.get('connect-src') ?? []).filter((source) => source !== "'self'"),
    frameSrc: directives.get('frame-src') ?? [],
  };
  const problems: string[] = [];
  for (const [name, value] of Object.entries(securityHeaders(sources))) {
    const actual = response.headers.get(name);
    if (actual !== value) problems.push(`${name} is ${actual ?? 'missing'} (expected ${value})`);
  }
  if (directives.get('frame-ancestors')?.join(' ') !== "'none'") problems.push("CSP frame-ancestors is not 'none'");
  const self = siteOrigin(target);
  for (const url of [target.cognitoEndpoint, target.graphqlUrl, ...Object.values(target.functions)]) {
    try {
      requireAllowed(directives, 'connect-src', url, self);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  if (problems.length > 0) throw new Error(problems.join('; '));
  return response.headers;
}

/** The embedded dashboard's frame must be allowed by the site's frame-src. */
export function checkFrameAllowed(target: PortalTarget, headers: Headers, embedUrl: string): void {
  requireAllowed(
    cspDirectives(headers.get('content-security-policy') ?? ''),
    'frame-src',
    embedUrl,
    siteOrigin(target),
  );
}
