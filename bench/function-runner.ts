/**
 * A deployed function's bundle run in a fresh Node process, as Lambda's execution environment
 * runs it: bench/first-request.bench.ts times its import and its invocations from inside that
 * process. The same runner, importing an empty module and invoking nothing, is the reference.
 * Also the events and settings of the local stack the functions are invoked with that the
 * stack's own helpers do not make for a caller outside it: the endpoints (with local S3), the
 * GraphQL resolver event, what the pool's triggers are told of an account.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { CognitoJwtVerifier } from 'aws-jwt-verify';
import { SimpleJwksCache, type Jwks } from 'aws-jwt-verify/jwk';
import { execute, parse } from 'graphql';
import { LOCAL_ACCOUNT_ID, LOCAL_CREDENTIALS, type StackInfo } from '#clients/local-stack.ts';
import type { SynthesizedFunction } from '#local/aws/deployment.ts';
import { functionName, type LocalEndpoints } from '#local/environment.ts';
import { cognitoIdentity, resolverEvent } from '#local/graphql/resolver-event.ts';
import { loadProductSchema } from '#local/graphql/schema.ts';
import { median } from './median.ts';

/**
 * The execution environment: `node runner.mjs <module> <export> [<invocations>]`. It imports the
 * module (init: performance.now() then is the time since the process started), then invokes the
 * export with each event and context in turn, timing each invocation on its own, and writes the
 * times and what each invocation answered to fd 3 (stdout carries the function's log lines, as
 * in Lambda). Nothing runs between the process start and the end of the import but the import,
 * whichever module it is, so an empty module measures Node's own start the same way.
 */
const RUNNER = `
import { writeSync } from 'node:fs';
const [module, exportName, invocations] = process.argv.slice(2);
const loaded = await import(module);
const imported = performance.now();
const times = [];
const results = [];
for (const { event, context } of JSON.parse(invocations ?? '[]')) {
  const { timeoutMs, ...fields } = context;
  const deadline = Date.now() + timeoutMs;
  const started = performance.now();
  let result;
  try {
    result = await loaded[exportName](event, { ...fields, callbackWaitsForEmptyEventLoop: true, getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) });
  } catch (error) {
    result = { thrown: String(error?.stack ?? error) };
  }
  times.push(performance.now() - started);
  results.push(typeof result?.statusCode === 'number'
    ? { status: result.statusCode, body: String(result.body ?? '').slice(0, 300) }
    : { keys: result !== null && typeof result === 'object' ? Object.keys(result) : [], thrown: result?.thrown });
}
writeSync(3, JSON.stringify({ imported, times, results }));
// Open sockets of the SDK clients would otherwise keep the environment alive.
process.exit(0);
`;

/** What one invocation answered: an HTTP result's status (and body), or the keys of any other result. */
export interface Outcome {
  readonly status?: number;
  readonly body?: string;
  readonly keys?: readonly string[];
  /** The error the handler threw, if it did. */
  readonly thrown?: string;
}

/** What one fresh process reports, in milliseconds. */
export interface ChildReport {
  /** From the process start to the end of the import. */
  readonly imported: number;
  /** Each invocation's own duration, the first one first. */
  readonly times: readonly number[];
  readonly results: readonly Outcome[];
}

/** The event of one invocation and the fields of its context (the deadline is set when it starts). */
export interface Invocation {
  readonly event: unknown;
  readonly context: Record<string, unknown> & { readonly timeoutMs: number };
}

/** The runner and the empty module, written to `directory`. */
export async function writeRunner(directory: string): Promise<{ runner: string; empty: string }> {
  const runner = join(directory, 'runner.mjs');
  const empty = join(directory, 'empty.mjs');
  await writeFile(runner, RUNNER);
  await writeFile(empty, '');
  return { runner, empty: pathToFileURL(empty).href };
}

/** Spawns the runner on `module` with `env` as the process's whole environment and answers its report. */
export function runChild(
  runner: string,
  module: string,
  exportName: string,
  invocations: readonly Invocation[],
  env: Record<string, string>,
  execArgv: readonly string[] = [],
): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const args = [
      ...execArgv,
      runner,
      module,
      exportName,
      ...(invocations.length ? [JSON.stringify(invocations)] : []),
    ];
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    let report = '';
    let stderr = '';
    // Whatever the function logs (stdout) is not its result, which comes on fd 3.
    child.stdout!.resume();
    child.stdio[3]!.on('data', (chunk: Buffer) => (report += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0 && report !== '') resolve(JSON.parse(report) as ChildReport);
      else reject(new Error(`exit ${code}: ${stderr.trim().split('\n').slice(0, 3).join(' ')}`));
    });
  });
}

