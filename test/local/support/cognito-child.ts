import { USER_POOL_CLIENT } from '#contracts/user-pool-client.ts';
import { startCognitoEmulator } from '#emulators/cognito/index.ts';

/**
 * Runs the identity provider in its own process so a test can kill it without warning:
 * prints one JSON line with its address once it listens.
 */
const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: cognito-child.ts <dataDir>');
const emulator = await startCognitoEmulator({
  dataDir,
  region: 'us-east-2',
  client: USER_POOL_CLIENT,
  sendEmail: async () => undefined,
});
process.stdout.write(`${JSON.stringify({ url: emulator.url, userPoolId: emulator.userPoolId })}\n`);
