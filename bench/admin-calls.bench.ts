/**
 * Admin listings at 10,000 users: the AWS calls LIST_COGNITO_USERS_WITH_QUICKSIGHT_STATUS and
 * GET_USERS make, against the fewest the page sizes allow (Cognito ListUsers and
 * ListUsersInGroup 60 per page, QuickSight ListUsers 100 per page), and the handler time.
 * The services are served from memory with aws-sdk-client-mock, so only the handlers' own
 * work and call pattern are measured.
 */
import { randomUUID } from 'node:crypto';
import {
  AdminGetUserCommand,
  CognitoIdentityProviderClient,
  GetUserCommand,
  ListUsersCommand,
  ListUsersInGroupCommand,
  type UserType,
} from '@aws-sdk/client-cognito-identity-provider';
import { DescribeUserCommand, ListUsersCommand as ListQuickSightUsersCommand, QuickSightClient, type User } from '@aws-sdk/client-quicksight';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { BenchRow } from './types.ts';

const USERS = 10_000;
const ADMINS = 25;
const COGNITO_PAGE = 60;
const QUICKSIGHT_PAGE = 100;
const POOL_ID = 'us-east-2_BenchPool1';
const CLIENT_ID = 'benchclient0123456789';
const ACCOUNT_ID = '123456789012';

const emailOf = (index: number) => `user${String(index).padStart(5, '0')}@example.com`;
const cognitoUsers: UserType[] = Array.from({ length: USERS }, (_, index) => ({
  Username: randomUUID(),
  Attributes: [{ Name: 'email', Value: emailOf(index) }],
  Enabled: true,
  UserStatus: 'CONFIRMED',
  UserCreateDate: new Date('2025-01-01T00:00:00Z'),
}));
const quicksightUsers: User[] = cognitoUsers.map((_, index) => ({
  UserName: emailOf(index),
  Email: emailOf(index),
  Role: index < ADMINS ? 'ADMIN' : 'READER',
  Arn: `arn:aws:quicksight:us-east-2:${ACCOUNT_ID}:user/default/${emailOf(index)}`,
}));
const groups: Record<string, UserType[]> = { Admins: cognitoUsers.slice(0, ADMINS), Users: cognitoUsers.slice(ADMINS) };

/** A page of `items` after the offset in `token`, with the next token when more remain. */
const page = <T>(items: T[], size: number, token: string | undefined) => {
  const start = token === undefined ? 0 : Number(token);
  const next = start + size < items.length ? String(start + size) : undefined;
  return { items: items.slice(start, start + size), next };
};

const minimumPages = (count: number, size: number) => Math.max(1, Math.ceil(count / size));

