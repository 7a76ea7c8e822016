import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DeleteTableCommand, DynamoDBClient, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { tables, type TableDefinition } from '#contracts/tables.ts';
import { createTableInput, startDynamoDb } from '#local/dynamodb.ts';
import { localTableName, LOCAL_CREDENTIALS } from '#clients/local-stack.ts';
import { dynamodbRules } from '#local/iam/services.ts';
import { recordResponses } from './evidence.ts';
import { startFrontDoor, type FrontDoor } from './front-door.ts';
import { onAws, REGION, scratchName } from './target.ts';

/**
 * The product's DynamoDB tables for the conformance tests: locally dynalite as local mode
 * starts it (port 0, a temporary data directory), which creates the tables of
 * contracts/tables.ts, reached through local mode's IAM gate with the functions' role
 * credentials (support/front-door.ts); on AWS scratch tables with the same keys and indexes in the current
 * credentials' account and region, deleted again by close().
 */
export interface DynamoDbTarget {
  /**
   * A document client configured as the handlers' (lambdas/shared/aws/dynamo.ts); locally
   * signed with the functions' role credentials, so a call no function may make is AccessDenied.
   */
  readonly client: DynamoDBDocumentClient;
  /** The operator's client, for the suite's own checks (locally the administrator; on AWS the same client). */
  readonly operator: DynamoDBDocumentClient;
  /** The name of the table made from `table` on this target. */
  tableName(table: TableDefinition): string;
  /**
   * Runs `check` until it passes: reads that need not be strongly consistent (Query and Scan
   * without ConsistentRead, any read of a global secondary index) may lag behind a write on
   * AWS for a moment. Locally `check` runs once.
   */
  eventually<T>(check: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** How long an eventually consistent read may lag on AWS before a check counts as failed. */
const AWS_SETTLE_MS = 30_000;
const RETRY_MS = 500;
/** Creating a table with two indexes usually takes well under a minute. */
const TABLE_ACTIVE_WAIT_SECONDS = 300;

const documentClient = (client: DynamoDBClient) =>
  DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });

export async function startDynamoDbTarget(): Promise<DynamoDbTarget> {
  return onAws ? startAwsTarget() : startLocalTarget();
}

async function startLocalTarget(): Promise<DynamoDbTarget> {
  const dataDir = await mkdtemp(join(tmpdir(), 'portal-conformance-dynamodb-'));
  let db;
  try {
    db = await startDynamoDb({ host: '127.0.0.1', port: 0, dataDir, region: REGION, credentials: LOCAL_CREDENTIALS });
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const local = db;
  let door: FrontDoor;
  try {
    door = await startFrontDoor({ rules: dynamodbRules, upstream: local.endpoint });
  } catch (error) {
    await local.close();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const raw = new DynamoDBClient({ endpoint: door.url, region: REGION, credentials: door.functions, maxAttempts: 1 });
  const operator = new DynamoDBClient({
    endpoint: door.url,
    region: REGION,
    credentials: door.administrator,
    maxAttempts: 1,
  });
  return {
    client: documentClient(raw),
    operator: documentClient(operator),
    tableName: localTableName,
    eventually: (check) => check(),
    async close() {
      raw.destroy();
      operator.destroy();
      await door.close();
      await local.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function startAwsTarget(): Promise<DynamoDbTarget> {
  const raw = recordResponses(new DynamoDBClient({ region: REGION }));
  const prefix = scratchName('portal');
  const names = new Map(tables.map((table) => [table.id, `${prefix}-${table.id}`]));
  const tableName = (table: TableDefinition): string => names.get(table.id)!;
  const created: string[] = [];

  const close = async () => {
    const failures: unknown[] = [];
    for (const name of created) {
      try {
        // A table still being created cannot be deleted yet.
        await waitUntilTableExists({ client: raw, maxWaitTime: TABLE_ACTIVE_WAIT_SECONDS }, { TableName: name });
        await raw.send(new DeleteTableCommand({ TableName: name }));
      } catch (error) {
        if ((error as Error).name !== 'ResourceNotFoundException') failures.push(error);
      }
    }
    raw.destroy();
    if (failures.length > 0) {
      throw new AggregateError(
        failures,
        `Could not delete every scratch table (${created.join(', ')}); delete the rest by hand`,
      );
    }
  };

  // Every creation settles before any failure is reported, so close() knows all the tables made.
  const results = await Promise.allSettled(
    tables.map(async (table) => {
      const name = tableName(table);
      await raw.send(new CreateTableCommand({ ...createTableInput(table), TableName: name }));
      created.push(name);
      await waitUntilTableExists({ client: raw, maxWaitTime: TABLE_ACTIVE_WAIT_SECONDS }, { TableName: name });
    }),
  );
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) {
    await close().catch(() => undefined);
    throw failed.reason;
  }

  const client = documentClient(raw);
  return {
    client,
    operator: client,
    tableName,
    async eventually(check) {
      const deadline = Date.now() + AWS_SETTLE_MS;
      for (;;) {
        try {
          return await check();
        } catch (error) {
          if (Date.now() >= deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        }
      }
    },
    close,
  };
}
