import { CognitoIdentityProviderClient, ListUsersCommand } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import {
  DeleteGroupCommand,
  ListUsersCommand as ListQuickSightUsersCommand,
  QuickSightClient,
} from '@aws-sdk/client-quicksight';
import { accessCheckSchema, listCompaniesResponseSchema } from '#contracts/companies.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  listDashboardMetadataResponseSchema,
  userDashboardsResponseSchema,
  type DashboardMetadata,
} from '#contracts/quicksight-admin.ts';
import { auditTable, usageTable } from '#contracts/tables.ts';
import { localTableName, LOCAL_CREDENTIALS } from '#clients/local-stack.ts';
import { capturedMailListSchema } from '#emulators/ses/messages.ts';
import { resolveTarget, type PortalTarget } from '#tools/support/target.ts';
import { VERIFY_PREFIX, verifyDeployment } from '#tools/support/verify-steps.ts';
import { signInWithSrp } from '../e2e/support/cognito-session.ts';
import { runTool, sharedTestStack, type TestStack } from './support/run-tool.ts';

/** A sample dashboard of the emulator whose catalogue entry the tests remove, so the tool makes a temporary one. */
const UNCATALOGUED = 'inventory-margins';

describe('npm run verify-deployment', () => {
  let stack: TestStack;
  let adminToken: string;
  /** The catalogue entry the file removes, put back when it ends. */
  let removed: DashboardMetadata | undefined;

  const quicksightAdmin = async (body: unknown) => {
    const response = await fetch(stack.info.functions.quicksightAdmin, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    return response.json();
  };
  const catalogue = async () =>
    listDashboardMetadataResponseSchema.parse(await quicksightAdmin({ action: 'LIST_DASHBOARD_METADATA' })).dashboards;

  /** Every trace a verification could leave: accounts, QuickSight users, views, catalogue entries. */
  async function leftovers(runEmails: readonly string[]): Promise<string[]> {
    const { info } = stack;
    const local = { region: info.region, credentials: LOCAL_CREDENTIALS };
    const cognito = new CognitoIdentityProviderClient({ ...local, endpoint: info.cognito.endpoint });
    const quicksight = new QuickSightClient({ ...local, endpoint: info.quicksight.endpoint });
    try {
      const found: string[] = [];
      const accounts = (await cognito.send(new ListUsersCommand({ UserPoolId: info.cognito.userPoolId }))).Users ?? [];
      for (const user of accounts) {
        const email = user.Attributes?.find((a) => a.Name === 'email')?.Value ?? '';
        if (email.startsWith(VERIFY_PREFIX)) found.push(`Cognito account ${email}`);
      }
      const qsUsers =
        (
          await quicksight.send(
            new ListQuickSightUsersCommand({ AwsAccountId: info.quicksight.accountId, Namespace: 'default' }),
          )
        ).UserList ?? [];
      for (const user of qsUsers)
        if (user.Email?.startsWith(VERIFY_PREFIX)) found.push(`QuickSight user ${user.Email}`);
      for (const entry of await catalogue()) {
        if (entry.dashboardName.startsWith(VERIFY_PREFIX) || entry.dashboardId === UNCATALOGUED)
          found.push(`catalogue entry ${entry.dashboardId}`);
      }
      for (const email of runEmails) {
        const { dashboards } = userDashboardsResponseSchema.parse(
          await quicksightAdmin({ action: 'GET_USER_DASHBOARDS', userEmail: email }),
        );
        for (const dashboard of dashboards) found.push(`view of ${email} on ${dashboard.quicksightDashboardId}`);
      }
      return found;
    } finally {
      cognito.destroy();
      quicksight.destroy();
    }
  }

  /** The temporary accounts of a run, from its first line. */
  const runEmails = (output: string) => {
    const id = new RegExp(`${VERIFY_PREFIX}([\\w-]+)-\\*`).exec(output)?.[1];
    expect(id).toBeDefined();
    return [`${VERIFY_PREFIX}${id}-admin@example.com`, `${VERIFY_PREFIX}${id}-user@example.com`];
  };

  /** The local tables, read as the functions wrote them. */
  const table = async <T>(read: (dynamo: DynamoDBDocumentClient) => Promise<T>): Promise<T> => {
    const { info } = stack;
    const client = new DynamoDBClient({
      region: info.region,
      credentials: LOCAL_CREDENTIALS,
      endpoint: info.dynamodb.endpoint,
    });
    try {
      return await read(DynamoDBDocumentClient.from(client));
    } finally {
      client.destroy();
    }
  };
  const items = (tableName: string, pk: string) =>
    table(
      async (dynamo) =>
        (
          await dynamo.send(
            new QueryCommand({
              TableName: tableName,
              KeyConditionExpression: 'pk = :pk',
              ExpressionAttributeValues: { ':pk': pk },
            }),
          )
        ).Items ?? [],
    );
  const todaysViews = () =>
    table(async (dynamo) =>
      Number(
        (
          await dynamo.send(
            new GetCommand({
              TableName: localTableName(usageTable),
              Key: { pk: 'DAY#ALL', sk: new Date().toISOString().slice(0, 10) },
            }),
          )
        ).Item?.views ?? 0,
      ),
    );

  beforeAll(async () => {
    stack = sharedTestStack();
    adminToken = (await signInWithSrp(stack.info, stack.info.demo.admin)).accessToken;
    removed = (await catalogue()).find((dashboard) => dashboard.dashboardId === UNCATALOGUED);
    expect(removed).toBeDefined();
    await quicksightAdmin({ action: 'DELETE_DASHBOARD_METADATA', metadataId: removed!.id });
  });

  // The other files of the project find the catalogue as the stack started (no user had the entry).
  afterAll(async () => {
    if (removed === undefined) return;
    const { dashboardId, dashboardName, dashboardLink, description } = removed;
    await quicksightAdmin({
      action: 'CREATE_DASHBOARD_METADATA',
      dashboardId,
      dashboardName,
      dashboardLink,
      ...(description && { description }),
    });
  });

  it('passes against the local stack, printing each step with its time, and leaves nothing behind', async () => {
    const { code, stdout } = await runTool('verify-deployment', stack.localArgs);
    expect(code).toBe(0);
    for (const step of [
      'Site serves its security headers',
      'Site config.json names this stack',
      'Administrator signs in (SRP, authenticator set-up, TOTP)',
      'User signs in (SRP, authenticator set-up, TOTP)',
      'GraphQL listTableauViews (user)',
      'MFA function GET_MFA_STATUS (user)',
      'Contact function sends a support message (user)',
      'User admin function GET_USERS (admin)',
      'Company-access check (CHECK_COMPANY_ACCESS without fix, admin)',
      'Embed function refuses a dashboard not assigned to the user (403)',
    ]) {
      expect(stdout).toMatch(new RegExp(`^\\[ OK \\] ${step.replace(/[()]/g, '\\$&')} \\(\\d+ ms\\)$`, 'm'));
    }
    expect(stdout).toContain('The deployment works');
    expect(stdout).not.toContain('[FAIL]');
    expect(await leftovers(runEmails(stdout))).toEqual([]);

    // The support test message went from the sender to the sender, not to the support recipient.
    const runId = new RegExp(`${VERIFY_PREFIX}([\\w-]+)-\\*`).exec(stdout)![1]!;
    const mail = capturedMailListSchema.parse(await (await fetch(stack.info.mail.apiUrl)).json());
    const support = mail.filter((message) => message.subject.includes(`Deployment verification ${runId}`));
    expect(support).toHaveLength(1);
    expect(support[0]!.to).toEqual([support[0]!.from]);
    expect(support[0]!.cc).toEqual([]);
    // Its audit entries stay, each marked as verification, and the output says what was left.
    const [adminEmail] = runEmails(stdout);
    const entries = (await items(localTableName(auditTable), 'AUDIT')).filter((entry) => entry.actor === adminEmail);
    expect(entries.length).toBeGreaterThanOrEqual(2);
    expect(entries.every((entry) => entry.verification === true)).toBe(true);
    expect(stdout).toContain('Left behind on purpose:');
    expect(stdout).toContain(
      `${entries.length} audit entries of ${adminEmail} (kept: the trail is never edited; ${entries.length} of them marked verification: true)`,
    );
    expect(stdout).toContain(`sent from and to ${support[0]!.from} only`);
    // The passkey journey needs a person's authenticator: the output says how to check it.
    expect(stdout).toContain('To check by hand (a browser and a passkey are needed):');
    expect(stdout).toContain(`sign in at ${stack.info.webUrl.replace(/\/+$/, '')}/login with a password and code`);
  });

  it('lists the differences the company-access check finds, without mending them', async () => {
    const { info } = stack;
    const { companies } = listCompaniesResponseSchema.parse(await quicksightAdmin({ action: 'LIST_COMPANIES' }));
    const company = companies[0]!;
    const quicksight = new QuickSightClient({
      region: info.region,
      credentials: LOCAL_CREDENTIALS,
      endpoint: info.quicksight.endpoint,
    });
    // Drift made behind the portal's back: the company's QuickSight group is gone.
    await quicksight.send(
      new DeleteGroupCommand({
        AwsAccountId: info.quicksight.accountId,
        Namespace: 'default',
        GroupName: company.groupName,
      }),
    );
    try {
      const { code, stdout } = await runTool('verify-deployment', stack.localArgs);
      expect(code).toBe(0);
      expect(stdout).toMatch(/^\[ OK \] Company-access check \(CHECK_COMPANY_ACCESS without fix, admin\)/m);
      expect(stdout).toMatch(/\[WARN\] \d+ differences? between the portal and QuickSight/);
      expect(stdout).toContain(
        `- group-missing (${company.name}): expected group ${company.groupName}, found no group`,
      );
      // Reported, not mended.
      const after = accessCheckSchema.parse(await quicksightAdmin({ action: 'CHECK_COMPANY_ACCESS', fix: false }));
      expect(
        after.differences.some(
          (difference) => difference.kind === 'group-missing' && difference.company === company.name,
        ),
      ).toBe(true);
    } finally {
      const mended = accessCheckSchema.parse(await quicksightAdmin({ action: 'CHECK_COMPANY_ACCESS', fix: true }));
      quicksight.destroy();
      expect(
        mended.differences
          .filter((difference) => difference.kind === 'group-missing')
          .every((difference) => difference.fixed === true),
      ).toBe(true);
    }
  });

  it('embeds a dashboard through a temporary catalogue entry with --dashboard-id, then removes the entry and the view it recorded', async () => {
    const viewsBefore = await todaysViews();
    const { code, stdout } = await runTool('verify-deployment', [...stack.localArgs, '--dashboard-id', UNCATALOGUED]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^\[ OK \] Temporary catalogue entry for inventory-margins/m);
    expect(stdout).toMatch(/^\[ OK \] Embed function returns a URL for the assigned dashboard \(user\)/m);
    expect(stdout).toMatch(/^\[ OK \] Clean-up: Delete the temporary catalogue entry/m);
    expect(await leftovers(runEmails(stdout))).toEqual([]);
    // The usage record of the temporary user is gone and the day's count is back where it was.
    const [, userEmail] = runEmails(stdout);
    expect(stdout).toMatch(
      new RegExp(`^\\[ OK \\] Clean-up: Remove the usage record of ${userEmail!.replace(/[.]/g, '\\.')}`, 'm'),
    );
    expect(await items(localTableName(usageTable), `EVENT#${userEmail}`)).toEqual([]);
    expect((await items(localTableName(usageTable), 'USER')).filter((item) => item.sk === userEmail)).toEqual([]);
    expect(await todaysViews()).toBe(viewsBefore);
  });

  it.each([
    'Temporary administrator created',
    'User signs in (SRP, authenticator set-up, TOTP)',
    'Embed function returns a URL for the assigned dashboard (user)',
  ])(
    'deletes everything it made when a step fails on purpose (after "%s") and reports the failure',
    async (failingStep) => {
      let target: PortalTarget | undefined;
      const lines: string[] = [];
      try {
        target = await resolveTarget({ local: true, dataDir: stack.dataDir, context: {} });
        const passed = await verifyDeployment(target, {
          dashboardId: UNCATALOGUED,
          write: (line) => lines.push(line),
          afterStep: (name) => {
            if (name === failingStep) throw new Error(`failed on purpose after ${name}`);
          },
        });
        expect(passed).toBe(false);
      } finally {
        target?.close();
      }
      const output = lines.join('\n');
      expect(output).toContain(`[FAIL] failed on purpose after ${failingStep}`);
      expect(output).toMatch(/^\[ OK \] Clean-up: Delete portal-verify-[\w-]+-admin@example.com/m);
      expect(output).not.toMatch(/^\[FAIL\] Clean-up/m);
      expect(await leftovers(runEmails(output))).toEqual([]);
    },
  );

  it.each([
    [['--dashboard-id', 'not a dashboard!'], '--dashboard-id: Dashboard ID may contain only letters'],
    [['--dashboard'], "Unknown option '--dashboard'"],
  ])('refuses %j with a clear message and exit code 2', async (args, message) => {
    const { code, stderr } = await runTool('verify-deployment', [...stack.localArgs, ...args]);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).toContain('Usage: npm run verify-deployment');
  });
});
