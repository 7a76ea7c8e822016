import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { invokeWithTimeout, lambdaContext } from './lambda-context.ts';

/**
 * Imports `lambdas/<name>/handler.ts`. Handlers read their environment when the module
 * loads, so the caller sets process.env before this.
 */
export async function loadHandler(name: string): Promise<(event: unknown, context: Context) => Promise<unknown>> {
  const module = (await import(new URL(`../lambdas/${name}/handler.ts`, import.meta.url).href)) as { handler?: unknown };
  if (typeof module.handler !== 'function') throw new Error(`lambdas/${name}/handler.ts does not export a handler function`);
  return module.handler as (event: unknown, context: Context) => Promise<unknown>;
}

/** The user pool's Lambda trigger timeout in the CDK app. */
const TRIGGER_TIMEOUT_MS = 5_000;

/** Runs a Cognito trigger's handler as Lambda would and answers its result to the pool. */
export async function invokeTrigger(name: string, event: unknown, region: string): Promise<unknown> {
  const handler = await loadHandler(name);
  const requestId = randomUUID();
  return invokeWithTimeout(() => handler(event, lambdaContext(name, requestId, region, TRIGGER_TIMEOUT_MS)), TRIGGER_TIMEOUT_MS);
}
