import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureChromium } from '../support/chromium.ts';
import { startSharedStack } from '../support/shared-stack.ts';
import './support/provided.ts';
import { createAdminPool } from './support/admin-pool.ts';
import { readTotpLedger, writeInitialTotpLedger, writeTotpLedger } from './support/totp-ledger.ts';

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
  const { stack, dataDir, close } = await startSharedStack('The end-to-end tests', 'portal-e2e-');
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
    await close();
    throw new Error(`The journeys' administrators could not be created: ${(error as Error).message}`);
  }
  return close;
}
