/**
 * Admin listings at 10,000 users (100 with `smoke`): the AWS calls
 * LIST_COGNITO_USERS_WITH_QUICKSIGHT_STATUS and GET_USERS make, against the fewest the page
 * sizes allow (Cognito ListUsers and ListUsersInGroup 60 per page, QuickSight ListUsers 100
 * per page), and the handler time: first a full listing (`fullListing`, the pages' Refresh),
 * which writes the portal's copy of the directory, then both reads from that copy, which ask
 * Cognito only for the Admins group and the accounts in each transitional status (none here). Cognito and QuickSight
 * are served from memory with
 * aws-sdk-client-mock and DynamoDB by dynalite (test/lambdas/support/harness.ts, which also
 * answers the caller's session and live Admins checks), so only the handlers' own work and
 * call pattern are measured.
 */
import { randomUUID } from 'node:crypto';
import {
  AdminGetUserCommand,
  ListUsersCommand,
  ListUsersInGroupCommand,
  type UserType,
} from '@aws-sdk/client-cognito-identity-provider';
import {
  DescribeUserCommand,
  ListUsersCommand as ListQuickSightUsersCommand,
  type User,
} from '@aws-sdk/client-quicksight';
import {
  ACCOUNT_ID,
  type Handler,
  invoke,
  loadHandler,
  observeDynamoCommands,
  startHarness,
} from '#test/lambdas/support/harness.ts';
import type { BenchOptions, BenchRow } from './types.ts';
import { tally } from './calls.ts';

const USERS = 10_000;
const SMOKE_USERS = 100;
const ADMINS = 25;
const COGNITO_PAGE = 60;
const QUICKSIGHT_PAGE = 100;

const emailOf = (index: number) => `user${String(index).padStart(5, '0')}@example.com`;

