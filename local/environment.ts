import { ENV } from '../contracts/env.ts';
import { tables } from '../contracts/tables.ts';
import { localTableName } from './dynamodb.ts';

/** Local mode's AWS account: any credentials do, the emulators do not check signatures. */
export const LOCAL_ACCOUNT_ID = '000000000000';
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;
export type LocalCredentials = typeof LOCAL_CREDENTIALS;

export const LOCAL_PRODUCT_NAME = 'TVIQ';
/** The sign-in page's 'Back to the marketing site' link; a reserved documentation domain locally. */
export const LOCAL_MARKETING_SITE_URL = 'https://example.com/';
export const QUICKSIGHT_NAMESPACE = 'default';
export const EMBED_SESSION_MINUTES = 600;
export const SUPPORT_FROM_ADDRESS = 'no-reply@tviq.local';
export const SUPPORT_TO_ADDRESS = 'support@tviq.local';

export interface HandlerEnvironmentInput {
  readonly region: string;
  readonly webUrl: string;
  readonly cognito: { readonly endpoint: string; readonly userPoolId: string; readonly clientId: string; readonly jwks: object };
  readonly dynamodbEndpoint: string;
  readonly quicksightEndpoint: string;
  readonly sesEndpoint: string;
}

/**
 * What the CDK functions construct sets for each function in AWS, with the local
 * endpoints and fake credentials. Every handler gets the same set: in AWS each gets the
 * subset it needs, and none reads a variable it was not meant to have.
 */
export function handlerEnvironment(input: HandlerEnvironmentInput): Record<string, string> {
  const env: Record<string, string> = {
    AWS_REGION: input.region,
    AWS_DEFAULT_REGION: input.region,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    // Handlers must never reach a real AWS endpoint or profile from local mode.
    AWS_EC2_METADATA_DISABLED: 'true',
    [ENV.userPoolId]: input.cognito.userPoolId,
    [ENV.userPoolClientId]: input.cognito.clientId,
    [ENV.cognitoEndpoint]: input.cognito.endpoint,
    [ENV.cognitoJwks]: JSON.stringify(input.cognito.jwks),
    [ENV.dynamodbEndpoint]: input.dynamodbEndpoint,
    [ENV.quicksightAccountId]: LOCAL_ACCOUNT_ID,
    [ENV.quicksightNamespace]: QUICKSIGHT_NAMESPACE,
    [ENV.quicksightIdentityRegion]: input.region,
    [ENV.quicksightEndpoint]: input.quicksightEndpoint,
    [ENV.embedSessionMinutes]: String(EMBED_SESSION_MINUTES),
    [ENV.allowedOrigins]: input.webUrl,
    [ENV.sesEndpoint]: input.sesEndpoint,
    [ENV.supportFromAddress]: SUPPORT_FROM_ADDRESS,
    [ENV.supportToAddress]: SUPPORT_TO_ADDRESS,
    [ENV.logLevel]: 'WARN',
  };
  for (const table of tables) env[table.envVar] = localTableName(table);
  return env;
}
