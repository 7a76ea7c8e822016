import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePortBase } from '#local/ports.ts';
import { spawnStack, type RunningStack } from '#local/stack-process.ts';

/**
 * The stack's own start (the web build and the synthesis come first, under their own limit):
 * 20-60 s measured with the other lanes running on a 2-core machine, so 300 s is beyond three times the slowest.
 */
const STACK_READY_TIMEOUT_MS = 300_000;

export interface SharedStack {
  readonly stack: RunningStack;
  readonly dataDir: string;
  /** Stops the stack and removes its data directory. */
  close(): Promise<void>;
}

/**
 * A local stack that a project's files share (its global set-up starts it): started as `npm start`
 * starts it, in a fresh data directory (removed again if the start fails), for `who` (said in the
 * error when it does not start).
 */
export async function startSharedStack(who: string, dirPrefix: string): Promise<SharedStack> {
  const dataDir = await mkdtemp(join(tmpdir(), dirPrefix));
  let stack: RunningStack;
  try {
    stack = await spawnStack({ dataDir, portBase: await findFreePortBase(), readyTimeoutMs: STACK_READY_TIMEOUT_MS });
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw new Error(`${who} need the local stack, which did not start: ${(error as Error).message}`);
  }
  return {
    stack,
    dataDir,
    async close() {
      await stack.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
