/**
 * The first request a fresh instance of the embed function answers, against the local stack:
 * a new Node process (the execution environment) with the function's environment as the
 * running stack gives it (its endpoints, its keys and its own credentials) imports the
 * deployed bundle and handles one function-URL GET with the demo user's access token. That is
 * the init phase plus the first invocation, so whatever the bundle defers from its import to
 * its first request (the token verifier, the SDK clients) is counted here. The token check
 * (Cognito GetUser), the embed URL (QuickSight) and the recorded view (DynamoDB) go to the
 * stack's stand-ins as in local mode.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EMBED_DASHBOARD_HEADER } from '#contracts/embed.ts';
import { localDeployment } from '#local/aws/local-deployment.ts';
import { functionEnvironment, functionName, templateValues, type LocalEndpoints } from '#local/environment.ts';
import { LOCAL_ACCOUNT_ID } from '#clients/local-stack.ts';
import { functionUrlEvent } from '#local/function-url/event.ts';
import { findFreePortBase } from '#local/ports.ts';
import { SAMPLE_DASHBOARDS } from '#local/emulators/quicksight/catalog.ts';
import type { StackInfo } from '#clients/local-stack.ts';
import { type RunningStack, spawnStack } from '#local/stack-process.ts';
import { ensureWebBuilt } from '#local/web-build.ts';
import { signInToStack } from './sign-in.ts';
import type { BenchOptions, BenchRow } from './types.ts';
import { median } from './median.ts';

/** Fresh instances timed (the median counts); one in the smoke run. */
const REPETITIONS = 7;

/**
 * The execution environment: imports the bundle (init), invokes the handler once with the
 * event and context given as arguments, and prints the status with the milliseconds since the
 * process started at the end of the import and of the invocation.
 */
const RUNNER = `
import { writeSync } from 'node:fs';
const [bundle, event, context] = process.argv.slice(2);
const { handler } = await import(bundle);
const imported = performance.now();
const { deadline, ...fields } = JSON.parse(context);
const result = await handler(JSON.parse(event), { ...fields, callbackWaitsForEmptyEventLoop: true, getRemainingTimeInMillis: () => deadline - Date.now() });
// The result goes to a channel of its own (fd 3): the function's log lines go to stdout as in Lambda.
writeSync(3, JSON.stringify({ status: result?.statusCode, imported, answered: performance.now() }));
`;

interface FirstRequest {
  /** Spawn to exit, as seen by the caller. */
  readonly totalMs: number;
  /** Within the process: from its start to the end of the import, and of the invocation. */
  readonly importedMs: number;
  readonly answeredMs: number;
  readonly status: number | undefined;
}

function runOnce(runner: string, args: readonly string[], env: Record<string, string>): Promise<FirstRequest> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [runner, ...args], { env, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    let result = '';
    let stderr = '';
    // Whatever the function logs (stdout) is not its result, which comes on fd 3.
    child.stdout!.resume();
    child.stdio[3]!.on('data', (chunk: Buffer) => (result += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const totalMs = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) {
        reject(
          new Error(
            `the embed function's first request failed (exit ${code}): ${stderr.trim().split('\n').slice(0, 3).join(' ')}`,
          ),
        );
        return;
      }
      const reported = JSON.parse(result) as { status?: number; imported: number; answered: number };
      resolve({ totalMs, importedMs: reported.imported, answeredMs: reported.answered, status: reported.status });
    });
  });
}

/** Milliseconds from spawning the same process with an empty module to its exit. */
function timeEmpty(loader: string, module: string, env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [loader, module], { env, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(Number(process.hrtime.bigint() - started) / 1e6)
        : reject(new Error(`empty module exit ${code}`)),
    );
  });
}

/** The endpoints the running stack hands its functions, from its stack.json and its JWKS. */
async function endpointsOf(info: StackInfo): Promise<LocalEndpoints> {
  const jwks = (await (await fetch(info.cognito.jwksUrl)).json()) as object;
  return {
    region: info.region,
    siteOrigin: info.webUrl,
    cognito: {
      endpoint: info.cognito.endpoint,
      userPoolId: info.cognito.userPoolId,
      clientId: info.cognito.clientId,
      jwks,
    },
    dynamodbEndpoint: info.dynamodb.endpoint,
    quicksightEndpoint: info.quicksight.endpoint,
    sesEndpoint: info.mail.inboxUrl.replace(/\/$/, ''),
  };
}

