import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  QuickSightClient,
  RegisterUserCommand,
  type RegisterUserCommandOutput,
  UpdateDashboardPermissionsCommand,
} from '@aws-sdk/client-quicksight';
import { startQuickSightEmulator, type QuickSightEmulator } from '../../local/quicksight/index.ts';

/** Starts emulators on free ports with a temporary data directory and a clock tests can move. */

export const ACCOUNT_ID = '123456789012';
export const REGION = 'us-east-2';
export const NAMESPACE = 'default';
export const VIEWER_ACTIONS = ['quicksight:DescribeDashboard', 'quicksight:ListDashboardVersions', 'quicksight:QueryDashboard'];

export const userArn = (userName: string) => `arn:aws:quicksight:${REGION}:${ACCOUNT_ID}:user/${NAMESPACE}/${userName}`;

export class TestClock {
  constructor(private current = Date.UTC(2026, 1, 2, 9, 0, 0)) {}
  readonly now = () => this.current;
  advance(ms: number): void {
    this.current += ms;
  }
}

export interface TestEmulator {
  readonly emulator: QuickSightEmulator;
  readonly client: QuickSightClient;
  readonly clock: TestClock;
  readonly dataDir: string;
  /** A READER registered by email; `overrides` replace any request member, invalid values included. */
  register(userName: string, overrides?: Record<string, unknown>): Promise<RegisterUserCommandOutput>;
  grantViewer(dashboardId: string, userName: string): Promise<void>;
  /** Stops the emulator and starts a new one on the same data directory. */
  restart(): Promise<TestEmulator>;
  close(): Promise<void>;
}

export function clientFor(url: string): QuickSightClient {
  return new QuickSightClient({
    region: REGION,
    endpoint: url,
    credentials: { accessKeyId: 'AKIDLOCAL', secretAccessKey: 'local-secret' },
    maxAttempts: 1,
  });
}

export interface TestEmulatorOptions {
  /** Host name of the embed URLs (see the emulator's `pageHost`). */
  readonly pageHost?: string;
}

async function start(dataDir: string, clock: TestClock, ownsDataDir: boolean, options: TestEmulatorOptions): Promise<TestEmulator> {
  const emulator = await startQuickSightEmulator({ port: 0, dataDir, accountId: ACCOUNT_ID, region: REGION, now: clock.now, pageHost: options.pageHost });
  const client = clientFor(emulator.url);
  let closed = false;
  const stop = async () => {
    if (closed) return;
    closed = true;
    client.destroy();
    await emulator.close();
  };
  return {
    emulator,
    client,
    clock,
    dataDir,
    register(userName, overrides = {}) {
      return client.send(
        new RegisterUserCommand({
          AwsAccountId: ACCOUNT_ID,
          Namespace: NAMESPACE,
          IdentityType: 'QUICKSIGHT',
          UserName: userName,
          Email: userName,
          UserRole: 'READER',
          ...overrides,
        }),
      );
    },
    async grantViewer(dashboardId, userName) {
      await client.send(
        new UpdateDashboardPermissionsCommand({
          AwsAccountId: ACCOUNT_ID,
          DashboardId: dashboardId,
          GrantPermissions: [{ Principal: userArn(userName), Actions: VIEWER_ACTIONS }],
        }),
      );
    },
    async restart() {
      await stop();
      return start(dataDir, clock, ownsDataDir, options);
    },
    async close() {
      await stop();
      if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function startTestEmulator(clock = new TestClock(), options: TestEmulatorOptions = {}): Promise<TestEmulator> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'quicksight-emulator-'));
  return start(dataDir, clock, true, options);
}

/** The error name and HTTP status an SDK call failed with. */
export async function sdkError(promise: Promise<unknown>): Promise<{ name: string; status?: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { name: string; message: string; $metadata?: { httpStatusCode?: number } };
    return { name: e.name, status: e.$metadata?.httpStatusCode, message: e.message };
  }
  throw new Error('Expected the call to fail');
}
