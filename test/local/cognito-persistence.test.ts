import { spawn } from 'node:child_process';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import {
  AdminCreateUserCommand,
  AdminGetUserCommand,
  GetUserCommand,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterEach, describe, expect, it } from 'vitest';
import { USER_POOL_CLIENT } from '#contracts/user-pool-client.ts';
import { readTotpSecret, startCognitoEmulator } from '#emulators/cognito/index.ts';
import { loadPool } from '#emulators/cognito/persistence.ts';
import { answerTotp, associateSoftwareToken, authenticate, userFor } from './support/cognito-client.ts';
import { adminClient, createEnrolledUser, createUser, startHarness } from './support/cognito-harness.ts';

const directories: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cognito-state-'));
  directories.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(directories.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('state kept under the data directory', () => {
  it('keeps the pool, its keys, accounts, authenticators and sign-ins across a restart', async () => {
    const harness = await startHarness({ dataDir: await tempDir() });
    try {
      const before = { ...harness.emulator, jwks: harness.emulator.jwks };
      const { secret, session, username } = await createEnrolledUser(harness, 'durable@example.com', 'Dura#Ble123', [
        'Users',
      ]);
      await harness.restart();
      expect(harness.emulator.userPoolId).toBe(before.userPoolId);
      expect(harness.emulator.clientId).toBe(before.clientId);
      expect(harness.emulator.jwks).toEqual(before.jwks);
      const me = await harness.admin.send(new GetUserCommand({ AccessToken: session.getAccessToken().getJwtToken() }));
      expect(me.Username).toBe(username);
      const refreshed = await harness.admin.send(
        new InitiateAuthCommand({
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          ClientId: harness.emulator.clientId,
          AuthParameters: { REFRESH_TOKEN: session.getRefreshToken().getToken() },
        }),
      );
      expect(refreshed.AuthenticationResult?.AccessToken).toBeDefined();
      const user = userFor(harness.pool, 'durable@example.com');
      expect(await authenticate(user, 'durable@example.com', 'Dura#Ble123')).toEqual({ step: 'SOFTWARE_TOKEN_MFA' });
      const outcome = await answerTotp(user, harness.totp(secret));
      expect(outcome.step === 'DONE' && outcome.session.getAccessToken().payload['cognito:groups']).toEqual(['Users']);
      expect(await readTotpSecret(harness.dataDir, 'Durable@Example.com')).toBe(secret);
    } finally {
      await harness.close();
    }
  });

  it('has every acknowledged change on disk while running, even when the process is killed', async () => {
    const dataDir = await tempDir();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'support', 'cognito-child.ts'), dataDir],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`identity provider exited with ${code}`)));
      });
      const { url, userPoolId } = JSON.parse(line) as { url: string; userPoolId: string };
      const admin = adminClient(url);
      for (const email of ['one@example.com', 'two@example.com', 'three@example.com']) {
        await admin.send(
          new AdminCreateUserCommand({ UserPoolId: userPoolId, Username: email, MessageAction: 'SUPPRESS' }),
        );
      }
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const harness = await startHarness({ dataDir });
      try {
        expect(harness.emulator.userPoolId).toBe(userPoolId);
        for (const email of ['one@example.com', 'two@example.com', 'three@example.com']) {
          const user = await harness.admin.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: email }));
          expect(user.UserStatus).toBe('FORCE_CHANGE_PASSWORD');
        }
      } finally {
        await harness.close();
      }
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('ignores a torn last journal line and lines already in the snapshot', async () => {
    const dataDir = await tempDir();
    const harness = await startHarness({ dataDir });
    const username = await createUser(harness, 'survivor@example.com', 'Sur#Vivor12');
    await harness.emulator.close();
    const snapshot = JSON.parse(await readFile(join(dataDir, 'cognito-pool.json'), 'utf8')) as { seq: number };
    const stale = { s: snapshot.seq, c: 'user', k: username, v: null };
    await appendFile(
      join(dataDir, 'cognito-pool.journal'),
      `${JSON.stringify(stale)}\n{"s":${snapshot.seq + 1},"c":"us`,
    );
    const pool = await loadPool(dataDir);
    expect(pool?.users.map((user) => user.username)).toEqual([username]);
    await harness.restart();
    try {
      const user = await harness.admin.send(
        new AdminGetUserCommand({ UserPoolId: harness.emulator.userPoolId, Username: username }),
      );
      expect(user.UserStatus).toBe('CONFIRMED');
    } finally {
      await harness.close();
    }
  });

  it('reports the authenticator being set up and nothing for unknown accounts', async () => {
    const harness = await startHarness({ dataDir: await tempDir() });
    try {
      await createUser(harness, 'enrolling@example.com', 'Enrol#Ling1');
      const user = userFor(harness.pool, 'enrolling@example.com');
      await authenticate(user, 'enrolling@example.com', 'Enrol#Ling1');
      const secret = await associateSoftwareToken(user);
      expect(await readTotpSecret(harness.dataDir, 'enrolling@example.com')).toBe(secret);
      expect(await readTotpSecret(harness.dataDir, 'unknown@example.com')).toBeUndefined();
      expect(await readTotpSecret(await tempDir(), 'enrolling@example.com')).toBeUndefined();
    } finally {
      await harness.close();
    }
  });

  it('refuses a state file that is not JSON, a pool of another region and bad options', async () => {
    const dataDir = await tempDir();
    const options = { dataDir, client: USER_POOL_CLIENT, sendEmail: async () => undefined };
    const emulator = await startCognitoEmulator({ ...options, region: 'us-east-2' });
    await emulator.close();
    await expect(startCognitoEmulator({ ...options, region: 'eu-west-1' })).rejects.toThrow(/belongs to us-east-2/);
    await writeFile(join(dataDir, 'cognito-pool.json'), '{"format":');
    await expect(startCognitoEmulator({ ...options, region: 'us-east-2' })).rejects.toThrow(/not valid JSON/);
    await expect(startCognitoEmulator({ ...options, region: 'Ohio' })).rejects.toThrow(/Not an AWS region/);
    await expect(startCognitoEmulator({ ...options, region: 'us-east-2', webUrl: 'localhost:5173' })).rejects.toThrow(
      /webUrl/,
    );
    await expect(startCognitoEmulator({ ...options, region: 'us-east-2', accessTokenMinutes: 0 })).rejects.toThrow(
      /accessTokenMinutes/,
    );
  });
});
