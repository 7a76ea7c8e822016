/**
 * `npm run totp -- <email> [--data-dir DIR]`: the current authenticator code of a local
 * account, for people without an authenticator app at hand (local mode only).
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readTotpSecret } from '#emulators/cognito/index.ts';
import { cognitoDataDir } from './data-dir.ts';
import { DEFAULT_DATA_DIR } from '#clients/local-stack.ts';
import { currentTotpCode, msUntilNextTotpStep } from '#clients/authenticator-code.ts';

const USAGE = `Usage: npm run totp -- <email> [--data-dir DIR]   (default data directory ${DEFAULT_DATA_DIR})`;

async function main(): Promise<number> {
  let email: string | undefined;
  let dataDir: string;
  try {
    const { values, positionals } = parseArgs({
      options: { 'data-dir': { type: 'string', default: DEFAULT_DATA_DIR } },
      allowPositionals: true,
      strict: true,
    });
    [email] = positionals;
    dataDir = values['data-dir'];
    if (!email || positionals.length > 1) throw new Error('Give exactly one email address.');
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const secret = await readTotpSecret(cognitoDataDir(resolve(dataDir)), email.trim().toLowerCase());
  if (!secret) {
    console.error(`No authenticator is set up for ${email} in ${dataDir}.`);
    return 1;
  }
  const seconds = Math.ceil(msUntilNextTotpStep() / 1000);
  console.log(`${currentTotpCode(secret)}   (valid for ${seconds} more second${seconds === 1 ? '' : 's'})`);
  return 0;
}

process.exitCode = await main();
