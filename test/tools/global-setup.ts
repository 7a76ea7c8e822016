import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { findFreePortBase } from '#local/ports.ts';
import { spawnStack } from '#local/stack-process.ts';
import { writeInitialTotpLedger } from '../e2e/support/totp-ledger.ts';
import './support/provided.ts';

/**
 * The stack's own start (the web build and the synthesis come first, under their own limit):
 * 20-60 s measured with the other lanes running on a 2-core machine, so 300 s is beyond three times the slowest.
 */
const STACK_READY_TIMEOUT_MS = 300_000;

/**
 * Before the tools' files: one local stack, started as `npm start` starts it in a fresh data
 * directory, which the files drive one after another (the tools project runs no two at once, and
 * each file puts back what it changes). Provided as `toolsStack` with the file of authenticator
 * steps used (`totpLedger`); stopped afterwards.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = await mkdtemp(join(tmpdir(), 'portal-tools-test-'));
  let stack;
  try {
    stack = await spawnStack({ dataDir, portBase: await findFreePortBase(), readyTimeoutMs: STACK_READY_TIMEOUT_MS });
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw new Error(`The tools' tests need a local stack, which did not start: ${(error as Error).message}`);
  }
  project.provide('toolsStack', { dataDir, info: stack.info });
  const totpLedger = join(dataDir, 'tools-totp-steps.json');
  writeInitialTotpLedger(totpLedger, stack.info);
  project.provide('totpLedger', totpLedger);
  return async () => {
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