const event = (token: string, action: string): APIGatewayProxyEventV2 => ({
  version: '2.0',
  routeKey: '$default',
  rawPath: '/',
  rawQueryString: '',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  requestContext: {
    accountId: 'anonymous',
    apiId: 'bench',
    domainName: 'bench',
    domainPrefix: 'bench',
    http: { method: 'POST', path: '/', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
    requestId: randomUUID(),
    routeKey: '$default',
    stage: '$default',
    time: '',
    timeEpoch: Date.now(),
  },
  body: JSON.stringify({ action }),
  isBase64Encoded: false,
});

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

export async function run(): Promise<BenchRow[]> {
  const keys = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'bench', alg: 'RS256', use: 'sig' };
  const admin = cognitoUsers[0]!;
  const token = await new SignJWT({ sub: admin.Username, username: admin.Username, 'cognito:groups': ['Admins'], client_id: CLIENT_ID, token_use: 'access' })
    .setProtectedHeader({ alg: 'RS256', kid: 'bench' })
    .setIssuer(`https://cognito-idp.us-east-2.amazonaws.com/${POOL_ID}`)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(keys.privateKey);

  const environment: Record<string, string> = {
    AWS_REGION: 'us-east-2',
    AWS_ACCESS_KEY_ID: 'bench',
    AWS_SECRET_ACCESS_KEY: 'bench',
    USER_POOL_ID: POOL_ID,
    USER_POOL_CLIENT_ID: CLIENT_ID,
    COGNITO_JWKS: JSON.stringify({ keys: [jwk] }),
    QUICKSIGHT_ACCOUNT_ID: ACCOUNT_ID,
    POWERTOOLS_LOG_LEVEL: 'SILENT',
  };
  const previous = Object.fromEntries(Object.keys(environment).map((name) => [name, process.env[name]]));
  Object.assign(process.env, environment);

  const cognito = mockClient(CognitoIdentityProviderClient);
  const quicksight = mockClient(QuickSightClient);
  try {
    cognito.on(GetUserCommand).resolves({ Username: admin.Username, UserAttributes: admin.Attributes });
    cognito.on(ListUsersCommand).callsFake((input: { Limit?: number; PaginationToken?: string }) => {
      const { items, next } = page(cognitoUsers, Math.min(input.Limit ?? COGNITO_PAGE, COGNITO_PAGE), input.PaginationToken);
      return { Users: items, PaginationToken: next };
    });
    cognito.on(ListUsersInGroupCommand).callsFake((input: { GroupName?: string; Limit?: number; NextToken?: string }) => {
      const { items, next } = page(groups[input.GroupName ?? ''] ?? [], Math.min(input.Limit ?? COGNITO_PAGE, COGNITO_PAGE), input.NextToken);
      return { Users: items, NextToken: next };
    });
    quicksight.on(ListQuickSightUsersCommand).callsFake((input: { MaxResults?: number; NextToken?: string }) => {
      const { items, next } = page(quicksightUsers, Math.min(input.MaxResults ?? QUICKSIGHT_PAGE, QUICKSIGHT_PAGE), input.NextToken);
      return { UserList: items, NextToken: next };
    });

    const handlers = {
      quicksightAdmin: (await import('../lambdas/quicksight-admin/handler.ts')).handler as unknown as Handler,
      userAdmin: (await import('../lambdas/user-admin/handler.ts')).handler as unknown as Handler,
    };
    const minimum = {
      listUsers: minimumPages(USERS, COGNITO_PAGE),
      listUsersInGroup: minimumPages(groups.Admins!.length, COGNITO_PAGE) + minimumPages(groups.Users!.length, COGNITO_PAGE),
      quicksightListUsers: minimumPages(USERS, QUICKSIGHT_PAGE),
    };

    const measure = async (area: string, handler: Handler, action: string, withQuickSight: boolean): Promise<BenchRow[]> => {
      cognito.resetHistory();
      quicksight.resetHistory();
      const started = performance.now();
      const result = await handler(event(token, action), { awsRequestId: randomUUID() } as Context);
      const elapsed = performance.now() - started;
      const listed = (JSON.parse(result.body ?? '{}') as { users?: unknown[] }).users?.length ?? 0;
      const perUserCalls =
        cognito.commandCalls(AdminGetUserCommand).length + quicksight.commandCalls(DescribeUserCommand).length;
      const row = (metric: string, value: number, target: number): BenchRow => ({ area, metric, value: String(value), target: `= ${target}`, ok: value === target });
      return [
        row('users listed', listed, USERS),
        row('Cognito ListUsers calls', cognito.commandCalls(ListUsersCommand).length, minimum.listUsers),
        row('Cognito ListUsersInGroup calls', cognito.commandCalls(ListUsersInGroupCommand).length, minimum.listUsersInGroup),
        ...(withQuickSight ? [row('QuickSight ListUsers calls', quicksight.commandCalls(ListQuickSightUsersCommand).length, minimum.quicksightListUsers)] : []),
        row('per-user calls', perUserCalls, 0),
        { area, metric: 'handler time', value: `${elapsed.toFixed(0)} ms` },
      ];
    };

    return [
      ...(await measure('admin LIST_COGNITO_USERS_WITH_QUICKSIGHT_STATUS (10k)', handlers.quicksightAdmin, 'LIST_COGNITO_USERS_WITH_QUICKSIGHT_STATUS', true)),
      ...(await measure('admin GET_USERS (10k)', handlers.userAdmin, 'GET_USERS', false)),
    ];
  } finally {
    cognito.restore();
    quicksight.restore();
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