export async function run(options: BenchOptions): Promise<BenchRow[]> {
  const repetitions = options.smoke ? 1 : REPETITIONS;
  await ensureWebBuilt();
  const deployment = await localDeployment((line) => process.stderr.write(`${line}\n`));
  const embed = deployment.functions.embed;
  const scratch = await mkdtemp(join(tmpdir(), 'first-request-bench-'));
  let stack: RunningStack | undefined;
  try {
    stack = await spawnStack({ dataDir: join(scratch, 'data'), portBase: await findFreePortBase() });
    const readyAt = Date.now();
    const info = stack.info;
    const endpoints = await endpointsOf(info);
    const env = functionEnvironment(
      embed,
      templateValues(deployment, endpoints, 'error'),
      endpoints,
      info.functionCredentials.embed,
    );
    const { accessToken } = await signInToStack(info, info.demo.user, readyAt);
    // The demo user's default dashboard: the seed invites the user to the first sample ones.
    const dashboardId = SAMPLE_DASHBOARDS[0]!.dashboardId;

    const runner = join(scratch, 'first-request.mjs');
    const empty = join(scratch, 'empty.mjs');
    await writeFile(runner, RUNNER);
    await writeFile(empty, '');
    const emptyRunner = join(scratch, 'load.mjs');
    await writeFile(emptyRunner, 'await import(process.argv[2]);\n');

    const argsFor = () => {
      const requestId = randomUUID();
      const name = functionName(embed);
      const event = functionUrlEvent(
        {
          method: 'GET',
          url: '/',
          headers: {
            authorization: `Bearer ${accessToken}`,
            [EMBED_DASHBOARD_HEADER]: dashboardId,
            origin: info.webUrl,
          },
          body: Buffer.alloc(0),
          sourceIp: '127.0.0.1',
        },
        { requestId, urlId: 'embed', domainName: new URL(info.functions.embed).host, receivedAt: new Date() },
      );
      const context = {
        functionName: name,
        functionVersion: '$LATEST',
        invokedFunctionArn: `arn:aws:lambda:${info.region}:${LOCAL_ACCOUNT_ID}:function:${name}`,
        memoryLimitInMB: String(embed.memoryMb),
        awsRequestId: requestId,
        logGroupName: `/aws/lambda/${name}`,
        logStreamName: `local/[$LATEST]${name}`,
        deadline: Date.now() + embed.timeoutSeconds * 1000,
      };
      return [pathToFileURL(embed.bundle).href, JSON.stringify(event), JSON.stringify(context)];
    };

    // One untimed round warms the file cache, then fresh instances alternate with the empty module.
    await runOnce(runner, argsFor(), env);
    const requests: FirstRequest[] = [];
    const emptyMs: number[] = [];
    for (let round = 0; round < repetitions; round += 1) {
      const request = await runOnce(runner, argsFor(), env);
      if (request.status !== 200)
        throw new Error(`the embed function answered ${request.status} to the demo user's first request`);
      requests.push(request);
      emptyMs.push(await timeEmpty(emptyRunner, pathToFileURL(empty).href, env));
    }

    const total = median(requests.map((request) => request.totalMs));
    const imported = median(requests.map((request) => request.importedMs));
    const invocation = median(requests.map((request) => request.answeredMs - request.importedMs));
    return [
      {
        area: 'lambda first request',
        metric: `embed first request (init + one invocation), local stack, median of ${repetitions}`,
        value: `${total.toFixed(0)} ms (import done at ${imported.toFixed(0)} ms, first invocation ${invocation.toFixed(0)} ms; empty module ${median(emptyMs).toFixed(0)} ms)`,
        kind: 'time',
      },
    ];
  } finally {
    await stack?.stop();
    await rm(scratch, { recursive: true, force: true });
  }
}
