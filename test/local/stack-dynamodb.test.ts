import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  waitUntilTableNotExists,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tables, VIEWS_BY_USER_INDEX, viewsTable } from '#contracts/tables.ts';
import { createTableInput, startDynamoDb } from '#local/dynamodb.ts';
import { localTableName, LOCAL_CREDENTIALS } from '#clients/local-stack.ts';

const options = (dataDir: string) => ({
  host: '127.0.0.1',
  port: 0,
  dataDir,
  region: 'us-east-2',
  credentials: LOCAL_CREDENTIALS,
});

describe('local DynamoDB (dynalite)', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-dynamo-test-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('creates every table of contracts/tables.ts with its keys and indexes', async () => {
    const db = await startDynamoDb(options(dataDir));
    try {
      for (const table of tables) {
        const { Table } = await db.client.send(new DescribeTableCommand({ TableName: localTableName(table) }));
        expect(Table?.TableStatus).toBe('ACTIVE');
        expect(Table?.KeySchema).toEqual(createTableInput(table).KeySchema);
        expect((Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName).sort()).toEqual(
          table.globalSecondaryIndexes.map((i) => i.indexName).sort(),
        );
      }
      expect(localTableName(viewsTable)).toBe('local-Views');
    } finally {
      await db.close();
    }
  });

  it('keeps items across a restart and answers queries on the user index', async () => {
    const first = await startDynamoDb(options(dataDir));
    const item = {
      id: { S: 'view-1' },
      userEmail: { S: 'demo.user@example.com' },
      quicksightDashboardId: { S: 'sales-performance' },
    };
    await first.client.send(new PutItemCommand({ TableName: localTableName(viewsTable), Item: item }));
    await first.close();

    const second = await startDynamoDb(options(dataDir));
    try {
      const got = await second.client.send(
        new GetItemCommand({ TableName: localTableName(viewsTable), Key: { id: { S: 'view-1' } } }),
      );
      expect(got.Item).toEqual(item);
      const byUser = await second.client.send(
        new QueryCommand({
          TableName: localTableName(viewsTable),
          IndexName: VIEWS_BY_USER_INDEX,
          KeyConditionExpression: 'userEmail = :email',
          ExpressionAttributeValues: { ':email': { S: 'demo.user@example.com' } },
        }),
      );
      expect(byUser.Items).toEqual([item]);
    } finally {
      await second.close();
    }
  });

  it('refuses to start on a table made from another definition, naming --reset', async () => {
    const db = await startDynamoDb(options(dataDir));
    await db.client.send(new DeleteTableCommand({ TableName: localTableName(viewsTable) }));
    // DeleteTable answers while the table is still DELETING; a table of that name can be made only once it is gone.
    await waitUntilTableNotExists(
      { client: db.client, maxWaitTime: 30, minDelay: 0.1, maxDelay: 0.5 },
      { TableName: localTableName(viewsTable) },
    );
    await db.client.send(
      new CreateTableCommand({
        TableName: localTableName(viewsTable),
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      }),
    );
    await db.close();
    await expect(startDynamoDb(options(dataDir))).rejects.toThrow(/--reset/);
  });
});
