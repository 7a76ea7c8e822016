import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { buildSchema, type GraphQLSchema } from 'graphql';

const SCHEMA_FILE = fileURLToPath(new URL('../../contracts/schema.graphql', import.meta.url));

/**
 * What AppSync defines before reading a schema: its scalars and its authorization
 * directives. The scalars pass values through as AppSync serializes them (strings for the
 * date and time types) - the product's schema uses them for outputs only.
 */
const APPSYNC_DEFINITIONS = `
scalar AWSDate
scalar AWSTime
scalar AWSDateTime
scalar AWSTimestamp
scalar AWSEmail
scalar AWSJSON
scalar AWSURL
scalar AWSPhone
scalar AWSIPAddress
directive @aws_cognito_user_pools(cognito_groups: [String]) on OBJECT | FIELD_DEFINITION
directive @aws_auth(cognito_groups: [String]) on FIELD_DEFINITION
directive @aws_api_key on OBJECT | FIELD_DEFINITION
directive @aws_iam on OBJECT | FIELD_DEFINITION
directive @aws_oidc on OBJECT | FIELD_DEFINITION
directive @aws_lambda on OBJECT | FIELD_DEFINITION
directive @aws_subscribe(mutations: [String]) on FIELD_DEFINITION
`;

export function appsyncSchema(sdl: string): GraphQLSchema {
  return buildSchema(`${APPSYNC_DEFINITIONS}\n${sdl}`);
}

/** The schema of contracts/schema.graphql as AppSync builds it. */
export async function loadProductSchema(file = SCHEMA_FILE): Promise<GraphQLSchema> {
  return appsyncSchema(await readFile(file, 'utf8'));
}
