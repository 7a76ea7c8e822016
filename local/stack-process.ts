import { spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { readStackInfo, stackFilePath, type StackInfo } from '#clients/local-stack.ts';
import { localDeployment } from './aws/local-deployment.ts';
import { groupAlive } from './process-alive.ts';
import { ensureWebBuilt } from './web-build.ts';

/** Set by spawnStack: the stack stops when its parent's stdin pipe closes (parent died). */
export const EXIT_WITH_PARENT_ENV = 'LOCAL_STACK_EXIT_WITH_PARENT';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

export interface SpawnStackOptions {
  readonly dataDir: string;
  readonly portBase: number;
  readonly reset?: boolean;
  /**
   * How long the stack may take to be ready once the web app is built and the CDK app
   * synthesized (which happen first, under {@link prepareTimeoutMs}).
   * @default 180_000
   */
  readonly readyTimeoutMs?: number;
  /** How long the web build and the synthesis may take (a first start after a change). @default 900_000 */
  readonly prepareTimeoutMs?: number;
  /** Receives the stack's output as it arrives (stdout and stderr). */
  readonly onOutput?: (chunk: string) => void;
  /**
   * `node`: the command `npm start` runs (Node with tsx loaded, local/start.ts), without npm,
   * which costs a second of processor time per start and is not what most callers test.
   * `npm`: `npm start -- ...` itself, as a person types it (the tests of its signals and of
   * the stack's watch over its launchers).
   * @default 'node'
   */
  readonly launcher?: 'node' | 'npm';
}

export interface RunningStack {
  readonly info: StackInfo;
  /** The process group leader (`npm`, or the stack's own process). */
  readonly pid: number;
  /** Milliseconds from the spawn to a ready stack (the web build and synthesis done before). */
  readonly startupMs: number;
  /** SIGTERM to the whole process group, resolved once no process of it is left. */
  stop(): Promise<void>;
}

const OUTPUT_TAIL_CHARS = 6_000;

async function stopGroup(pgid: number, graceMs = 15_000): Promise<void> {
  if (!groupAlive(pgid)) return;
  process.kill(-pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (groupAlive(pgid) && Date.now() < deadline) await sleep(100);
  if (groupAlive(pgid)) {
    process.kill(-pgid, 'SIGKILL');
    throw new Error(`The local stack (process group ${pgid}) did not stop within ${graceMs} ms after SIGTERM`);
  }
}

/**
 * What a start waits for before its services: the web build and the synthesized CDK app,
 * made here first so that the stack's own clock measures the stack. Each has its own stage
 * name for a limit that fires.
 */
async function prepare(timeoutMs: number): Promise<void> {
  const stages = new Map<string, boolean>([
    ['the web build', false],
    ['the CDK synthesis', false],
  ]);
  const done = (stage: string) => () => void stages.set(stage, true);
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const slow = [...stages].filter(([, finished]) => !finished).map(([stage]) => stage);
      reject(
        new Error(
          `The local stack's preparation did not finish within ${Math.round(timeoutMs / 1000)} s: ${slow.join(' and ')} still running`,
        ),
      );
    }, timeoutMs);
  });
  try {
    await Promise.race([
      Promise.all([
        ensureWebBuilt({ keepPreviousOnFailure: false }).then(done('the web build')),
        localDeployment().then(done('the CDK synthesis')),
      ]),
      limit,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The last progress line the stack printed: the stage it is at. */
function lastStage(output: string): string | undefined {
  const lines = output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.endsWith('...'));
  return lines.at(-1);
}

/**
 * Starts the local stack as `npm start -- ...` does (or through npm itself, see
 * {@link SpawnStackOptions.launcher}) in its own process group and resolves once
 * `<dataDir>/stack.json` is written. The web build and the synthesis
 * are made (or found up to date) first, each under its own limit; the ready limit counts from
 * the spawn. Used by the integration tests, the end-to-end global setup and the benches.
 */
export async function spawnStack(options: SpawnStackOptions): Promise<RunningStack> {
  const {
    dataDir,
    portBase,
    reset = false,
    readyTimeoutMs = 180_000,
    prepareTimeoutMs = 900_000,
    onOutput,
    launcher = 'node',
  } = options;
  await prepare(prepareTimeoutMs);
  // A stack.json left by an earlier run must not be mistaken for this one's.
  await rm(stackFilePath(dataDir), { force: true });

  const startArgs = ['--data-dir', dataDir, '--port-base', String(portBase), ...(reset ? ['--reset'] : [])];
  const env: NodeJS.ProcessEnv = { ...process.env, [EXIT_WITH_PARENT_ENV]: '1' };
  // A test runner's own settings are not the stack's; nor is the npm script that started the caller
  // (the stack watches its launchers when npm_lifecycle_event says `npm start` ran it).
  for (const name of Object.keys(env))
    if (name === 'NODE_ENV' || name.startsWith('VITEST') || name === 'npm_lifecycle_event') delete env[name];
  // The same command as package.json's start script.
  const [command, args] =
    launcher === 'npm'
      ? ['npm', ['start', '--', ...startArgs]]
      : [process.execPath, ['--import', 'tsx', 'local/start.ts', ...startArgs]];

  const started = Date.now();
  const child: ChildProcess = spawn(command, args, {
    cwd: projectRoot,
    env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let tail = '';
  let stage = `spawning ${launcher === 'npm' ? 'npm start' : 'the stack'}`;
  let stageAt = started;
  const collect = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    tail = (tail + text).slice(-OUTPUT_TAIL_CHARS);
    const reached = lastStage(text);
    if (reached !== undefined) [stage, stageAt] = [reached, Date.now()];
    onOutput?.(text);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  let exitCode: number | null | undefined;
  child.once('exit', (code, signal) => {
    exitCode = code ?? (signal ? -1 : null);
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`Could not spawn ${launcher === 'npm' ? '`npm start`' : 'the local stack'}`);

  const stop = async () => {
    await stopGroup(pid);
    child.stdin?.destroy();
  };

  try {
    const deadline = started + readyTimeoutMs;
    for (;;) {
      const info = await readStackInfo(dataDir);
      if (info) return { info, pid, startupMs: Date.now() - started, stop };
      if (exitCode !== undefined)
        throw new Error(`The local stack exited (code ${exitCode}) before it was ready. Output:\n${tail}`);
      if (Date.now() > deadline) {
        throw new Error(
          `The local stack was not ready within ${Math.round(readyTimeoutMs / 1000)} s; the stage it was at: "${stage}" (for ${Math.round((Date.now() - stageAt) / 1000)} s). Output:\n${tail}`,
        );
      }
      await sleep(150);
    }
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
