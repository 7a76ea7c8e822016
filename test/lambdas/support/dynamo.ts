import type { AddressInfo } from 'node:net';
import { CreateTableCommand, DynamoDBClient, type KeySchemaElement } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { type KeyDefinition, tables } from '#contracts/tables.ts';

export interface TestDynamo {
  readonly endpoint: string;
  /** Creates a fresh set of the product's tables and points the handlers' env vars at them. */
  freshTables(): Promise<void>;
  close(): Promise<void>;
}

const keySchema = (partition: KeyDefinition, sort?: KeyDefinition): KeySchemaElement[] => [
  { AttributeName: partition.name, KeyType: 'HASH' },
  ...(sort ? [{ AttributeName: sort.name, KeyType: 'RANGE' as const }] : []),
];

/** An in-memory dynalite on a free loopback port, with the tables of contracts/tables.ts. */
export const startTestDynamo = async (): Promise<TestDynamo> => {
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-2',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  let generation = 0;
  return {
    endpoint,
    async freshTables() {
      generation += 1;
      for (const table of tables) {
        const name = `${table.id}-${generation}`;
        const keys = [
          table.partitionKey,
          table.sortKey,
          ...table.globalSecondaryIndexes.flatMap((index) => [index.partitionKey, index.sortKey]),
        ];
        const attributes = new Map(keys.filter((key) => key !== undefined).map((key) => [key.name, key.type]));
        await client.send(
          new CreateTableCommand({
            TableName: name,
            BillingMode: 'PAY_PER_REQUEST',
            AttributeDefinitions: [...attributes].map(([AttributeName, AttributeType]) => ({
              AttributeName,
              AttributeType,
            })),
            KeySchema: keySchema(table.partitionKey, table.sortKey),
            GlobalSecondaryIndexes:
              table.globalSecondaryIndexes.length === 0
                ? undefined
                : table.globalSecondaryIndexes.map((index) => ({
                    IndexName: index.indexName,
                    KeySchema: keySchema(index.partitionKey, index.sortKey),
                    Projection: { ProjectionType: 'ALL' },
                  })),
          }),
        );
        process.env[table.envVar] = name;
      }
    },
    async close() {
      client.destroy();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
};
