import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '#contracts/env.ts';
import { localDeployment } from '#local/aws/local-deployment.ts';
import { FunctionTimeoutError } from '#local/lambda-context.ts';
import { FunctionError, LocalFunction, type LocalFunctionOptions } from '#local/lambda/runtime.ts';

/** Lambda's execution environment: https://docs.aws.amazon.com/lambda/latest/dg/lambda-runtime-environment.html */

let dir: string;
const running: LocalFunction[] = [];

const BUNDLE = `
let invocations = 0;
export const handler = async (event) => {
  invocations += 1;
  if (event.wait) await new Promise((resolve) => setTimeout(resolve, event.wait));
  if (event.fail) throw new TypeError('asked to fail');
  return { invocations, seen: process.env.FUNCTION_ONLY, leaked: process.env.MAIN_PROCESS_ONLY ?? null, remaining: event.remaining };
};
export const other = 'not a function';
`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lambda-runtime-'));
  await writeFile(join(dir, 'index.mjs'), BUNDLE);
  await writeFile(
    join(dir, 'broken.mjs'),
    'if (!process.env.TABLE_NAME) throw new Error("TABLE_NAME is not set"); export const handler = async () => "ok";',
  );
  await writeFile(
    join(dir, 'slow-init.mjs'),
    'await new Promise((resolve) => setTimeout(resolve, 800));\n' +
      'export const handler = async (event, context) => ({ remaining: context.getRemainingTimeInMillis() });',
  );
  process.env.MAIN_PROCESS_ONLY = 'visible to the local stack only';
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((fn) => fn.close()));
});

afterAll(async () => {
  delete process.env.MAIN_PROCESS_ONLY;
  await rm(dir, { recursive: true, force: true });
});

const start = (options: Partial<LocalFunctionOptions> = {}) => {
  const fn = new LocalFunction({
    name: 'probe',
    bundle: join(dir, 'index.mjs'),
    handlerExport: 'handler',
    environment: { FUNCTION_ONLY: 'the function’s own' },
    timeoutMs: 5_000,
    memoryMb: 256,
    region: 'us-east-2',
    accountId: '000000000000',
    ...options,
  });
  running.push(fn);
  return fn;
};

describe('local function runtime', () => {
  it("runs the bundle with exactly the function's environment, none of the local stack's", async () => {
    const result = await start().invoke({});
    expect(result).toMatchObject({ invocations: 1, seen: 'the function’s own', leaked: null });
  });

  it('keeps module state between invocations of one execution environment (a warm start)', async () => {
    const fn = start();
    await fn.invoke({});
    expect(await fn.invoke({})).toMatchObject({ invocations: 2 });
  });

  it('fails an invocation with the error the handler threw', async () => {
    await expect(start().invoke({ fail: true })).rejects.toEqual(
      expect.objectContaining({ name: 'TypeError', message: 'asked to fail' }),
    );
  });

  it('fails every invocation when the init phase fails, as a module that reads a missing variable does', async () => {
    const fn = start({ bundle: join(dir, 'broken.mjs') });
    const failure = fn.invoke({});
    await expect(failure).rejects.toBeInstanceOf(FunctionError);
    await expect(failure).rejects.toMatchObject({
      name: 'Runtime.ImportModuleError',
      message: 'TABLE_NAME is not set',
    });
    await expect(fn.invoke({})).rejects.toMatchObject({ name: 'Runtime.ImportModuleError' });
  });

  it('refuses a handler name the bundle does not export', async () => {
    await expect(start({ handlerExport: 'other' }).invoke({})).rejects.toMatchObject({
      name: 'Runtime.HandlerNotFound',
      message: 'index.other is undefined or not exported',
    });
  });

  it('times out after the function timeout and starts the next invocation in a fresh environment', async () => {
    const fn = start({ timeoutMs: 300 });
    await fn.invoke({});
    await expect(fn.invoke({ wait: 2_000 })).rejects.toBeInstanceOf(FunctionTimeoutError);
    // A cold start: the module state of the discarded environment is gone.
    expect(await fn.invoke({})).toMatchObject({ invocations: 1 });
  });
});

describe('the init phase', () => {
  // "The Init phase is limited to 10 seconds": the function's timeout counts the invocation only.
  it('starts the function timeout when the init phase ends, as Lambda does', async () => {
    const fn = start({ bundle: join(dir, 'slow-init.mjs'), timeoutMs: 300 });
    const result = (await fn.invoke({})) as { remaining: number };
    expect(result.remaining).toBeGreaterThan(0);
    expect(result.remaining).toBeLessThanOrEqual(300);
  });

  it('fails an init phase that outlasts its limit, and every invocation waiting on it', async () => {
    const fn = start({ bundle: join(dir, 'slow-init.mjs'), timeoutMs: 300, initLimitMs: 200 });
    await expect(Promise.all([fn.invoke({}), fn.invoke({})])).rejects.toThrow('Init phase of probe exceeded 0.2 s');
  });
});

describe('deployed bundles', () => {
  it('fails to initialize without the pool variables its construct sets, as in AWS', async () => {
    const deployment = await localDeployment();
    const embed = deployment.functions.embed;
    const fn = start({
      name: 'embed',
      bundle: embed.bundle,
      handlerExport: embed.handlerExport,
      environment: { AWS_REGION: 'us-east-2', [ENV.logLevel]: 'CRITICAL' },
    });
    const event = {
      version: '2.0',
      rawPath: '/',
      rawQueryString: '',
      headers: { authorization: 'Bearer x', origin: 'http://localhost:4400', 'x-dashboard-id': 'sales-performance' },
      requestContext: {
        http: { method: 'GET', path: '/', sourceIp: '127.0.0.1' },
        requestId: 'r',
        timeEpoch: Date.now(),
      },
      isBase64Encoded: false,
    };
    await expect(fn.invoke(event)).rejects.toMatchObject({
      name: 'Runtime.ImportModuleError',
      message: 'The function is not fully configured',
    });
  });
});
