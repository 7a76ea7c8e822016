import { randomUUID } from 'node:crypto';
import {
  AdminListGroupsForUserCommand,
  CognitoIdentityProviderClient,
  AdminGetUserCommand,
  GetUserCommand,
  ListUsersInGroupCommand,
  NotAuthorizedException,
  UserNotFoundException,
  type UserType,
} from '@aws-sdk/client-cognito-identity-provider';
import { QuickSightClient, type User, type UserRole } from '@aws-sdk/client-quicksight';
import { S3Client } from '@aws-sdk/client-s3';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { decodeJwt } from 'jose';
import { CLIENT_ID, POOL_ID, REGION, createSigner, type TestSigner, type TokenOptions } from './tokens.ts';
import { startTestDynamo, type TestDynamo } from './dynamo.ts';
import { tableReader } from './tables.ts';

export const ORIGIN = 'https://portal.example.com';
export const POOL_ID_FOR_TESTS = POOL_ID;
export const ACCOUNT_ID = '123456789012';
/** The company settings a deployment gives the functions (lib/company-access.ts). */
export const COMPANY_SETTINGS = {
  bucket: 'portal-company-rules',
  dataSourceId: 'portal-company-rules',
  dataSetId: 'portal-company-rules',
  roleArn: `arn:aws:iam::123456789012:role/portal-quicksight-rules`,
  groupPrefix: 'portal-company-',
} as const;

export interface TestAccount {
  username: string;
  email: string;
  groups: string[];
  /** Whether the account has an authenticator enabled (GET_MFA_STATUS). */
  mfa?: boolean;
}

export const account = (email: string, groups: string[], mfa = true): TestAccount => ({
  username: randomUUID(),
  email,
  groups,
  mfa,
});

export const ADMIN = account('admin@example.com', ['Admins']);
export const OTHER_ADMIN = account('second.admin@example.com', ['Admins']);
export const USER = account('user@example.com', ['Users']);
export const OTHER_USER = account('other.user@example.com', ['Users']);

/** A Cognito directory entry as ListUsers / ListUsersInGroup return it. */
export const directoryUser = (a: TestAccount, extra: Partial<UserType> = {}): UserType => ({
  Username: a.username,
  Attributes: [
    { Name: 'sub', Value: a.username },
    { Name: 'email', Value: a.email },
  ],
  Enabled: true,
  UserStatus: 'CONFIRMED',
  UserCreateDate: new Date('2025-01-02T03:04:05Z'),
  ...extra,
});

const mockCognito = () => mockClient(CognitoIdentityProviderClient);
const mockQuickSight = () => mockClient(QuickSightClient);
const mockS3 = () => mockClient(S3Client);
const mockSes = () => mockClient(SESv2Client);

/** The GraphQL resolver's handler, called with AppSync direct-resolver events. */
export type Resolver = (event: unknown, context: Context) => Promise<unknown>;

/**
 * Calls `observe` before each DynamoDB command the handlers send (they share one client);
 * throwing from it makes that call fail, as a step that breaks part-way.
 */
export const observeDynamoCommands = async (
  observe: (command: string, input: Record<string, unknown>) => void,
): Promise<void> => {
  const { dynamo } = await import('#lambdas/shared/aws/dynamo.ts');
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      observe(String(context.commandName), args.input as Record<string, unknown>);
      return next(args);
    },
    { step: 'initialize', name: `observe-${randomUUID()}` },
  );
};

/** A QuickSight user as DescribeUser / ListUsers return it. */
export const quicksightUser = (email: string, role: UserRole = 'READER'): User => ({
  UserName: email,
  Email: email,
  Role: role,
  IdentityType: 'QUICKSIGHT',
  Arn: `arn:aws:quicksight:us-east-2:${ACCOUNT_ID}:user/default/${email}`,
});

export type Handler = (event: never, context: Context) => Promise<unknown>;

