import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { tryLock, unlock } from './owner-lock.ts';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const WEB_DIR = join(projectRoot, 'web');
export const WEB_DIST = join(WEB_DIR, 'dist');
const VITE_CONFIG = join(WEB_DIR, 'vite.config.ts');
/** The SPA imports the shared schemas, so they are sources of the build too. */
const SOURCE_DIRS = [WEB_DIR, join(projectRoot, 'contracts')];
const IGNORED = new Set(['dist', 'node_modules']);

async function newestSourceMtime(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (IGNORED.has(entry.name) || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    const mtime = entry.isDirectory() ? await newestSourceMtime(path) : (await stat(path)).mtimeMs;
    newest = Math.max(newest, mtime);
  }
  return newest;
}

/** Whether web/dist is missing or older than any source of the SPA. */
async function webBuildIsStale(): Promise<boolean> {
  const index = join(WEB_DIST, 'index.html');
  if (!existsSync(index)) return true;
  const built = (await stat(index)).mtimeMs;
  const sources = await Promise.all(SOURCE_DIRS.filter((d) => existsSync(d)).map(newestSourceMtime));
  return Math.max(...sources) > built;
}

/**
 * One build at a time for this checkout (tests start several stacks at once). The lock names
 * its owner, so a lock left by a killed process is taken over at once (local/owner-lock.ts).
 */
async function withBuildLock<T>(signal: AbortSignal | undefined, run: () => Promise<T>): Promise<T> {
  const lock = join(tmpdir(), `portal-web-build-${createHash('sha1').update(projectRoot).digest('hex').slice(0, 12)}`);
  for (;;) {
    signal?.throwIfAborted();
    if ((await tryLock(lock)).held) break;
    await sleep(250);
  }
  try {
    return await run();
  } finally {
    await unlock(lock);
  }
}

export interface WebBuildOptions {
  readonly log?: (line: string) => void;
  /**
   * When the build fails, serve the previous web/dist if there is one (`npm start` while the
   * SPA is being edited) rather than fail. Test runs that must see the current sources turn it off.
   * @default true
   */
  readonly keepPreviousOnFailure?: boolean;
  /** Stops a build under way (the stack is stopping). */
  readonly signal?: AbortSignal;
}

/** Vite's programmatic build, run in its own Node process so its memory is returned when it ends. */
const BUILD_SCRIPT =
  "const { build } = await import('vite'); await build({ configFile: process.env.VITE_CONFIG_FILE, logLevel: 'warn' });";

function withoutNodeEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_ENV: _ignored, ...rest } = env;
  return rest;
}

function runViteBuild(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', BUILD_SCRIPT], {
      cwd: projectRoot,
      // A production build whoever asks: a test runner's NODE_ENV=test would make Vite bundle React's development
      // build (the sign-in page at 170 KB gzip instead of 108).
      env: { ...withoutNodeEnv(process.env), VITE_CONFIG_FILE: VITE_CONFIG },
      stdio: ['ignore', 'pipe', 'pipe'],
      signal,
    });
    let output = '';
    const collect = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-4_000));
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('error', reject);
    child.once('close', (code, killedBy) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `vite build ${killedBy ? `was stopped (${killedBy})` : `failed (exit ${code})`}:\n${output.trim()}`,
          ),
        );
    });
  });
}

/**
 * Builds the SPA with its own Vite config when web/dist is missing or stale.
 * Resolves with whether a new build was written.
 */
export async function ensureWebBuilt({
  log = () => undefined,
  keepPreviousOnFailure = true,
  signal,
}: WebBuildOptions = {}): Promise<boolean> {
  if (!existsSync(VITE_CONFIG)) {
    throw new Error(`The web app cannot be built: ${VITE_CONFIG} does not exist`);
  }
  if (!(await webBuildIsStale())) return false;
  return withBuildLock(signal, async () => {
    // Another process may have built it while this one waited for the lock.
    if (!(await webBuildIsStale())) return false;
    log('Building the web app (web/dist is missing or older than its sources)...');
    try {
      await runViteBuild(signal);
    } catch (error) {
      // While the SPA's sources are being edited, the last good build keeps the portal usable.
      if (signal?.aborted || !keepPreviousOnFailure || !existsSync(join(WEB_DIST, 'index.html'))) throw error;
      log(
        `The web build failed; serving the previous build from web/dist. ${error instanceof Error ? error.message : String(error)}`,
      );
      return false;
    }
    if (!existsSync(join(WEB_DIST, 'index.html'))) {
      throw new Error(
        `The web build finished without ${join(WEB_DIST, 'index.html')}; check build.outDir in ${VITE_CONFIG}`,
      );
    }
    return true;
  });
}
