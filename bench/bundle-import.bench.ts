/**
 * Cold start of each deployed function, as far as the code decides it: a fresh Node process
 * that imports the synthesized bundle (`cdk.out/asset.<hash>/index.mjs`) with the function's
 * deployed environment, against the same process importing an empty module. The difference
 * is the module-scope work of the bundle: parsing the entry and the chunks it imports
 * statically, and running their module scope. What a handler loads with `import()` on its first
 * request (the token verifier, the SDK clients) is not part of it; bench/first-request.bench.ts
 * times that for every function. Lambda's CPU share at the configured memory is not reproduced: the
 * ratio, not the milliseconds, carries over. Also the bundle sizes: what the import loads
 * (raw and gzip) and all of the bundle's modules.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { ENV } from '#contracts/env.ts';
import type { SynthesizedFunction } from '#local/aws/deployment.ts';
import { localDeployment } from '#local/aws/local-deployment.ts';
import { functionEnvironment, functionName, templateValues, type LocalEndpoints } from '#local/environment.ts';
import type { BenchOptions, BenchRow } from './types.ts';
import { median } from './median.ts';

/** Goal of the operations issue: a bundle's cold import at most 1.5x an empty module's. */
const IMPORT_RATIO_TARGET = 1.5;
/** Timed runs per module (after one untimed run that warms the file cache); the median counts. One in the smoke run. */
const REPETITIONS = 7;
const SMOKE_REPETITIONS = 1;

/**
 * Values the template's references resolve to. Nothing is contacted while a module loads, so
 * the addresses only need the shapes the handlers check at start (a pool id the verifier accepts).
 */
const ENDPOINTS: LocalEndpoints = {
  region: 'us-east-2',
  siteOrigin: 'https://portal.example.com',
  cognito: {
    endpoint: 'https://cognito-idp.us-east-2.amazonaws.com',
    userPoolId: 'us-east-2_AbCdEf123',
    clientId: 'client',
    jwks: { keys: [] },
  },
  dynamodbEndpoint: 'https://dynamodb.us-east-2.amazonaws.com',
  quicksightEndpoint: 'https://quicksight.us-east-2.amazonaws.com',
  sesEndpoint: 'https://email.us-east-2.amazonaws.com',
};
const CREDENTIALS = { accessKeyId: 'ASIABENCHMARK', secretAccessKey: 'benchmark' };

/** Set by local mode only; in AWS the handlers use the SDK's regional endpoints and fetch the JWKS lazily. */
const LOCAL_ONLY = [
  ENV.cognitoEndpoint,
  ENV.cognitoJwks,
  ENV.dynamodbEndpoint,
  ENV.quicksightEndpoint,
  ENV.sesEndpoint,
];

function deployedEnvironment(
  fn: SynthesizedFunction,
  values: ReturnType<typeof templateValues>,
): Record<string, string> {
  const env = functionEnvironment(fn, values, ENDPOINTS, CREDENTIALS);
  for (const name of LOCAL_ONLY) delete env[name];
  const logLevel = fn.environment[ENV.logLevel];
  if (typeof logLevel === 'string') env[ENV.logLevel] = logLevel;
  return env;
}

/** Milliseconds from spawning `node <loader> <module>` to its exit. */
function timeImport(loader: string, module: string, env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [loader, pathToFileURL(module).href], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code === 0) resolve(ms);
      else
        reject(
          new Error(`importing ${module} failed (exit ${code}): ${stderr.trim().split('\n').slice(0, 3).join(' ')}`),
        );
    });
  });
}

/** Median times of the bundle and of the empty module, run alternately so drift hits both alike. */
async function compare(
  loader: string,
  bundle: string,
  empty: string,
  env: Record<string, string>,
  repetitions: number,
) {
  await timeImport(loader, bundle, env);
  await timeImport(loader, empty, env);
  const bundleMs: number[] = [];
  const emptyMs: number[] = [];
  for (let run = 0; run < repetitions; run += 1) {
    bundleMs.push(await timeImport(loader, bundle, env));
    emptyMs.push(await timeImport(loader, empty, env));
  }
  return { bundle: median(bundleMs), empty: median(emptyMs) };
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

/**
 * `import ... from "./chunk.mjs"` and `import "./chunk.mjs"` (not `import("./chunk.mjs")`): what loading a module
 * loads with it.
 */
const STATIC_IMPORT = /(?:\bfrom\s*|\bimport\s*)"\.\/([^"]+\.mjs)"/g;

/** The bundle's entry with the chunks it imports statically, and all of its modules. */
async function bundleSizes(entry: string) {
  const directory = dirname(entry);
  const loaded = new Map<string, Buffer>();
  const pending = [basename(entry)];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (loaded.has(file)) continue;
    const code = await readFile(join(directory, file));
    loaded.set(file, code);
    for (const match of code.toString('utf8').matchAll(STATIC_IMPORT)) pending.push(match[1]!);
  }
  const modules = (await readdir(directory)).filter((file) => file.endsWith('.mjs'));
  let total = 0;
  for (const file of modules) total += (await readFile(join(directory, file))).length;
  const atStart = Buffer.concat([...loaded.values()]);
  return { atStart: atStart.length, atStartGzip: gzipSync(atStart).length, total, modules: modules.length };
}

export async function run(options: BenchOptions): Promise<BenchRow[]> {
  const repetitions = options.smoke ? SMOKE_REPETITIONS : REPETITIONS;
  const deployment = await localDeployment((line) => process.stderr.write(`${line}\n`));
  const values = templateValues(deployment, ENDPOINTS, 'error');
  const scratch = await mkdtemp(join(tmpdir(), 'bundle-import-bench-'));
  try {
    const loader = join(scratch, 'load.mjs');
    const empty = join(scratch, 'empty.mjs');
    await writeFile(loader, 'await import(process.argv[2]);\n');
    await writeFile(empty, '');

    const rows: BenchRow[] = [];
    const baselines: number[] = [];
    for (const fn of Object.values(deployment.functions)) {
      const name = functionName(fn);
      const times = await compare(loader, fn.bundle, empty, deployedEnvironment(fn, values), repetitions);
      baselines.push(times.empty);
      const ratio = times.bundle / times.empty;
      rows.push({
        area: 'lambda cold import',
        metric: name,
        value: `${times.bundle.toFixed(0)} ms (${ratio.toFixed(2)}x empty module, ${times.empty.toFixed(0)} ms)`,
        target: `<= ${IMPORT_RATIO_TARGET}x empty module`,
        ok: ratio <= IMPORT_RATIO_TARGET,
        kind: 'time',
      });
      const sizes = await bundleSizes(fn.bundle);
      rows.push({
        area: 'lambda bundle size',
        metric: name,
        value: `${kb(sizes.atStart)} loaded at start (${kb(sizes.atStartGzip)} gzip); ${kb(sizes.total)} in all ${sizes.modules} modules`,
      });
    }
    rows.push({
      area: 'lambda cold import',
      metric: `empty module (median of ${repetitions} runs per function)`,
      value: `${median(baselines).toFixed(0)} ms`,
      kind: 'time',
    });
    return rows;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
