/**
 * Bulk onboarding: the AWS calls one IMPORT_USER row makes (a new account, and the same row
 * again, which changes nothing), counted by API against the real handler with Cognito and
 * QuickSight mocked and DynamoDB served by dynalite, as bench/journey-calls.bench.ts counts;
 * and the time a 500-row import takes in local mode (every function, emulator and IAM gate
 * running), sent as the Import Users dialog sends it: one request per row, three at a time.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminGetUserCommand,
  ListUsersInGroupCommand,
  UserNotFoundException,
  UsernameExistsException,
} from '@aws-sdk/client-cognito-identity-provider';
import {
  CreateGroupMembershipCommand,
  DescribeUserCommand,
  RegisterUserCommand,
  ResourceNotFoundException,
  UpdateDashboardPermissionsCommand,
} from '@aws-sdk/client-quicksight';
import { MAX_IMPORT_ROWS } from '#contracts/user-import.ts';
import { findFreePortBase } from '#local/ports.ts';
import { SAMPLE_DASHBOARDS } from '#emulators/quicksight/index.ts';
import { spawnStack } from '#local/stack-process.ts';
import { seedCompany } from '#test/lambdas/support/companies.ts';
import {
  ADMIN,
  directoryUser,
  invoke,
  loadHandler,
  observeDynamoCommands,
  quicksightUser,
  startHarness,
} from '#test/lambdas/support/harness.ts';
import { signInToStack } from './sign-in.ts';
import type { BenchOptions, BenchRow } from './types.ts';
import { commandNames, tally } from './calls.ts';

const AREA = 'bulk import';
const PARALLEL_ROWS = 3;
const DASHBOARDS = [SAMPLE_DASHBOARDS[0]!.dashboardId, SAMPLE_DASHBOARDS[1]!.dashboardId];
/** A company local mode seeds: each row joins its QuickSight group. */
const COMPANY = 'Northwind Manufacturing';

const row = (userEmail: string) => ({
  action: 'IMPORT_USER',
  userEmail,
  companyName: COMPANY,
  dashboards: DASHBOARDS,
  defaultDashboard: DASHBOARDS[1],
  role: 'Users',
});

/** Calls per row, against the handler with the services mocked. */
async function callsPerRow(): Promise<BenchRow[]> {
  const h = await startHarness({ POWERTOOLS_LOG_LEVEL: 'SILENT' });
  try {
    const { liveSessions } = await import('#lambdas/shared/auth/caller.ts');
    const dynamoCalls: string[] = [];
    await observeDynamoCommands((command) => dynamoCalls.push(`DynamoDB ${command.replace(/Command$/, '')}`));
    const handler = await loadHandler('quicksight-admin');
    const accounts = new Set<string>();
    const registered = new Set<string>();
    h.cognito.on(ListUsersInGroupCommand, { GroupName: 'Admins' }).resolves({ Users: [directoryUser(ADMIN)] });
    h.cognito.on(AdminGetUserCommand).callsFake((input: { Username: string }) => {
      if (!accounts.has(input.Username))
        throw new UserNotFoundException({ message: 'User does not exist.', $metadata: {} });
      return { Username: input.Username, UserStatus: 'FORCE_CHANGE_PASSWORD' };
    });
    h.cognito.on(AdminCreateUserCommand).callsFake((input: { Username: string; MessageAction?: string }) => {
      if (input.MessageAction !== 'RESEND' && accounts.has(input.Username))
        throw new UsernameExistsException({ message: 'exists', $metadata: {} });
      accounts.add(input.Username);
      return { User: { Username: input.Username } };
    });
    h.cognito.on(AdminAddUserToGroupCommand).resolves({});
    h.quicksight.on(DescribeUserCommand).callsFake((input: { UserName: string }) => {
      if (!registered.has(input.UserName)) throw new ResourceNotFoundException({ message: 'not found', $metadata: {} });
      return { User: quicksightUser(input.UserName) };
    });
    h.quicksight.on(RegisterUserCommand).callsFake((input: { UserName: string }) => {
      registered.add(input.UserName);
      return { User: quicksightUser(input.UserName) };
    });
    h.quicksight.on(UpdateDashboardPermissionsCommand).resolves({});
    h.quicksight.on(CreateGroupMembershipCommand).resolves({});
    await seedCompany(h, 'northwind', COMPANY);
    for (const [index, dashboardId] of DASHBOARDS.entries()) {
      await h.tables.put('DASHBOARDS_TABLE', {
        id: `record-${index}`,
        dashboardId,
        dashboardName: dashboardId,
        dashboardLink: `https://bi.example.com/${dashboardId}`,
        isActive: true,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      });
    }
    const token = await h.token(ADMIN);
    const measure = async (label: string, expected: string): Promise<BenchRow> => {
      h.cognito.resetHistory();
      h.quicksight.resetHistory();
      dynamoCalls.length = 0;
      liveSessions.clear();
      const answer = await invoke(handler, { token, body: row('bench.row@example.com') });
      const calls = [
        ...commandNames(h.cognito, 'Cognito '),
        ...commandNames(h.quicksight, 'QuickSight '),
        ...dynamoCalls,
      ];
      const outcome = String(answer.body.outcome ?? `${answer.status} ${String(answer.body.error ?? '')}`);
      return {
        area: AREA,
        metric: `AWS calls per row, ${label} (2 dashboards)`,
        value: `outcome ${outcome}, ${calls.length} calls: ${tally(calls)}`,
        target: `outcome ${expected}`,
        ok: outcome === expected,
        kind: 'count',
      };
    };
    return [await measure('new account', 'created'), await measure('same row again', 'exists')];
  } finally {
    await h.close();
  }
}

