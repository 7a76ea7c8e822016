import { join } from 'node:path';

/** Each emulator keeps its state in its own folder of the data directory. */
export const cognitoDataDir = (dataDir: string) => join(dataDir, 'cognito');
export const quicksightDataDir = (dataDir: string) => join(dataDir, 'quicksight');
