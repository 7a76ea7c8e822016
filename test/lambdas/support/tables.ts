import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';

/** Direct access to the tables the handlers use: reads for assertions, writes for set-up. */
export const tableReader = (endpoint: string) => {
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint,
      region: 'us-east-2',
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    }),
  );
  const scan = async (envVar: string) =>
    (await client.send(new ScanCommand({ TableName: process.env[envVar] }))).Items ?? [];
  return {
    scan,
    views: () => scan('VIEWS_TABLE'),
    dashboards: () => scan('DASHBOARDS_TABLE'),
    state: () => scan('STATE_TABLE'),
    audit: async () =>
      (
        await client.send(
          new QueryCommand({
            TableName: process.env.AUDIT_TABLE,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': 'AUDIT' },
            ScanIndexForward: false,
          }),
        )
      ).Items ?? [],
    put: async (envVar: string, item: Record<string, unknown>) => {
      await client.send(new PutCommand({ TableName: process.env[envVar], Item: item }));
    },
    close: () => client.destroy(),
  };
};
