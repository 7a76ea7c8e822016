import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { findFreePortBase } from '#local/ports.ts';
import { spawnStack } from '#local/stack-process.ts';
import { ensureWebBuilt } from '#local/web-build.ts';
import { CHROMIUM_PATH } from './support/browser.ts';
import './support/provided.ts';
import { writeInitialTotpLedger } from './support/totp-ledger.ts';

const STACK_READY_TIMEOUT_MS = 180_000;

function run(command: string, args: readonly string[]): void {
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.status !== 0)
    throw new Error(`\`${command} ${args.join(' ')}\` failed (exit ${result.status ?? result.signal})`);
}

/** Debian's Chromium, installed once per machine (Playwright cannot download browsers here). */
function ensureChromium(): void {
  if (existsSync(CHROMIUM_PATH)) return;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `${CHROMIUM_PATH} is missing: install it with \`sudo apt-get update && sudo apt-get install -y chromium\``,
    );
  }
  console.log(`${CHROMIUM_PATH} is missing: installing Debian's chromium...`);
  run('apt-get', ['update']);
  run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium']);
}

/**
 * Before the journeys: Chromium, a fresh web build, and a local stack of its own (temporary
 * data directory, free ports) started as `npm start` starts it. Its stack.json is provided
 * to the tests as `stack`, with the file of authenticator steps used (`totpLedger`); the stack
 * is stopped afterwards.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  ensureChromium();
  await ensureWebBuilt({ log: (line) => console.log(line), keepPreviousOnFailure: false });

  const dataDir = await mkdtemp(join(tmpdir(), 'portal-e2e-'));
  let stack;
  try {
    stack = await spawnStack({ dataDir, portBase: await findFreePortBase(), readyTimeoutMs: STACK_READY_TIMEOUT_MS });
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw new Error(`The end-to-end tests need the local stack, which did not start: ${(error as Error).message}`);
  }
  project.provide('stack', stack.info);
  const totpLedger = join(dataDir, 'e2e-totp-steps.json');
  writeInitialTotpLedger(totpLedger, stack.info);
  project.provide('totpLedger', totpLedger);

  return async () => {
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