/** Imports a function's handler; call after startHarness, as handlers read the environment on import. */
export const loadHandler = async (name: string): Promise<Handler> =>
  ((await import(`../../../lambdas/${name}/handler.ts`)) as { handler: Handler }).handler;

export interface CallOptions {
  token?: string;
  body?: unknown;
  /** Sent as is instead of JSON-encoding `body`. */
  rawBody?: string;
  method?: 'GET' | 'POST' | 'OPTIONS';
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Record<string, string | number | boolean>;
  body: Record<string, unknown>;
}

export const functionUrlEvent = ({
  token,
  body,
  rawBody,
  method = 'POST',
  headers = {},
}: CallOptions): APIGatewayProxyEventV2 => ({
  version: '2.0',
  routeKey: '$default',
  rawPath: '/',
  rawQueryString: '',
  headers: {
    'content-type': 'application/json',
    origin: ORIGIN,
    ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    ...headers,
  },
  requestContext: {
    accountId: 'anonymous',
    apiId: 'test',
    domainName: 'test.lambda-url.us-east-2.on.aws',
    domainPrefix: 'test',
    http: { method, path: '/', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
    requestId: randomUUID(),
    routeKey: '$default',
    stage: '$default',
    time: new Date().toISOString(),
    timeEpoch: Date.now(),
  },
  body: rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
  isBase64Encoded: false,
});

export const lambdaContext = (): Context =>
  ({ awsRequestId: randomUUID(), functionName: 'test', functionVersion: '$LATEST', memoryLimitInMB: '256' }) as Context;

export const invoke = async (handler: Handler, options: CallOptions): Promise<CallResult> => {
  const result = (await handler(
    functionUrlEvent(options) as never,
    lambdaContext(),
  )) as APIGatewayProxyStructuredResultV2;
  return {
    status: result.statusCode ?? 0,
    headers: (result.headers ?? {}) as CallResult['headers'],
    body: result.body ? (JSON.parse(result.body) as Record<string, unknown>) : {},
  };
};

/**
 * Everything a handler test needs: tokens signed by a key published through COGNITO_JWKS,
 * an in-memory DynamoDB with the product's tables, and mocked Cognito, QuickSight and SES
 * whose GetUser (the liveness check) and AdminListGroupsForUser (the live Admins check)
 * answer for the accounts registered here, with their current `groups`.
 */
export interface Harness {
  signer: TestSigner;
  dynamo: TestDynamo;
  /** Direct access to the tables, for set-up and assertions. */
  tables: ReturnType<typeof tableReader>;
  cognito: ReturnType<typeof mockCognito>;
  quicksight: ReturnType<typeof mockQuickSight>;
  ses: ReturnType<typeof mockSes>;
  /** The rules bucket of row-level security (lambdas/shared/companies/rules.ts). */
  s3: ReturnType<typeof mockS3>;
  /** Accounts whose sessions GetUser accepts. */
  accounts: Map<string, TestAccount>;
  token(account: TestAccount, options?: TokenOptions): Promise<string>;
  /** ListUsersInGroup of `group` answers these accounts (one page), as directoryUser lists them. */
  groupMembers(group: string, members: readonly TestAccount[]): void;
  /** Resets every mock and the accounts, with fresh tables: call before each test. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export const startHarness = async (extraEnv: Record<string, string> = {}): Promise<Harness> => {
  const signer = await createSigner();
  const dynamo = await startTestDynamo();
  Object.assign(process.env, {
    AWS_REGION: REGION,
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    USER_POOL_ID: POOL_ID,
    USER_POOL_CLIENT_ID: CLIENT_ID,
    COGNITO_JWKS: signer.jwks,
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    QUICKSIGHT_ACCOUNT_ID: ACCOUNT_ID,
    QUICKSIGHT_NAMESPACE: 'default',
    EMBED_SESSION_MINUTES: '60',
    ABSOLUTE_SESSION_MINUTES: '720',
    ALLOWED_ORIGINS: ORIGIN,
    SUPPORT_FROM_ADDRESS: 'no-reply@portal.example.com',
    SUPPORT_TO_ADDRESS: 'support@portal.example.com',
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    COMPANY_RULES_BUCKET: COMPANY_SETTINGS.bucket,
    COMPANY_RULES_DATA_SOURCE_ID: COMPANY_SETTINGS.dataSourceId,
    COMPANY_RULES_DATA_SET_ID: COMPANY_SETTINGS.dataSetId,
    COMPANY_RULES_ROLE_ARN: COMPANY_SETTINGS.roleArn,
    COMPANY_GROUP_PREFIX: COMPANY_SETTINGS.groupPrefix,
    ...extraEnv,
  });
  const cognito = mockCognito();
  const quicksight = mockQuickSight();
  const ses = mockSes();
  const s3 = mockS3();
  const accounts = new Map<string, TestAccount>();
  const tables = tableReader(dynamo.endpoint);

  /** The account as GetUser (and AdminGetUser) describe it: verified email, the MFA settings. */
  const profileOf = (known: TestAccount) => ({
    Username: known.username,
    UserAttributes: [
      { Name: 'sub', Value: known.username },
      { Name: 'email', Value: known.email },
      { Name: 'email_verified', Value: 'true' },
    ],
    UserMFASettingList: known.mfa ? ['SOFTWARE_TOKEN_MFA'] : [],
    PreferredMfaSetting: known.mfa ? 'SOFTWARE_TOKEN_MFA' : undefined,
  });

  const acceptSessions = () =>
    cognito.on(GetUserCommand).callsFake((input: { AccessToken?: string }) => {
      const username = String(decodeJwt(input.AccessToken ?? '').username);
      const known = accounts.get(username);
      if (known === undefined)
        throw new NotAuthorizedException({ message: 'Access Token has been revoked', $metadata: {} });
      return profileOf(known);
    });

  const answerGroups = () =>
    cognito.on(AdminListGroupsForUserCommand).callsFake((input: { Username?: string }) => {
      const known = accounts.get(input.Username ?? '');
      if (known === undefined) throw new UserNotFoundException({ message: 'User does not exist.', $metadata: {} });
      return { Groups: known.groups.map((GroupName) => ({ GroupName, UserPoolId: POOL_ID })) };
    });

  /** AdminGetUser of a registered account, as Cognito answers it while the account is enabled and confirmed. */
  const answerAdminLookup = (username: string) =>
    cognito.on(AdminGetUserCommand, { Username: username }).callsFake(() => {
      const known = accounts.get(username);
      if (known === undefined) throw new UserNotFoundException({ message: 'User does not exist.', $metadata: {} });
      return { ...profileOf(known), Enabled: true, UserStatus: 'CONFIRMED' };
    });

  const harness: Harness = {
    signer,
    dynamo,
    tables,
    cognito,
    quicksight,
    ses,
    s3,
    accounts,
    token: (a, options) => {
      accounts.set(a.username, a);
      // A refreshed token cannot be shown to GetUser: the functions ask AdminGetUser instead.
      if (options?.refreshed) answerAdminLookup(a.username);
      return signer.accessToken(a, options);
    },
    groupMembers(group, members) {
      cognito
        .on(ListUsersInGroupCommand, { GroupName: group })
        .resolves({ Users: members.map((m) => directoryUser(m)) });
    },
    async reset() {
      cognito.reset();
      quicksight.reset();
      ses.reset();
      s3.reset();
      accounts.clear();
      acceptSessions();
      answerGroups();
      await dynamo.freshTables();
    },
    async close() {
      cognito.restore();
      quicksight.restore();
      ses.restore();
      s3.restore();
      tables.close();
      await dynamo.close();
    },
  };
  await harness.reset();
  return harness;
};
