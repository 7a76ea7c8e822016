/**
 * The floor of bench/first-request.bench.ts: a function whose whole work is one AWS call, a
 * DynamoDB GetItem through the AWS SDK v3 (as every portal function that reads or writes a table
 * makes), with nothing else: no middleware, no token check, no validation, no logger. It is
 * bundled as the handlers are (lib/bundling/handler-bundle.ts) and timed as they are; its cold
 * overhead is what any function that calls AWS once pays, whatever else it loads less of.
 */
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';

const client = new DynamoDBClient({
  region: process.env.AWS_REGION,
  endpoint: process.env.DYNAMODB_ENDPOINT,
  retryMode: 'standard',
  maxAttempts: 3,
});

/** Reads one key of the State table that no item has: the answer is the same every time. */
export const handler = async (): Promise<{ found: boolean }> => {
  const answer = await client.send(
    new GetItemCommand({
      TableName: process.env.STATE_TABLE,
      Key: { pk: { S: 'BENCH#one-call' }, sk: { S: 'BENCH#one-call' } },
    }),
  );
  return { found: answer.Item !== undefined };
};
