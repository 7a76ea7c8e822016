import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { writeInitialTotpLedger } from '../e2e/support/totp-ledger.ts';
import { startSharedStack } from '../support/shared-stack.ts';
import './support/provided.ts';

/**
 * Before the tools' files: one local stack, started as `npm start` starts it in a fresh data
 * directory, which the files drive one after another (the tools project runs no two at once, and
 * each file puts back what it changes). Provided as `toolsStack` with the file of authenticator
 * steps used (`totpLedger`); stopped afterwards.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { stack, dataDir, close } = await startSharedStack("The tools' tests", 'portal-tools-test-');
  project.provide('toolsStack', { dataDir, info: stack.info });
  const totpLedger = join(dataDir, 'tools-totp-steps.json');
  writeInitialTotpLedger(totpLedger, stack.info);
  project.provide('totpLedger', totpLedger);
  return close;
}
