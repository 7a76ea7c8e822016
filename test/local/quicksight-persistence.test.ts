import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  DescribeDashboardPermissionsCommand,
  DescribeUserCommand,
  GenerateEmbedUrlForRegisteredUserCommand,
  ListUsersCommand,
} from '@aws-sdk/client-quicksight';
import { afterEach, describe, expect, it } from 'vitest';
import { startQuickSightEmulator } from '#emulators/quicksight/index.ts';
import { JOURNAL_FILE, SNAPSHOT_FILE, openStateStore } from '#emulators/quicksight/persistence.ts';
import {
  ACCOUNT_ID,
  NAMESPACE,
  REGION,
  clientFor,
  startTestEmulator,
  userArn,
  type TestEmulator,
} from './quicksight-support.ts';

const USER = 'demo.user@example.com';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tracked(): Promise<TestEmulator> {
  const t = await startTestEmulator();
  cleanups.push(() => t.close());
  return t;
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'quicksight-state-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('QuickSight emulator state', () => {
  it('keeps users, permissions and embed sessions across a restart', async () => {
    const first = await tracked();
    await first.register(USER);
    await first.grantViewer('sales-performance', USER);
    const generated = await first.client.send(
      new GenerateEmbedUrlForRegisteredUserCommand({
        AwsAccountId: ACCOUNT_ID,
        UserArn: userArn(USER),
        AllowedDomains: ['http://localhost:5173'],
        ExperienceConfiguration: { Dashboard: { InitialDashboardId: 'sales-performance' } },
      }),
    );
    const opened = await fetch(generated.EmbedUrl ?? '');
    const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const oldUrl = new URL(generated.EmbedUrl ?? '');

    const second = await first.restart();
    cleanups.push(() => second.close());
    const user = await second.client.send(
      new DescribeUserCommand({ AwsAccountId: ACCOUNT_ID, Namespace: NAMESPACE, UserName: USER }),
    );
    expect(user.User?.Arn).toBe(userArn(USER));
    const permissions = await second.client.send(
      new DescribeDashboardPermissionsCommand({ AwsAccountId: ACCOUNT_ID, DashboardId: 'sales-performance' }),
    );
    expect(permissions.Permissions?.map((p) => p.Principal)).toEqual([userArn(USER)]);

    // The same browser session keeps working on the restarted emulator's new port.
    const navigation = new URL(second.emulator.url);
    navigation.pathname = oldUrl.pathname;
    navigation.search = '?period=6';
    const page = await fetch(navigation, { headers: { cookie } });
    expect(page.status).toBe(200);
    // The redeemed one-time link stays spent.
    navigation.search = oldUrl.search;
    expect((await fetch(navigation)).status).toBe(403);
  });

  it('writes the snapshot atomically and replays the journal after a crash, ignoring a torn last line', async () => {
    const dataDir = await tempDir();
    const user = (userName: string) => ({
      namespace: NAMESPACE,
      userName,
      email: userName,
      role: 'READER',
      identityType: 'QUICKSIGHT',
      active: true,
      principalId: `federated/quicksight/${userName}`,
    });
    // What a process that died while appending leaves behind: no snapshot, two whole lines, a torn one.
    await writeFile(
      path.join(dataDir, JOURNAL_FILE),
      [
        JSON.stringify({ seq: 1, change: { type: 'putUser', user: user('a@example.com') } }),
        JSON.stringify({ seq: 2, change: { type: 'putUser', user: user('b@example.com') } }),
        '{"seq":3,"change":{"type":"putUs',
      ].join('\n'),
    );

    const emulator = await startQuickSightEmulator({ dataDir, accountId: ACCOUNT_ID, region: REGION });
    cleanups.push(() => emulator.close());
    const client = clientFor(emulator.url);
    const listed = await client.send(new ListUsersCommand({ AwsAccountId: ACCOUNT_ID, Namespace: NAMESPACE }));
    expect(listed.UserList?.map((u) => u.UserName)).toEqual(['a@example.com', 'b@example.com']);
    // Start-up folds the journal into the snapshot.
    const snapshot = JSON.parse(await readFile(path.join(dataDir, SNAPSHOT_FILE), 'utf8')) as {
      users: unknown[];
      seq: number;
    };
    expect(snapshot.users).toHaveLength(2);
    expect(snapshot.seq).toBe(2);
    expect(await readFile(path.join(dataDir, JOURNAL_FILE), 'utf8')).toBe('');
    client.destroy();
  });

  it('compacts the journal into the snapshot as changes accumulate', async () => {
    const dataDir = await tempDir();
    const store = await openStateStore({ dataDir, accountId: ACCOUNT_ID, now: Date.now });
    for (let i = 0; i < 2100; i += 1) {
      await store.commit({
        type: 'setDashboardPermissions',
        dashboardId: 'sales-performance',
        permissions: [{ Principal: `p${i}`, Actions: ['quicksight:DescribeDashboard'] }],
      });
    }
    const journal = (await readFile(path.join(dataDir, JOURNAL_FILE), 'utf8')).trim().split('\n');
    expect(journal.length).toBe(100);
    const snapshot = JSON.parse(await readFile(path.join(dataDir, SNAPSHOT_FILE), 'utf8')) as { seq: number };
    expect(snapshot.seq).toBe(2000);
    await store.close();
    const reopened = await openStateStore({ dataDir, accountId: ACCOUNT_ID, now: Date.now });
    expect(reopened.state.dashboardPermissions('sales-performance')[0]?.Principal).toBe('p2099');
    await reopened.close();
  });

  it('refuses state of another account or unreadable state with a clear error', async () => {
    const dataDir = await tempDir();
    const store = await openStateStore({ dataDir, accountId: ACCOUNT_ID, now: Date.now });
    await store.close();
    await expect(startQuickSightEmulator({ dataDir, accountId: '210987654321', region: REGION })).rejects.toThrow(
      /belongs to account 123456789012/,
    );
    await writeFile(path.join(dataDir, SNAPSHOT_FILE), '{not json');
    await expect(startQuickSightEmulator({ dataDir, accountId: ACCOUNT_ID, region: REGION })).rejects.toThrow(
      /unreadable.*--reset/,
    );
  });
});
