import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashSources } from '#lib/bundling/source-hash.ts';
import { lockHeld, tryLock, unlock } from '../owner-lock.ts';
import { processAlive } from '../process-alive.ts';
import type { SynthesizedDeployment } from './deployment.ts';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Sets where syntheses are kept instead of {@link SYNTH_CACHE_DIR} (a test's own folder). */
export const SYNTH_CACHE_DIR_ENV = 'PORTAL_SYNTH_CACHE_DIR';

/** Where synthesized deployments are kept, one folder per source hash. */
const SYNTH_CACHE_DIR =
  process.env[SYNTH_CACHE_DIR_ENV] || join(projectRoot, 'node_modules', '.cache', 'portal-local-synth');

/** Everything the synthesized template and bundles are made from. */
const SOURCES = ['lib', 'lambdas', 'contracts', 'local/aws', 'local/environment.ts', 'cdk.json', 'package-lock.json'];
const KEPT_SYNTHESES = 3;

/** A hash of the sources' paths and contents: a changed handler or construct means a new synthesis. */
const sourceHash = async (): Promise<string> => hashSources(SOURCES);

async function readDeployment(directory: string): Promise<SynthesizedDeployment | undefined> {
  try {
    const stored = JSON.parse(await readFile(join(directory, 'deployment.json'), 'utf8')) as SynthesizedDeployment;
    const functions = Object.fromEntries(
      Object.entries(stored.functions).map(([key, fn]) => [key, { ...fn, bundle: join(directory, fn.bundle) }]),
    ) as SynthesizedDeployment['functions'];
    return { ...stored, functions };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function synthesizeInChild(outdir: string, hash: string): Promise<void> {
  const cli = fileURLToPath(new URL('./synth-cli.ts', import.meta.url));
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', cli, outdir, hash],
      {
        cwd: projectRoot,
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
      },
      (error, stdout, stderr) =>
        error ? reject(new Error(`Synthesis of the CDK app failed:\n${stderr || stdout || error.message}`)) : resolve(),
    );
  });
}

/**
 * The deployment local mode runs: the CDK app synthesized from the current sources, reused
 * while they stay the same (a warm start reads one JSON file).
 */
export async function localDeployment(log: (line: string) => void = () => undefined): Promise<SynthesizedDeployment> {
  const hash = await sourceHash();
  const directory = join(SYNTH_CACHE_DIR, hash);
  const cached = await readDeployment(directory);
  if (cached) return cached;

  await mkdir(SYNTH_CACHE_DIR, { recursive: true });
  // Stacks started at the same time (parallel test files) share one synthesis. The lock names
  // its owner: a start that finds the owner gone (killed during synthesis) takes it at once.
  const lock = `${directory}.lock`;
  const state = await tryLock(lock);
  if (!state.held) {
    log(`Waiting for the synthesis another start (process ${state.owner}) is running...`);
    const done = await waitForOtherSynthesis(directory, lock);
    if (done) return done;
    return localDeployment(log);
  }
  try {
    // Another start may have finished the same synthesis between the read above and the lock.
    const finished = await readDeployment(directory);
    if (finished) return finished;
    log('Synthesizing the CDK app and bundling the functions (after a change of lib/, lambdas/ or contracts/)...');
    await synthesizeInto(directory, hash);
  } finally {
    await unlock(lock);
  }
  await pruneCache(SYNTH_CACHE_DIR, hash);
  const deployment = await readDeployment(directory);
  if (!deployment) throw new Error(`Synthesis wrote no deployment.json in ${directory}`);
  return deployment;
}

/** A CloudFormation template's resources, as the synthesis wrote them. */
export interface TemplateResources {
  readonly Resources: Readonly<
    Record<string, { readonly Type: string; readonly Properties?: Record<string, unknown> }>
  >;
}

/** The stack template local mode runs from: the cached synthesis of the current sources. */
export async function localStackTemplate(): Promise<TemplateResources> {
  const deployment = await localDeployment();
  const file = join(SYNTH_CACHE_DIR, deployment.sourceHash, 'cdk.out', `${deployment.stackName}.template.json`);
  return JSON.parse(await readFile(file, 'utf8')) as TemplateResources;
}

/** A synthesis another live process holds the lock for: its result, or undefined once the lock is gone. */
async function waitForOtherSynthesis(directory: string, lock: string): Promise<SynthesizedDeployment | undefined> {
  for (;;) {
    const done = await readDeployment(directory);
    if (done) return done;
    if (!(await lockHeld(lock))) return readDeployment(directory);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function synthesizeInto(directory: string, hash: string): Promise<void> {
  const partial = `${directory}.partial-${process.pid}-${Date.now()}`;
  try {
    await synthesizeInChild(partial, hash);
    await rename(partial, directory).catch(async (error: NodeJS.ErrnoException) => {
      // Another start synthesized the same sources meanwhile: theirs serves as well.
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
      await rm(partial, { recursive: true, force: true });
    });
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Keeps the `kept` newest entries of a cache folder (`current` among them) and removes what a
 * process killed part way left behind: partial output named after its process.
 */
export async function pruneCache(cacheDir: string, current: string, kept = KEPT_SYNTHESES): Promise<void> {
  const entries = await readdir(cacheDir, { withFileTypes: true });
  const others = await Promise.all(
    entries
      .filter(
        (entry) =>
          entry.isDirectory() &&
          entry.name !== current &&
          !entry.name.includes('.partial-') &&
          !entry.name.includes('.lock'),
      )
      .map(async (entry) => ({
        path: join(cacheDir, entry.name),
        modified: (await stat(join(cacheDir, entry.name))).mtimeMs,
      })),
  );
  const stale = others.sort((a, b) => b.modified - a.modified).slice(kept - 1);
  const abandoned = entries
    .filter((entry) => {
      const pid = Number(/\.partial-(\d+)-/.exec(entry.name)?.[1]);
      return pid > 0 && !processAlive(pid);
    })
    .map((entry) => ({ path: join(cacheDir, entry.name) }));
  await Promise.all([...stale, ...abandoned].map((entry) => rm(entry.path, { recursive: true, force: true })));
}
