import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * `<dataDir>/stack.json`: written once the local stack is ready, removed when it stops.
 * Tests, benches and tools read every endpoint and the demo accounts from it.
 */
export const STACK_FILE = 'stack.json';

/** `npm start` prints this, then the portal address, once the stack is ready. */
export const READY_LINE_PREFIX = 'Portal ready at ';

const url = z.url();
const credentialsSchema = z.object({ accessKeyId: z.string(), secretAccessKey: z.string() });
const demoAccountSchema = z.object({ email: z.string(), password: z.string(), totpSecret: z.string() });

export const stackInfoSchema = z.object({
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
