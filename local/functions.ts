import type { Closers } from './closers.ts';
import type { FunctionUrlCors } from './function-url/cors.ts';
import { startFunctionUrl } from './function-url/server.ts';
import { loadHandler } from './handlers.ts';
import type { PortLayout, PortName } from './ports.ts';

export type FunctionKey = 'embed' | 'quicksightAdmin' | 'userAdmin' | 'mfa' | 'contact';

export interface FunctionDefinition {
  readonly key: FunctionKey & PortName;
  /** Folder under lambdas/ holding handler.ts. */
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly allowHeaders: readonly string[];
  readonly timeoutMs: number;
}

/** The five function URLs with the method, CORS headers and timeout the CDK app gives them. */
export const FUNCTIONS: readonly FunctionDefinition[] = [
  { key: 'embed', name: 'embed', method: 'GET', allowHeaders: ['authorization', 'content-type', 'x-dashboard-id'], timeoutMs: 15_000 },
  { key: 'quicksightAdmin', name: 'quicksight-admin', method: 'POST', allowHeaders: ['authorization', 'content-type'], timeoutMs: 60_000 },
  { key: 'userAdmin', name: 'user-admin', method: 'POST', allowHeaders: ['authorization', 'content-type'], timeoutMs: 60_000 },
  { key: 'mfa', name: 'mfa', method: 'POST', allowHeaders: ['authorization', 'content-type'], timeoutMs: 10_000 },
  { key: 'contact', name: 'contact', method: 'POST', allowHeaders: ['authorization', 'content-type'], timeoutMs: 10_000 },
];

export const GRAPHQL_RESOLVER_TIMEOUT_MS = 15_000;
const PREFLIGHT_MAX_AGE_SECONDS = 3_600;

export function functionCors(definition: FunctionDefinition, allowedOrigins: readonly string[]): FunctionUrlCors {
  return {
    allowOrigins: allowedOrigins,
    allowMethods: [definition.method],
    allowHeaders: definition.allowHeaders,
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
  };
}

/**
 * One function URL per function, each on its own port, calling `lambdas/<name>/handler.ts`
 * (imported now: the handlers' environment must already be set). Resolves with their URLs,
 * which end in '/' as a function URL's do.
 */
export async function startFunctionUrls(options: {
  readonly host: string;
  readonly ports: PortLayout;
  readonly region: string;
  readonly allowedOrigins: readonly string[];
  readonly closers: Closers;
}): Promise<Record<FunctionKey, string>> {
  const urls = {} as Record<FunctionKey, string>;
  for (const definition of FUNCTIONS) {
    const fn = await startFunctionUrl({
      functionName: definition.name,
      handler: await loadHandler(definition.name),
      cors: functionCors(definition, options.allowedOrigins),
      host: options.host,
      port: options.ports[definition.key],
      region: options.region,
      timeoutMs: definition.timeoutMs,
    });
    options.closers.add(() => fn.close());
    urls[definition.key] = `${fn.url}/`;
  }
  return urls;
}
