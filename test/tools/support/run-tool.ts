import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import type { StackInfo } from '#clients/local-stack.ts';
import './provided.ts';

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
  readonly info: StackInfo;
  readonly dataDir: string;
  /** The target options every local run of a tool takes. */
  readonly localArgs: readonly string[];
}

/**
 * The local stack of the tools project (test/tools/global-setup.ts). Its files run one at a
 * time and each puts back what it changes, so each finds the stack as it started.
 */
export function sharedTestStack(): TestStack {
  const { dataDir, info } = inject('toolsStack');
  return { info, dataDir, localArgs: ['--local', '--data-dir', dataDir] };
}