/** The context fields Lambda gives one invocation of `fn`. */
export function contextFields(fn: SynthesizedFunction, region: string, requestId: string): Invocation['context'] {
  const name = functionName(fn);
  return {
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${region}:${LOCAL_ACCOUNT_ID}:function:${name}`,
    memoryLimitInMB: String(fn.memoryMb),
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: `local/[$LATEST]${name}`,
    timeoutMs: fn.timeoutSeconds * 1000,
  };
}

/**
 * The endpoints the running stack hands its functions, from its stack.json and its JWKS. Local
 * S3 is not in stack.json: its gate listens at `s3Port` on the stack's host.
 */
export async function endpointsOf(info: StackInfo, s3Port: number): Promise<LocalEndpoints> {
  const jwks = (await (await fetch(info.cognito.jwksUrl)).json()) as object;
  const s3 = new URL(info.dynamodb.endpoint);
  s3.port = String(s3Port);
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
    s3Endpoint: s3.origin,
  };
}

/**
 * A fresh instance of the function after one untimed one (which warms the file cache), then
 * `repetitions` more, each followed by the empty module's import in the same environment, so
 * drift hits both alike. `instance` runs one and throws when it did not answer as expected.
 * A smoke run, whose times count for nothing, skips the untimed pair.
 */
export async function sideBySide(
  instance: () => Promise<ChildReport>,
  emptyImport: () => Promise<ChildReport>,
  repetitions: number,
  { warmUp = true }: { readonly warmUp?: boolean } = {},
) {
  if (warmUp) {
    await instance();
    await emptyImport();
  }
  const reports: ChildReport[] = [];
  const empty: number[] = [];
  for (let round = 0; round < repetitions; round += 1) {
    reports.push(await instance());
    empty.push((await emptyImport()).imported);
  }
  const of = (part: (report: ChildReport) => number) => median(reports.map(part));
  const warm = (report: ChildReport) => median(report.times.slice(1));
  return {
    /** Per instance init + first invocation - its median warm invocation, then the median of those. */
    overhead: of((report) => report.imported + report.times[0]! - warm(report)),
    init: of((report) => report.imported),
    first: of((report) => report.times[0]!),
    warm: of(warm),
    empty: median(empty),
    emptyRuns: empty,
  };
}

/** The SPA's query for the user's saved views (web/src/features/dashboard/api/views.ts, outside Node's type-check). */
const LIST_TABLEAU_VIEWS = `
  query ListTableauViews($filter: ModelTableauViewFilterInput, $limit: Int, $nextToken: String) {
    listTableauViews(filter: $filter, limit: $limit, nextToken: $nextToken) {
      items { id name createdBy userEmail quicksightDashboardId isDefault createdAt updatedAt }
      nextToken
    }
  }
`;

/**
 * The resolver event AppSync hands the GraphQL function for the SPA's list of `email`'s views,
 * made as the local API makes it (local/graphql/server.ts): the identity from the verified token.
 */
export async function listViewsEvent(info: StackInfo, jwks: object, token: string, email: string): Promise<unknown> {
  const verifier = CognitoJwtVerifier.create(
    { userPoolId: info.cognito.userPoolId, clientId: info.cognito.clientId, tokenUse: null },
    {
      jwksCache: new SimpleJwksCache({ fetcher: { fetch: (uri) => Promise.reject(new Error(`not fetched: ${uri}`)) } }),
    },
  );
  verifier.cacheJwks(jwks as Jwks);
  const identity = cognitoIdentity(await verifier.verify(token), '127.0.0.1');
  const variables = { filter: { userEmail: { eq: email.toLowerCase() } } };
  const headers = { authorization: token, 'content-type': 'application/json', origin: info.webUrl };
  let event: unknown;
  await execute({
    schema: await loadProductSchema(),
    document: parse(LIST_TABLEAU_VIEWS),
    variableValues: variables,
    fieldResolver: (source, args, _context, resolveInfo) => {
      event ??= resolverEvent(args, source, resolveInfo, { headers, identity, variables });
      return null;
    },
  });
  if (event === undefined) throw new Error('graphql: the query resolved no field');
  return event;
}

/** What the pool's triggers are told of an account (emulators/cognito: tokens.ts, operations/users.ts). */
export async function triggerAccount(info: StackInfo, email: string) {
  const pool = { UserPoolId: info.cognito.userPoolId, Username: email };
  const cognito = new CognitoIdentityProviderClient({
    endpoint: info.cognito.endpoint,
    region: info.region,
    credentials: LOCAL_CREDENTIALS,
  });
  try {
    const user = await cognito.send(new AdminGetUserCommand(pool));
    const { Groups } = await cognito.send(new AdminListGroupsForUserCommand(pool));
    return {
      fields: {
        region: info.region,
        userPoolId: info.cognito.userPoolId,
        userName: user.Username,
        callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId: info.cognito.clientId },
      },
      userAttributes: {
        ...Object.fromEntries((user.UserAttributes ?? []).map(({ Name, Value }) => [Name, Value])),
        'cognito:user_status': user.UserStatus,
      },
      groups: (Groups ?? []).map((group) => group.GroupName!),
    };
  } finally {
    cognito.destroy();
  }
}
