import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { embedResponseSchema } from '#contracts/embed.ts';
import { mfaStatusResponseSchema } from '#contracts/mfa.ts';
import {
  listDashboardMetadataResponseSchema,
  listUsersWithQuicksightResponseSchema,
  saveDashboardMetadataResponseSchema,
} from '#contracts/quicksight-admin.ts';
import { getUsersResponseSchema } from '#contracts/user-admin.ts';
import { contactResponseSchema } from '#contracts/contact.ts';
import { accessCheckSchema, type AccessCheck } from '#contracts/companies.ts';
import { VERIFY_PREFIX } from '#contracts/verification.ts';
import { ADMINS_GROUP, USERS_GROUP } from '#contracts/groups.ts';
import { signInWithAuthenticator, type PoolContext } from '#clients/cognito.ts';
import { createAccount, deleteAccount, generatePassword, groupsOf } from './accounts.ts';
import {
  callFunction,
  checkFrameAllowed,
  checkRuntimeConfig,
  checkSecurityHeaders,
  embedRequest,
  expectOk,
  graphql,
} from './portal-client.ts';
import { StepPrinter } from './report.ts';
import type { PortalTarget } from './target.ts';
import { auditEntriesOf, removeUsageRecord } from './verify-records.ts';

/** How the smoke test's temporary authenticators are named in Cognito while they exist. */
const VERIFY_DEVICE_NAME = 'Deployment verification';

/**
 * The post-deployment smoke test: a temporary administrator and a temporary user sign in as
 * people do (SRP, authenticator set-up), then every function URL and GraphQL is called the
 * way the SPA calls it. Everything created is deleted at the end, also after a failure.
 */

export interface VerifyOptions {
  /** A QuickSight dashboard to embed; without one, the embed function must refuse (403). */
  readonly dashboardId?: string;
  readonly write: (line: string) => void;
  /** Called after each successful step with its name (tests fail a step on purpose here). */
  readonly afterStep?: (name: string) => void | Promise<void>;
}

/**
 * Prefix of the temporary accounts and catalogue entries, so a leftover is recognisable (contracts/verification.ts).
 */
export { VERIFY_PREFIX };

const LIST_VIEWS = /* GraphQL */ `query ListTableauViews { listTableauViews(limit: 50) { items { id quicksightDashboardId isDefault } nextToken } }`;
const LIST_METADATA = /* GraphQL */ `query ListDashboardMetadata { listDashboardMetadata(limit: 50) { items { id dashboardId } nextToken } }`;
const okMessage = z.object({ message: z.string() }).loose();

interface Cleanup {
  readonly name: string;
  readonly run: () => Promise<void>;
}

