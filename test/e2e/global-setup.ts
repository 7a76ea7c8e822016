import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { findFreePortBase } from '#local/ports.ts';
import { spawnStack } from '#local/stack-process.ts';
import { ensureChromium } from '../support/chromium.ts';
import './support/provided.ts';
import { createAdminPool } from './support/admin-pool.ts';
import { readTotpLedger, writeInitialTotpLedger, writeTotpLedger } from './support/totp-ledger.ts';

/**
 * The stack's own start (the web build and the synthesis come first, under their own limit):
 * 20-60 s measured with the other lanes running on a 2-core machine, so 300 s is beyond three times the slowest.
 */
const STACK_READY_TIMEOUT_MS = 300_000;

/**
 * Before the journeys: Chromium, and a local stack of its own (fresh web build, temporary
 * data directory, free ports) started with the command `npm start` runs. Its stack.json is provided
 * to the tests as `stack`, with the file of authenticator steps used (`totpLedger`) and the
 * administrators besides the demo admin (`adminPool`, support/admin-pool.ts); the stack is
 * stopped afterwards.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  ensureChromium();
  // spawnStack builds the web app and synthesizes first, under a limit of their own.

  const dataDir = await mkdtemp(join(tmpdir(), 'portal-e2e-'));
  let stack;
  try {
    stack = await spawnStack({ dataDir, portBase: await findFreePortBase(), readyTimeoutMs: STACK_READY_TIMEOUT_MS });
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw new Error(`The end-to-end tests need the local stack, which did not start: ${(error as Error).message}`);
  }
  console.log(`The journeys' local stack was ready ${(stack.startupMs / 1000).toFixed(1)} s after its start`);
  project.provide('stack', stack.info);
  const totpLedger = join(dataDir, 'e2e-totp-steps.json');
  writeInitialTotpLedger(totpLedger, stack.info);
  project.provide('totpLedger', totpLedger);
  try {
    const { admins, used } = await createAdminPool(stack.info);
    writeTotpLedger(totpLedger, { ...readTotpLedger(totpLedger), ...used });
    project.provide('adminPool', admins);
  } catch (error) {
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
    throw new Error(`The journeys' administrators could not be created: ${(error as Error).message}`);
  }

  return async () => {
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
