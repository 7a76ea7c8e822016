import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findFreePortBase } from '#local/ports.ts';
import { spawnStack, type RunningStack } from '#local/stack-process.ts';
import { noteSeedSignIns } from '#test/e2e/support/unused-totp-codes.ts';

const projectRoot = fileURLToPath(new URL('../../..', import.meta.url));

export interface ToolRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a tool as `npm run <tool> -- ...` does (tools/<tool>.ts under tsx; tsx is loaded into
 * node itself, which spares the tsx launcher's second process), with no AWS credentials or
 * instance metadata to find, so a test never reaches beyond loopback.
 */
export function runTool(
  tool: 'doctor' | 'create-admin' | 'verify-deployment' | 'isolation',
  args: readonly string[],
): Promise<ToolRun> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('VITEST') || name.startsWith('AWS_')) delete env[name];
  Object.assign(env, {
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_CONFIG_FILE: '/dev/null',
    AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
  });
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(projectRoot, 'tools', `${tool}.ts`), ...args],
      { cwd: projectRoot, env, timeout: 120_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

export interface TestStack {
  readonly running: RunningStack;
  readonly dataDir: string;
  /** The target options every local run of a tool takes. */
  readonly localArgs: readonly string[];
  stop(): Promise<void>;
}

/** A local stack of the test file's own, in a fresh data directory. */
export async function startTestStack(): Promise<TestStack> {
  const dataDir = await mkdtemp(join(tmpdir(), 'portal-tools-test-'));
  const running = await spawnStack({ dataDir, portBase: await findFreePortBase() });
  await noteSeedSignIns(running.info);
  return {
    running,
    dataDir,
    localArgs: ['--local', '--data-dir', dataDir],
    async stop() {
      await running.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