/** Runs the verification; resolves true when every step and every clean-up passed. */
export async function verifyDeployment(target: PortalTarget, options: VerifyOptions): Promise<boolean> {
  const printer = new StepPrinter(options.write);
  const cleanups: Cleanup[] = [];
  const step = async <T>(name: string, action: () => Promise<T>): Promise<T> => {
    const result = await printer.run(name, action);
    await options.afterStep?.(name);
    return result;
  };
  const runId = `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
  const admin = {
    email: `${VERIFY_PREFIX}${runId}-admin@example.com`,
    password: generatePassword(),
    group: ADMINS_GROUP,
  };
  const user = { email: `${VERIFY_PREFIX}${runId}-user@example.com`, password: generatePassword(), group: USERS_GROUP };
  const pool: PoolContext = {
    client: target.cognito,
    endpoint: target.cognitoEndpoint,
    userPoolId: target.userPoolId,
    clientId: target.clientId,
    readTotpSecret: async () => undefined,
  };
  options.write(`Verifying ${target.description} (temporary accounts ${VERIFY_PREFIX}${runId}-*)`);
  const startedAt = new Date().toISOString();

  // Registered first, so it runs last: after DELETE_USER and the other clean-ups.
  const records = target.records;
  if (records) {
    cleanups.push({
      name: `Remove the usage record of ${user.email} (view events, summary, its day and week counts)`,
      run: async () => {
        const removed = await removeUsageRecord(records, user.email);
        if (removed.unmarked > 0) {
          throw new Error(
            `${removed.unmarked} view event(s) of ${user.email} carry no verification mark (functions older than this tool?); they and the summary were left`,
          );
        }
      },
    });
  }

  /** The steps; returns early when there is no dashboard to embed. */
  const runSteps = async (): Promise<void> => {
    const siteHeaders = await step('Site serves its security headers', () => checkSecurityHeaders(target));
    await step('Site config.json names this stack', () => checkRuntimeConfig(target));

    await step('Temporary administrator created', async () => {
      cleanups.push({
        name: `Delete ${admin.email}`,
        run: async () => void (await deleteAccount(target, admin.email)),
      });
      await createAccount(target, admin);
    });
    const adminToken = await step('Administrator signs in (SRP, authenticator set-up, TOTP)', () =>
      signInWithAuthenticator(pool, admin, VERIFY_DEVICE_NAME),
    );
    const adminCall = (body: unknown) => callFunction(target, target.functions.userAdmin, adminToken, { body });
    const quicksightCall = (body: unknown) =>
      callFunction(target, target.functions.quicksightAdmin, adminToken, { body });

    await step('User admin function creates a temporary user (CREATE_USER)', async () => {
      cleanups.push({
        name: `Delete ${user.email} with its views and QuickSight user (DELETE_USER)`,
        run: async () => {
          if ((await groupsOf(target, user.email)) === undefined) return;
          const answer = await adminCall({ action: 'DELETE_USER', userEmail: user.email });
          if (answer.status !== 200) {
            await deleteAccount(target, user.email);
            throw new Error(
              `DELETE_USER answered ${answer.status}; the account was deleted in Cognito directly, its views or QuickSight user may remain`,
            );
          }
        },
      });
      expectOk(
        await adminCall({ action: 'CREATE_USER', userEmail: user.email, password: user.password }),
        okMessage,
        'CREATE_USER',
      );
    });
    const userToken = await step('User signs in (SRP, authenticator set-up, TOTP)', () =>
      signInWithAuthenticator(pool, user, VERIFY_DEVICE_NAME),
    );

    await step('GraphQL listTableauViews (user)', async () => {
      const data = await graphql(target, userToken, LIST_VIEWS);
      z.object({ listTableauViews: z.object({ items: z.array(z.unknown()) }) }).parse(data);
    });
    await step('MFA function GET_MFA_STATUS (user)', async () => {
      const status = expectOk(
        await callFunction(target, target.functions.mfa, userToken, { body: { action: 'GET_MFA_STATUS' } }),
        mfaStatusResponseSchema,
        'GET_MFA_STATUS',
      );
      if (!status.mfaEnabled) throw new Error('the user signed in with an authenticator, but MFA is reported off');
    });
    await step('Contact function sends a support message (user)', async () => {
      const body = {
        email: user.email,
        subject: `Deployment verification ${runId}`,
        message: 'Sent by npm run verify-deployment; no action needed.',
        priority: 'low',
      };
      expectOk(
        await callFunction(target, target.functions.contact, userToken, { body }),
        contactResponseSchema,
        'Contact',
      );
    });
    await step('User admin function GET_USERS (admin)', async () => {
      const { users } = expectOk(await adminCall({ action: 'GET_USERS' }), getUsersResponseSchema, 'GET_USERS');
      if (!users.some((listed) => listed.email === user.email))
        throw new Error(`GET_USERS does not list ${user.email}`);
    });
    await step('QuickSight admin function LIST_COGNITO_USERS_WITH_QUICKSIGHT_STATUS (admin)', async () => {
      expectOk(
        await quicksightCall({ action: 'LIST_COGNITO_USERS_WITH_QUICKSIGHT_STATUS' }),
        listUsersWithQuicksightResponseSchema,
        'LIST_COGNITO_USERS_WITH_QUICKSIGHT_STATUS',
      );
    });
    const catalogue = await step(
      'QuickSight admin function LIST_DASHBOARD_METADATA (admin)',
      async () =>
        expectOk(
          await quicksightCall({ action: 'LIST_DASHBOARD_METADATA' }),
          listDashboardMetadataResponseSchema,
          'LIST_DASHBOARD_METADATA',
        ).dashboards,
    );
    await step(
      'GraphQL listDashboardMetadata (admin)',
      async () => void (await graphql(target, adminToken, LIST_METADATA)),
    );
    // The check the daily schedule runs (lambdas/company-check), run now by the management
    // function without mending: differences are reported, for an administrator to mend.
    const check = await step('Company-access check (CHECK_COMPANY_ACCESS without fix, admin)', async () =>
      expectOk(
        await quicksightCall({ action: 'CHECK_COMPANY_ACCESS', fix: false }),
        accessCheckSchema,
        'CHECK_COMPANY_ACCESS',
      ),
    );
    for (const line of companyAccessReport(check)) options.write(line);

    const dashboardId = options.dashboardId;
    if (dashboardId === undefined) {
      await step('Embed function refuses a dashboard not assigned to the user (403)', async () => {
        const answer = await embedRequest(target, userToken, `${VERIFY_PREFIX}${runId}`);
        if (answer.status !== 403)
          throw new Error(`expected 403, got ${answer.status}: ${JSON.stringify(answer.body)}`);
      });
      return;
    }

    const existing = catalogue.find((entry) => entry.dashboardId.toLowerCase() === dashboardId.toLowerCase());
    const entry =
      existing ??
      (await step(`Temporary catalogue entry for ${dashboardId} (CREATE_DASHBOARD_METADATA)`, async () => {
        const created = expectOk(
          await quicksightCall({
            action: 'CREATE_DASHBOARD_METADATA',
            dashboardId,
            dashboardName: `${VERIFY_PREFIX}${runId}`,
            dashboardLink: target.siteUrl,
            description: 'Temporary entry of npm run verify-deployment',
          }),
          saveDashboardMetadataResponseSchema,
          'CREATE_DASHBOARD_METADATA',
        ).dashboard;
        cleanups.push({
          name: `Delete the temporary catalogue entry ${created.id}`,
          run: async () =>
            void expectOk(
              await quicksightCall({ action: 'DELETE_DASHBOARD_METADATA', metadataId: created.id }),
              okMessage,
              'DELETE_DASHBOARD_METADATA',
            ),
        });
        return created;
      }));
    await step('QuickSight admin function registers the user as a reader (REGISTER_USER)', async () => {
      cleanups.push({
        name: `Delete the QuickSight user of ${user.email}`,
        run: async () => {
          const answer = await quicksightCall({ action: 'DELETE_USER', userEmail: user.email });
          if (answer.status !== 200 && answer.status !== 404)
            throw new Error(`DELETE_USER answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        },
      });
      expectOk(
        await quicksightCall({ action: 'REGISTER_USER', userEmail: user.email, userRole: 'READER' }),
        okMessage,
        'REGISTER_USER',
      );
    });
    await step(`QuickSight admin function assigns ${dashboardId} (INVITE_TO_DASHBOARD)`, async () => {
      cleanups.push({
        name: `Remove ${user.email} from ${dashboardId}`,
        run: async () =>
          void expectOk(
            await quicksightCall({ action: 'REMOVE_FROM_DASHBOARD', userEmail: user.email, dashboardId }),
            okMessage,
            'REMOVE_FROM_DASHBOARD',
          ),
      });
      const invite = {
        action: 'INVITE_TO_DASHBOARD',
        userEmail: user.email,
        dashboardId,
        dashboardName: entry.dashboardName,
        dashboardLink: entry.dashboardLink,
        makeDefault: true,
      };
      expectOk(await quicksightCall(invite), okMessage, 'INVITE_TO_DASHBOARD');
    });
    await step('Embed function returns a URL for the assigned dashboard (user)', async () => {
      const { url } = expectOk(await embedRequest(target, userToken, dashboardId), embedResponseSchema, 'Embed');
      checkFrameAllowed(target, siteHeaders, url);
    });
  };

  let failed = false;
  try {
    await runSteps();
  } catch (error) {
    failed = true;
    // A step prints its own failure; anything else (a hook, a bug) is printed here.
    if (!printer.failed) options.write(`[FAIL] ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await cleanUp(cleanups, printer);
  }
  for (const line of await leftBehind(target, admin.email, runId, startedAt)) options.write(line);
  for (const line of checkedByHand(target)) options.write(line);
  return !failed && !printer.failed;
}

/**
 * What needs a person with a browser and so is not run here: the passkey journey (a passkey
 * is made by an authenticator the person controls). Chromium's DevTools can stand in for one
 * (More tools > WebAuthn: a virtual authenticator with user verification).
 */
function checkedByHand(target: PortalTarget): string[] {
  if (target.config.passkeys === false) return [];
  return [
    '',
    'To check by hand (a browser and a passkey are needed):',
    `  - passkeys: sign in at ${target.siteUrl}/login with a password and code, open the MFA page, choose Add a passkey`,
    '    (it asks for the password and a current code first), log out, enter the email on the sign-in page and choose',
    '    Sign in with a passkey: the dashboard opens with no code. With the authenticator set not to verify the user,',
    '    the same sign-in must not get in. Remove the passkey on the MFA page afterwards.',
  ];
}

/**
 * What a run leaves on purpose, printed at the end (docs/deploy.md, "Preflight and verification"):
 * the audit entries of the temporary administrator (marked, never deleted), the support test
 * message (to the sender address only), the dashboard's last-viewed time and the logs.
 */
async function leftBehind(
  target: PortalTarget,
  adminEmail: string,
  runId: string,
  startedAt: string,
): Promise<string[]> {
  let audit = `the audit entries of ${adminEmail} (kept: the trail is never edited; each carries verification: true)`;
  if (target.records) {
    try {
      const { entries, marked } = await auditEntriesOf(target.records, adminEmail, startedAt);
      audit = `${entries} audit entries of ${adminEmail} (kept: the trail is never edited; ${marked} of them marked verification: true)`;
    } catch (error) {
      audit += ` (could not be counted: ${error instanceof Error ? error.message : String(error)})`;
    }
  }
  const sender = target.config.sesSenderAddress;
  return [
    '',
    'Left behind on purpose:',
    `  - ${audit}`,
    `  - the support test message "Deployment verification ${runId}", sent from and to ${sender} only (not to ${target.config.supportRecipientAddress})`,
    "  - with --dashboard-id: the dashboard's last-viewed time on the Insights page",
    "  - the functions' log lines of the run (CloudWatch Logs, kept for the configured retention)",
  ];
}

/**
 * The company-access check's result as the tool prints it: the count, then one line per
 * difference. Differences do not fail the verification (mending them is an administrator's
 * choice in the admin portal), but they are the first thing to look at when users of one
 * company see another's data or miss their own.
 */
function companyAccessReport(check: AccessCheck): string[] {
  if (check.differences.length === 0)
    return [
      `       Portal and QuickSight agree on companies, groups, rules and dashboards (${check.quicksightCalls} QuickSight calls).`,
    ];
  return [
    `       [WARN] ${check.differences.length} difference${check.differences.length > 1 ? 's' : ''} between the portal and QuickSight (admin portal > Companies > Check access, "Fix" mends what the portal can):`,
    ...check.differences.map(
      (difference) =>
        `         - ${difference.kind}${difference.company ? ` (${difference.company})` : ''}${difference.subject ? ` ${difference.subject}` : ''}: expected ${difference.expected}, found ${difference.found}`,
    ),
  ];
}

/** Undoes what was created, newest first; one failed clean-up does not stop the others. */
async function cleanUp(cleanups: readonly Cleanup[], printer: StepPrinter): Promise<void> {
  for (const cleanup of [...cleanups].reverse()) {
    await printer.run(`Clean-up: ${cleanup.name}`, cleanup.run).catch(() => undefined);
  }
}
