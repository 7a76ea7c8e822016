import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNTH_CACHE_DIR_ENV } from '#local/aws/local-deployment.ts';
import { processAlive } from '#local/process-alive.ts';
import { findFreePortBase } from '#local/ports.ts';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const SYNTHESIZING = 'Synthesizing the CDK app';

/** The local stack's start as `npm start` runs it (tsx on local/start.ts), with a synthesis cache of its own. */
function start(cacheDir: string, dataDir: string, portBase: number) {
  const env: NodeJS.ProcessEnv = { ...process.env, [SYNTH_CACHE_DIR_ENV]: cacheDir };
  for (const name of Object.keys(env)) if (name === 'NODE_ENV' || name.startsWith('VITEST')) delete env[name];
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'local/start.ts', '--data-dir', dataDir, '--port-base', String(portBase)],
    { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

async function until(condition: () => boolean, limitMs: number, what: string, output: () => string): Promise<number> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs)
      throw new Error(`${what} did not happen within ${limitMs / 1000} s:\n${output()}`);
    await sleep(100);
  }
  return Date.now() - started;
}

/** Processes whose command line names `text`. */
const processesNaming = (text: string): number[] =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);

describe('a start killed during the synthesis', () => {
  let scratch: string;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'synthesis-lock-test-'));
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await rm(scratch, { recursive: true, force: true });
  });

  it('does not delay the next start: it takes the lock at once and synthesizes', async () => {
    // A cache of its own: both starts synthesize (the shared cache may hold these sources already).
    const cacheDir = join(scratch, 'synth-cache');
    const portBase = await findFreePortBase();
    const first = start(cacheDir, join(scratch, 'first'), portBase);
    children.push(first.child);
    // The start prints its synthesis line once it holds the lock; the web build may still be running.
    await until(() => first.output().includes(SYNTHESIZING), 300_000, 'The first synthesis', first.output);
    const lock = readdirSync(cacheDir).find((entry) => entry.endsWith('.lock'));
    expect(lock).toBeDefined();
    const killedPid = first.child.pid!;
    expect(readFileSync(join(cacheDir, lock!, 'owner'), 'utf8').split(' ')[0]).toBe(String(killedPid));

    first.child.kill('SIGKILL');
    await until(() => !processAlive(killedPid), 10_000, 'The end of the killed start', first.output);
    // The lock is still there, naming a process that has ended.
    expect(existsSync(join(cacheDir, lock!))).toBe(true);

    const second = start(cacheDir, join(scratch, 'second'), portBase);
    children.push(second.child);
    // As soon as the start has loaded and hashed the sources (seconds; up to a minute on a machine running the
    // rest of the suite), not once the lock has some age.
    await until(() => second.output().includes(SYNTHESIZING), 60_000, 'The second synthesis', second.output);
    expect(second.output()).not.toContain('Waiting for the synthesis');
    expect(readFileSync(join(cacheDir, lock!, 'owner'), 'utf8').split(' ')[0]).toBe(String(second.child.pid));
    // The killed start's synthesis process stops itself once its parent is gone (its partial output is named
    // after the parent): it checks four times a second while a worker thread synthesizes.
    await until(
      () => processesNaming(`.partial-${killedPid}-`).length === 0,
      120_000,
      "The end of the killed start's synthesis process",
      first.output,
    );
    // The second synthesis runs to its end in every other start of the suite; here it is stopped the same way, and
    // its synthesis process leaves no work behind either.
    const secondPid = second.child.pid!;
    second.child.kill('SIGKILL');
    await until(
      () => processesNaming(`.partial-${secondPid}-`).length === 0,
      120_000,
      "The end of the second start's synthesis process",
      second.output,
    );
  }, 600_000);
});