/** The directory and QuickSight users of `users` accounts, the first `ADMINS` of them admins. */
const directory = (users: number) => {
  const cognitoUsers: UserType[] = Array.from({ length: users }, (_, index) => ({
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
  const groups: Record<string, UserType[]> = {
    Admins: cognitoUsers.slice(0, ADMINS),
    Users: cognitoUsers.slice(ADMINS),
  };
  return { cognitoUsers, quicksightUsers, groups };
};

/** A page of `items` after the offset in `token`, with the next token when more remain. */
const page = <T>(items: T[], size: number, token: string | undefined) => {
  const start = token === undefined ? 0 : Number(token);
  const next = start + size < items.length ? String(start + size) : undefined;
  return { items: items.slice(start, start + size), next };
};

const minimumPages = (count: number, size: number) => Math.max(1, Math.ceil(count / size));

export async function run(options: BenchOptions = { smoke: false }): Promise<BenchRow[]> {
  const users = options.smoke ? SMOKE_USERS : USERS;
  const scale = users >= 1000 ? `${users / 1000}k` : String(users);
  const { cognitoUsers, quicksightUsers, groups } = directory(users);
  // Tokens, the caller's session and live Admins checks, and the tables, as the handler tests have them.
  const h = await startHarness({ POWERTOOLS_LOG_LEVEL: 'SILENT' });
  try {
    const dynamoCalls: string[] = [];
    await observeDynamoCommands((command) => dynamoCalls.push(command.replace(/Command$/, '')));
    const first = cognitoUsers[0]!;
    const token = await h.token({ username: first.Username!, email: emailOf(0), groups: ['Admins'] });
    // A `cognito:user_status = "..."` filter lists the accounts in that status, as ListUsers does.
    h.cognito.on(ListUsersCommand).callsFake((input: { Limit?: number; PaginationToken?: string; Filter?: string }) => {
      const status = /^cognito:user_status = "(\w+)"$/.exec(input.Filter ?? '')?.[1];
      const matching = status === undefined ? cognitoUsers : cognitoUsers.filter((user) => user.UserStatus === status);
      const { items, next } = page(
        matching,
        Math.min(input.Limit ?? COGNITO_PAGE, COGNITO_PAGE),
        input.PaginationToken,
      );
      return { Users: items, PaginationToken: next };
    });
    h.cognito
      .on(ListUsersInGroupCommand)
      .callsFake((input: { GroupName?: string; Limit?: number; NextToken?: string }) => {
        const { items, next } = page(
          groups[input.GroupName ?? ''] ?? [],
          Math.min(input.Limit ?? COGNITO_PAGE, COGNITO_PAGE),
          input.NextToken,
        );
        return { Users: items, NextToken: next };
      });
    h.quicksight.on(ListQuickSightUsersCommand).callsFake((input: { MaxResults?: number; NextToken?: string }) => {
      const { items, next } = page(
        quicksightUsers,
        Math.min(input.MaxResults ?? QUICKSIGHT_PAGE, QUICKSIGHT_PAGE),
        input.NextToken,
      );
      return { UserList: items, NextToken: next };
    });

    const handlers = {
      quicksightAdmin: await loadHandler('quicksight-admin'),
      userAdmin: await loadHandler('user-admin'),
    };
    const fullListing = {
      listUsers: minimumPages(users, COGNITO_PAGE),
      listUsersInGroup:
        minimumPages(groups.Admins!.length, COGNITO_PAGE) + minimumPages(groups.Users!.length, COGNITO_PAGE),
    };
    // From the copy: one ListUsers per transitional status (FORCE_CHANGE_PASSWORD, RESET_REQUIRED,
    // UNCONFIRMED; empty here) and the Admins group.
    const fromCopy = { listUsers: 3, listUsersInGroup: minimumPages(groups.Admins!.length, COGNITO_PAGE) };
    const quicksightListUsers = minimumPages(users, QUICKSIGHT_PAGE);

    const measure = async (
      area: string,
      handler: Handler,
      body: Record<string, unknown>,
      minimum: { listUsers: number; listUsersInGroup: number },
      withQuickSight: boolean,
    ): Promise<BenchRow[]> => {
      h.cognito.resetHistory();
      h.quicksight.resetHistory();
      dynamoCalls.length = 0;
      const started = performance.now();
      const result = await invoke(handler, { token, body });
      const action = String(body.action);
      const elapsed = performance.now() - started;
      if (result.status !== 200) throw new Error(`${action} answered ${result.status}: ${JSON.stringify(result.body)}`);
      const listed = (result.body.users as unknown[] | undefined)?.length ?? 0;
      const perUserCalls =
        h.cognito.commandCalls(AdminGetUserCommand).length + h.quicksight.commandCalls(DescribeUserCommand).length;
      const row = (metric: string, value: number, target: number): BenchRow => ({
        area,
        metric,
        value: String(value),
        target: `= ${target}`,
        ok: value === target,
        kind: 'count',
      });
      return [
        row('users listed', listed, users),
        row('Cognito ListUsers calls', h.cognito.commandCalls(ListUsersCommand).length, minimum.listUsers),
        row(
          'Cognito ListUsersInGroup calls',
          h.cognito.commandCalls(ListUsersInGroupCommand).length,
          minimum.listUsersInGroup,
        ),
        ...(withQuickSight
          ? [
              row(
                'QuickSight ListUsers calls',
                h.quicksight.commandCalls(ListQuickSightUsersCommand).length,
                quicksightListUsers,
              ),
            ]
          : []),
        row('per-user calls', perUserCalls, 0),
        { area, metric: 'DynamoDB calls', value: tally(dynamoCalls) },
        { area, metric: 'handler time', value: `${elapsed.toFixed(0)} ms` },
      ];
    };

    const listWithQuickSight = { action: 'LIST_COGNITO_USERS_WITH_QUICKSIGHT_STATUS' };
    return [
      ...(await measure(
        `admin LIST_COGNITO_USERS_WITH_QUICKSIGHT_STATUS, full listing (${scale})`,
        handlers.quicksightAdmin,
        { ...listWithQuickSight, fullListing: true },
        fullListing,
        true,
      )),
      ...(await measure(
        `admin LIST_COGNITO_USERS_WITH_QUICKSIGHT_STATUS, from the copy (${scale})`,
        handlers.quicksightAdmin,
        listWithQuickSight,
        fromCopy,
        true,
      )),
      ...(await measure(
        `admin GET_USERS, from the copy (${scale})`,
        handlers.userAdmin,
        { action: 'GET_USERS' },
        fromCopy,
        false,
      )),
    ];
  } finally {
    await h.close();
  }
}
