import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  type CreateTableCommandInput,
  type KeySchemaElement,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { tables, type KeyDefinition, type TableDefinition } from '#contracts/tables.ts';
import { localTableName } from '#clients/local-stack.ts';
import { closeServer, httpUrl, listen } from '#emulators/shared/http.ts';

function keySchema(partitionKey: KeyDefinition, sortKey?: KeyDefinition): KeySchemaElement[] {
  const schema: KeySchemaElement[] = [{ AttributeName: partitionKey.name, KeyType: 'HASH' }];
  if (sortKey) schema.push({ AttributeName: sortKey.name, KeyType: 'RANGE' });
  return schema;
}

/** CreateTable input with the keys and indexes of the CDK table (on demand, indexes project all). */
export function createTableInput(table: TableDefinition): CreateTableCommandInput {
  const keys = [
    table.partitionKey,
    table.sortKey,
    ...table.globalSecondaryIndexes.flatMap((i) => [i.partitionKey, i.sortKey]),
  ];
  const attributes = new Map<string, KeyDefinition>();
  for (const key of keys) if (key) attributes.set(key.name, key);
  return {
    TableName: localTableName(table),
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...attributes.values()].map((k) => ({ AttributeName: k.name, AttributeType: k.type })),
    KeySchema: keySchema(table.partitionKey, table.sortKey),
    ...(table.globalSecondaryIndexes.length > 0 && {
      GlobalSecondaryIndexes: table.globalSecondaryIndexes.map((index) => ({
        IndexName: index.indexName,
        KeySchema: keySchema(index.partitionKey, index.sortKey),
        Projection: { ProjectionType: 'ALL' },
      })),
    }),
  };
}

/** A comparable summary of keys and indexes, to notice tables made from older definitions. */
function shape(
  keys: readonly KeySchemaElement[] | undefined,
  indexes: readonly { IndexName?: string; KeySchema?: KeySchemaElement[] }[] = [],
): string {
  const key = (k: readonly KeySchemaElement[] | undefined) =>
    (k ?? []).map((e) => `${e.AttributeName}:${e.KeyType}`).join(',');
  const gsis = indexes.map((i) => `${i.IndexName}(${key(i.KeySchema)})`).sort();
  return `${key(keys)} ${gsis.join(' ')}`;
}

function assertSameShape(expected: CreateTableCommandInput, actual: TableDescription): void {
  const want = shape(expected.KeySchema, expected.GlobalSecondaryIndexes);
  const have = shape(actual.KeySchema, actual.GlobalSecondaryIndexes);
  if (want !== have) {
    throw new Error(
      `Table ${expected.TableName} in the data directory has keys/indexes "${have}" but contracts/tables.ts defines "${want}". ` +
        'Start with --reset to recreate the local data.',
    );
  }
}

/** Creates the tables missing from the database and checks the others still match their definitions. */
async function ensureTables(client: DynamoDBClient, definitions: readonly TableDefinition[] = tables): Promise<void> {
  const existing = new Set<string>();
  let start: string | undefined;
  do {
    const page = await client.send(new ListTablesCommand({ ExclusiveStartTableName: start }));
    for (const name of page.TableNames ?? []) existing.add(name);
    start = page.LastEvaluatedTableName;
  } while (start);

  for (const definition of definitions) {
    const input = createTableInput(definition);
    if (existing.has(input.TableName!)) {
      const { Table } = await client.send(new DescribeTableCommand({ TableName: input.TableName }));
      assertSameShape(input, Table!);
    } else {
      await client.send(new CreateTableCommand(input));
    }
  }
}

export interface LocalDynamoDb {
  readonly endpoint: string;
  readonly client: DynamoDBClient;
  close(): Promise<void>;
}

/** dynalite persisted under `<dataDir>/dynamodb`, with the product's tables ready. */
export async function startDynamoDb(options: {
  readonly host: string;
  readonly port: number;
  readonly dataDir: string;
  readonly region: string;
  /** The access key local mode signs its table set-up with (LOCAL_CREDENTIALS). */
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string };
}): Promise<LocalDynamoDb> {
  const path = join(options.dataDir, 'dynamodb');
  await mkdir(path, { recursive: true });
  // Tables become ACTIVE at once: nothing waits for them.
  const server = dynalite({ path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  const port = await listen(server, options.port, options.host);
  const endpoint = httpUrl(options.host, port);
  const client = new DynamoDBClient({ endpoint, region: options.region, credentials: options.credentials });
  try {
    await ensureTables(client);
  } catch (error) {
    client.destroy();
    await closeServer(server);
    throw error;
  }
  return {
    endpoint,
    client,
    async close() {
      client.destroy();
      await closeServer(server);
    },
  };
}
