import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { TableDefinition } from '#contracts/tables.ts';

// The local stack as the harness runs it and as its clients (tools, tests, benches, the
// seeding) reach it: where it keeps its state, the stack.json it publishes once ready, and
// the account, credentials, table names and configuration it runs with.

/** Where `npm start` keeps its state unless told otherwise. */
export const DEFAULT_DATA_DIR = '.local';

/**
 * `<dataDir>/stack.json`: written once the local stack is ready, removed when it stops.
 * Tests, benches and tools read every endpoint and the demo accounts from it.
 */
const STACK_FILE = 'stack.json';

/** `npm start` prints this, then the portal address, once the stack is ready. */
export const READY_LINE_PREFIX = 'Portal ready at ';

const url = z.url();
const credentialsSchema = z.object({ accessKeyId: z.string(), secretAccessKey: z.string() });
const demoAccountSchema = z.object({ email: z.string(), password: z.string(), totpSecret: z.string() });

const stackInfoSchema = z.object({
  webUrl: url,
  region: z.string(),
  cognito: z.object({ endpoint: url, userPoolId: z.string(), clientId: z.string(), jwksUrl: url }),
  graphqlUrl: url,
  functions: z.object({ embed: url, quicksightAdmin: url, userAdmin: url, mfa: url, contact: url }),
  quicksight: z.object({ endpoint: url, accountId: z.string(), namespace: z.string(), embedPagesUrl: url }),
  dynamodb: z.object({ endpoint: url }),
  mail: z.object({ inboxUrl: url, apiUrl: url }),
  demo: z.object({ admin: demoAccountSchema, user: demoAccountSchema, owner: demoAccountSchema }),
  /** What each function signs its AWS calls with, so a test can act as that function (and be held to its policy). */
  functionCredentials: z.object({
    embed: credentialsSchema,
    quicksightAdmin: credentialsSchema,
    userAdmin: credentialsSchema,
    mfa: credentialsSchema,
    contact: credentialsSchema,
    graphql: credentialsSchema,
    postConfirmation: credentialsSchema,
    preTokenGeneration: credentialsSchema,
  }),
});
export type StackInfo = z.infer<typeof stackInfoSchema>;
export type DemoAccount = z.infer<typeof demoAccountSchema>;

export function stackFilePath(dataDir: string): string {
  return join(dataDir, STACK_FILE);
}

/**
 * The self-signed certificate local QuickSight serves its embed pages with
 * (local/data-dir.ts's quicksight directory, tls/cert.pem): a client that loads the pages
 * trusts this one certificate instead of switching verification off.
 */
export function embedCertificatePath(dataDir: string): string {
  return join(dataDir, 'quicksight', 'tls', 'cert.pem');
}

/** The stack.json of a running stack, or undefined while it is absent. */
export async function readStackInfo(dataDir: string): Promise<StackInfo | undefined> {
  let text: string;
  try {
    text = await readFile(stackFilePath(dataDir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return stackInfoSchema.parse(JSON.parse(text));
}

/** Local mode's account and region (the CDK app's default region). */
export const LOCAL_ACCOUNT_ID = '000000000000';
export const LOCAL_REGION = 'us-east-2';
/**
 * The local account's administrator: what local mode itself (table creation, seeding,
 * Cognito's mail) and tests acting as the platform sign with. Each function signs with
 * credentials of its own and is held to its policy.
 */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;

export const LOCAL_PRODUCT_NAME = 'TVIQ';
export const QUICKSIGHT_NAMESPACE = 'default';
const EMBED_SESSION_MINUTES = 600;
export const SUPPORT_FROM_ADDRESS = 'no-reply@tviq.local';
export const SUPPORT_TO_ADDRESS = 'support@tviq.local';
/**
 * The QuickSight group standing for the account's authors in local mode: local mode creates it
 * at start, and the rules data source and dataset are granted to it (quicksightAuthorArn).
 */
export const LOCAL_AUTHORS_GROUP = 'portal-authors';
const LOCAL_AUTHORS_ARN = `arn:aws:quicksight:${LOCAL_REGION}:${LOCAL_ACCOUNT_ID}:group/${QUICKSIGHT_NAMESPACE}/${LOCAL_AUTHORS_GROUP}`;

const LOCAL_TABLE_PREFIX = 'local-';

/** The table name local mode gives a definition (`local-Views`, ...). */
export function localTableName(table: TableDefinition): string {
  return `${LOCAL_TABLE_PREFIX}${table.id}`;
}

/** The deployment configuration local mode stands for: the defaults plus its own addresses. */
export const LOCAL_CONTEXT = {
  productName: LOCAL_PRODUCT_NAME,
  region: LOCAL_REGION,
  quicksightAccountId: LOCAL_ACCOUNT_ID,
  quicksightNamespace: QUICKSIGHT_NAMESPACE,
  sesSenderAddress: SUPPORT_FROM_ADDRESS,
  supportRecipientAddress: SUPPORT_TO_ADDRESS,
  quicksightAuthorArn: LOCAL_AUTHORS_ARN,
  embedSessionMinutes: EMBED_SESSION_MINUTES,
  selfSignUp: true,
  // On here (off by default for deployments) so that remembering a device can be tried.
  rememberDevices: true,
} as const;
