import {
  AdminGetUserCommand,
  CognitoIdentityProviderClient,
  UserNotFoundException,
} from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardsTable } from '#contracts/tables.ts';
import { localTableName, LOCAL_CREDENTIALS } from '#clients/local-stack.ts';
import { findFreePortBase } from '#local/ports.ts';
import { spawnStack, type RunningStack } from '#local/stack-process.ts';
import type { StackInfo } from '#clients/local-stack.ts';
import { signInWithSrp } from '../e2e/support/cognito-session.ts';
import { noteSeedSignIns } from '../e2e/support/unused-totp-codes.ts';

const NEW_USER = { email: 'restart.check@example.com', password: 'Restart#Check1' };
/** A sample dashboard the seed puts in the catalogue (QuickSight must know a catalogued dashboard). */
const RENAMED_DASHBOARD_ID = 'market-benchmarks';
const NEW_NAME = 'Restart Check';

async function callFunction(url: string, accessToken: string, body: object): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${JSON.stringify(body)} answered ${response.status}: ${await response.text()}`);
}

async function userExists(stack: StackInfo): Promise<boolean> {
  const client = new CognitoIdentityProviderClient({
    endpoint: stack.cognito.endpoint,
    region: stack.region,
    credentials: LOCAL_CREDENTIALS,
  });
  try {
    await client.send(new AdminGetUserCommand({ UserPoolId: stack.cognito.userPoolId, Username: NEW_USER.email }));
    return true;
  } catch (error) {
    if (error instanceof UserNotFoundException) return false;
    throw error;
  } finally {
    client.destroy();
  }
}

/** Whether the catalogue table (read straight from dynalite) holds a dashboard with this id. */
async function catalogueEntry(
  stack: StackInfo,
  dashboardId: string,
): Promise<{ id: string; name: string; link: string } | undefined> {
  const client = new DynamoDBClient({
    endpoint: stack.dynamodb.endpoint,
    region: stack.region,
    credentials: LOCAL_CREDENTIALS,
  });
  try {
    const found = await client.send(
      new ScanCommand({
        TableName: localTableName(dashboardsTable),
        FilterExpression: 'dashboardId = :id',
        ExpressionAttributeValues: { ':id': { S: dashboardId } },
      }),
    );
    const item = found.Items?.[0];
    return item === undefined
      ? undefined
      : { id: item.id?.S ?? '', name: item.dashboardName?.S ?? '', link: item.dashboardLink?.S ?? '' };
  } finally {
    client.destroy();
  }
}

describe('local state across restarts', () => {
  let dataDir: string;
  let portBase: number;
  let running: RunningStack | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-restart-test-'));
    portBase = await findFreePortBase();
  });

  afterAll(async () => {
    await running?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps what was created before a restart and drops it with --reset', async () => {
    running = await spawnStack({ dataDir, portBase });
    const first = running.info;
    await noteSeedSignIns(first);
    const admin = await signInWithSrp(first, first.demo.admin);
    await callFunction(first.functions.userAdmin, admin.accessToken, {
      action: 'CREATE_USER',
      userEmail: NEW_USER.email,
      password: NEW_USER.password,
    });
    const seeded = await catalogueEntry(first, RENAMED_DASHBOARD_ID);
    expect(seeded).toBeDefined();
    await callFunction(first.functions.quicksightAdmin, admin.accessToken, {
      action: 'UPDATE_DASHBOARD_METADATA',
      metadataId: seeded!.id,
      dashboardId: RENAMED_DASHBOARD_ID,
      dashboardName: NEW_NAME,
      dashboardLink: seeded!.link,
      sharedData: true,
    });
    expect(await userExists(first)).toBe(true);
    expect((await catalogueEntry(first, RENAMED_DASHBOARD_ID))?.name).toBe(NEW_NAME);
    await running.stop();

    running = await spawnStack({ dataDir, portBase });
    const second = running.info;
    await noteSeedSignIns(second);
    expect(second.cognito.userPoolId).toBe(first.cognito.userPoolId);
    expect(second.demo.user.totpSecret).toBe(first.demo.user.totpSecret);
    expect(await userExists(second)).toBe(true);
    expect((await catalogueEntry(second, RENAMED_DASHBOARD_ID))?.name).toBe(NEW_NAME);
    await running.stop();

    running = await spawnStack({ dataDir, portBase, reset: true });
    const reset = running.info;
    await noteSeedSignIns(reset);
    expect(reset.cognito.userPoolId).not.toBe(first.cognito.userPoolId);
    expect(await userExists(reset)).toBe(false);
    expect((await catalogueEntry(reset, RENAMED_DASHBOARD_ID))?.name).toBe(seeded!.name);
    // The fresh data directory is seeded again.
    await expect(signInWithSrp(reset, reset.demo.user)).resolves.toHaveProperty('accessToken');
  }, 240_000);
});