/** Sends every row, `PARALLEL_ROWS` at a time; answers the outcomes by count. */
async function importRows(url: string, token: string, emails: readonly string[]): Promise<Map<string, number>> {
  const outcomes = new Map<string, number>();
  const queue = [...emails];
  const worker = async () => {
    for (let email = queue.shift(); email !== undefined; email = queue.shift()) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(row(email)),
      });
      const body = (await response.json()) as { outcome?: string; error?: string };
      const outcome = body.outcome ?? `${response.status} ${body.error ?? ''}`;
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_ROWS }, worker));
  return outcomes;
}

const describeOutcomes = (outcomes: Map<string, number>) =>
  [...outcomes].map(([outcome, count]) => `${count} ${outcome}`).join(', ');

/** A 500-row import (`rows`) and the same file again, in local mode. */
async function localImport(rows: number): Promise<BenchRow[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bulk-import-bench-'));
  const stack = await spawnStack({ dataDir, portBase: await findFreePortBase() });
  const readyAt = Date.now();
  try {
    const { accessToken } = await signInToStack(stack.info, stack.info.demo.admin, readyAt);
    const emails = Array.from({ length: rows }, (_, index) => `bulk${String(index).padStart(3, '0')}@example.com`);
    const url = stack.info.functions.quicksightAdmin;
    let started = Date.now();
    const first = await importRows(url, accessToken, emails);
    const firstMs = Date.now() - started;
    started = Date.now();
    const again = await importRows(url, accessToken, emails);
    const againMs = Date.now() - started;
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s (${Math.round(ms / emails.length)} ms per row)`;
    return [
      {
        area: AREA,
        metric: `${rows} rows in local mode, ${PARALLEL_ROWS} at a time: ${describeOutcomes(first)}`,
        value: seconds(firstMs),
        target: `${rows} created`,
        ok: first.get('created') === rows,
        kind: 'count',
      },
      {
        area: AREA,
        metric: `the same file again: ${describeOutcomes(again)}`,
        value: seconds(againMs),
        target: `${rows} exists`,
        ok: again.get('exists') === rows,
        kind: 'count',
      },
    ];
  } finally {
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Rows a smoke run imports in local mode instead of the full file. */
const SMOKE_ROWS = 12;

export async function run(options: BenchOptions = { smoke: false }): Promise<BenchRow[]> {
  // Side by side: the calls are counted (in this process, against mocks) while the stack starts
  // and the sign-in waits for a fresh authenticator step, well before the import is timed.
  const [calls, local] = await Promise.all([callsPerRow(), localImport(options.smoke ? SMOKE_ROWS : MAX_IMPORT_ROWS)]);
  return [...calls, ...local];
}
