import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ENV } from '#contracts/env.ts';
import { clientConfig } from './config.ts';

export const dynamo = DynamoDBDocumentClient.from(new DynamoDBClient(clientConfig(ENV.dynamodbEndpoint)), {
  marshallOptions: { removeUndefinedValues: true },
});
