import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { embedResponseSchema } from '#contracts/embed.ts';
import { accessCheckSchema, listCompaniesResponseSchema } from '#contracts/companies.ts';
import { listDashboardMetadataResponseSchema } from '#contracts/quicksight-admin.ts';
import { VERIFY_PREFIX } from '#contracts/verification.ts';
import { ADMINS_GROUP, USERS_GROUP } from '#contracts/groups.ts';
import { signInWithAuthenticator, type PoolContext } from '#clients/cognito.ts';
import { createAccount, deleteAccount, generatePassword, groupsOf } from './accounts.ts';
import { callFunction, embedRequest, expectOk, graphql } from './portal-client.ts';
import { StepPrinter } from './report.ts';
import type { PortalTarget } from './target.ts';
import { removeUsageRecord } from './verify-records.ts';
import type { EmbedBrowser } from './isolation-pages.ts';
import { IsolationMatrix, type MatrixCell } from './isolation-matrix.ts';
import { isolationDifferences, scopedDataSetProblems, type QuickSightReader } from './isolation-api.ts';
import { negatives } from './isolation-negatives.ts';
import type { EmailedFiles } from './isolation-files.ts';

/**
 * The isolation proof: synthetic users (one per company, an owner of two companies, one in no
 * company) read every company-scoped dashboard of the catalogue on every path their rows take
 * (the embedded dashboard, GraphQL, the file the delivery function would mail them), and the
 * rows seen per company are recorded; then the negatives (a removed assignment, a
 * deleted company, an ended session). Everything made is removed at the end, also after a
 * failure, as verify-deployment does.
 */

export interface IsolationOptions {
  readonly write: (line: string) => void;
  readonly quicksight: QuickSightReader;
  /** Makes the dashboards' files as the delivery function does, and reads them. */
  readonly files: EmailedFiles;
  /** Reads what the embed pages draw (local mode); absent against AWS, where a frame's rows cannot be read. */
  readonly browser?: EmbedBrowser;
}

export interface IsolationOutcome {
  readonly passed: boolean;
  readonly matrix?: IsolationMatrix;
}

const LIST_VIEWS = /* GraphQL */ `query ListTableauViews { listTableauViews(limit: 100) { items { quicksightDashboardId companyName } } }`;
const viewsSchema = z.object({
  listTableauViews: z.object({
    items: z.array(z.object({ quicksightDashboardId: z.string().nullable(), companyName: z.string().nullable() })),
  }),
});
const okMessage = z.object({ message: z.string() }).loose();
const VERIFY_DEVICE_NAME = 'Isolation proof';

export interface Synthetic {
  readonly label: string;
  readonly email: string;
  readonly password: string;
  readonly holds: readonly string[];
  token?: string;
}

export async function proveIsolation(target: PortalTarget, options: IsolationOptions): Promise<IsolationOutcome> {
  const { browser, quicksight, files } = options;
  const write = (...lines: string[]) => {
    for (const line of lines) options.write(line);
  };
  const printer = new StepPrinter(write);
  const cleanups: { name: string; run: () => Promise<void> }[] = [];
  const problems: string[] = [];
  const time = Date.now().toString(36);
  const email = (role: 'admin' | 'user') =>
    `${VERIFY_PREFIX}${time}-${randomBytes(3).toString('hex')}-${role}@example.com`;
  const admin = { email: email('admin'), password: generatePassword(), group: ADMINS_GROUP };
  const pool: PoolContext = {
    client: target.cognito,
    endpoint: target.cognitoEndpoint,
    userPoolId: target.userPoolId,
    clientId: target.clientId,
    readTotpSecret: async () => undefined,
  };
  write(`Proving company isolation on ${target.description} (temporary accounts ${VERIFY_PREFIX}${time}-*)`);
  let matrix: IsolationMatrix | undefined;

  const run = async () => {
    const adminToken = await printer.run('Temporary administrator created and signed in', async () => {
      cleanups.push({
        name: `Delete ${admin.email}`,
        run: async () => void (await deleteAccount(target, admin.email)),
      });
      await createAccount(target, admin);
      return signInWithAuthenticator(pool, admin, VERIFY_DEVICE_NAME);
    });
    const manage = (body: unknown) => callFunction(target, target.functions.quicksightAdmin, adminToken, { body });
    const users = (body: unknown) => callFunction(target, target.functions.userAdmin, adminToken, { body });
    const accessCheck = async () =>
      expectOk(await manage({ action: 'CHECK_COMPANY_ACCESS', fix: false }), accessCheckSchema, 'CHECK_COMPANY_ACCESS');

    await printer
      .run("Every user's QuickSight groups equal the portal's records (CHECK_COMPANY_ACCESS)", async () => {
        const found = isolationDifferences(await accessCheck());
        if (found.length > 0) {
          problems.push(...found.map((line) => `QuickSight differs from the portal: ${line}`));
          throw new Error(`${found.length} difference(s):\n         - ${found.join('\n         - ')}`);
        }
      })
      .catch(() => undefined);

    const companies = expectOk(
      await manage({ action: 'LIST_COMPANIES' }),
      listCompaniesResponseSchema,
      'LIST_COMPANIES',
    )
      .companies.map((company) => company.name)
      .sort((a, b) => a.localeCompare(b));
    const catalogue = expectOk(
      await manage({ action: 'LIST_DASHBOARD_METADATA' }),
      listDashboardMetadataResponseSchema,
      'LIST_DASHBOARD_METADATA',
    ).dashboards;
    const scoped = catalogue.filter((entry) => entry.scope === 'company-scoped');
    write(
      `       ${companies.length} companies; company-scoped dashboards: ${scoped.map((entry) => entry.dashboardId).join(', ') || 'none'}`,
    );
    if (companies.length < 2) throw new Error('isolation needs at least two companies; the portal has fewer');
    if (scoped.length === 0) throw new Error('the catalogue holds no company-scoped dashboard to prove isolation on');

    let notDeliverable = new Map<string, string>();
    await printer
      .run('Every dataset behind a company-scoped dashboard applies the rules over a company column', async () => {
        const proof = await scopedDataSetProblems(
          quicksight,
          scoped.map((entry) => entry.dashboardId),
        );
        notDeliverable = proof.notDeliverable;
        if (proof.problems.length > 0) {
          problems.push(...proof.problems);
          throw new Error(proof.problems.join('; '));
        }
        write(`       ${proof.dataSets} dataset(s): rules attached, GRANT_ACCESS, ENABLED, VERSION_2, column company`);
      })
      .catch(() => undefined);

    const synthetic: Synthetic[] = [
      ...companies.map((company) => ({ label: company, holds: [company] })),
      { label: `owner of ${companies[0]} and ${companies[1]}`, holds: [companies[0]!, companies[1]!] },
      { label: 'no company', holds: [] },
    ].map((user) => ({ ...user, email: email('user'), password: generatePassword() }));

    await printer.run(`${synthetic.length} synthetic users created, registered, placed and assigned`, async () => {
      for (const user of synthetic) {
        cleanups.push({
          name: `Remove the usage record of ${user.email}`,
          run: async () => void (target.records && (await removeUsageRecord(target.records, user.email))),
        });
        cleanups.push({
          name: `Delete ${user.email} with its views and QuickSight user (DELETE_USER)`,
          run: async () => {
            if ((await groupsOf(target, user.email)) === undefined) return;
            const answer = await users({ action: 'DELETE_USER', userEmail: user.email });
            if (answer.status !== 200)
              throw new Error(`DELETE_USER answered ${answer.status}: ${JSON.stringify(answer.body)}`);
          },
        });
      }
      const prepare = async (user: Synthetic) => {
        expectOk(
          await users({ action: 'CREATE_USER', userEmail: user.email, password: user.password }),
          okMessage,
          'CREATE_USER',
        );
        expectOk(
          await manage({ action: 'REGISTER_USER', userEmail: user.email, userRole: 'READER' }),
          okMessage,
          'REGISTER_USER',
        );
        if (user.holds.length > 0) {
          const request = {
            action: 'SET_USER_COMPANIES',
            userEmail: user.email,
            companies: user.holds,
            owner: user.holds.length > 1,
          };
          expectOk(await manage(request), okMessage, 'SET_USER_COMPANIES');
        }
        for (const entry of scoped) {
          const invite = {
            action: 'INVITE_TO_DASHBOARD',
            userEmail: user.email,
            dashboardId: entry.dashboardId,
            dashboardName: entry.dashboardName,
            dashboardLink: entry.dashboardLink,
          };
          const answer = await manage(invite);
          if (answer.status !== 200 && user.holds.length > 0)
            throw new Error(
              `INVITE_TO_DASHBOARD ${entry.dashboardId} for ${user.label} answered ${answer.status}: ${JSON.stringify(answer.body)}`,
            );
        }
      };
      await Promise.all(synthetic.map(prepare));
    });
    await printer.run('Synthetic users sign in (SRP, authenticator set-up, TOTP)', async () => {
      await Promise.all(
        synthetic.map(async (user) => {
          user.token = await signInWithAuthenticator(pool, { ...user, group: USERS_GROUP }, VERIFY_DEVICE_NAME);
        }),
      );
    });

    matrix = new IsolationMatrix(companies);
    const urls = new Map<string, string>();
    const fileFailures: string[] = [];
    type View = z.infer<typeof viewsSchema>['listTableauViews']['items'][number];
    // The file the delivery function would mail: none for a dashboard not assigned, or a user in no company.
    const readFiles = (user: Synthetic, views: readonly View[]): Promise<MatrixCell[]> =>
      Promise.all(
        scoped.map(async ({ dashboardId }): Promise<MatrixCell> => {
          const cell = {
            user: user.label,
            holds: user.holds,
            dashboardId,
            path: 'file' as const,
            rows: new Map<string, number>(),
          };
          const view = views.find((item) => item.quicksightDashboardId === dashboardId);
          const recorded = (view?.companyName ?? '').split(', ').filter((name) => name !== '');
          if (notDeliverable.has(dashboardId)) return { ...cell, note: 'not deliverable' };
          if (!view) return { ...cell, note: 'no file: not assigned' };
          if (recorded.length === 0) return { ...cell, note: 'no file: in no company' };
          try {
            const file = await files.read(dashboardId, user.label, recorded);
            return file.made ? { ...cell, rows: file.rows } : { ...cell, note: `no file: ${file.why}` };
          } catch (error) {
            fileFailures.push(error instanceof Error ? error.message : String(error));
            return { ...cell, note: 'FAILED' };
          }
        }),
      );
    const readShown = async (user: Synthetic, views: readonly View[]): Promise<MatrixCell[]> => {
      const cells: MatrixCell[] = [];
      for (const entry of scoped) {
        const rows = new Map<string, number>();
        for (const view of views.filter((item) => item.quicksightDashboardId === entry.dashboardId))
          for (const company of (view.companyName ?? '').split(', ').filter((name) => name !== ''))
            rows.set(company, (rows.get(company) ?? 0) + 1);
        cells.push({
          user: user.label,
          holds: user.holds,
          dashboardId: entry.dashboardId,
          path: 'graphql',
          rows,
        });
        const answer = await embedRequest(target, user.token!, entry.dashboardId);
        if (answer.status !== 200) {
          // No URL, nothing drawn: what a user without the assignment gets.
          cells.push({
            user: user.label,
            holds: user.holds,
            dashboardId: entry.dashboardId,
            path: 'dashboard',
            rows: new Map(),
          });
          continue;
        }
        const { url } = embedResponseSchema.parse(answer.body);
        urls.set(`${user.email}|${entry.dashboardId}`, url);
        if (!browser) continue;
        const drawn = new Map<string, number>();
        const first = await browser.open(url);
        for (const company of companies) {
          const page = await browser.reload(url, company);
          const seen = Math.max(page.rows, page.companiesInView.includes(company) ? 1 : 0);
          if (seen > 0) drawn.set(company, seen);
        }
        for (const company of first.companiesInView) if (!companies.includes(company)) drawn.set(company, 1);
        cells.push({
          user: user.label,
          holds: user.holds,
          dashboardId: entry.dashboardId,
          path: 'dashboard',
          rows: drawn,
        });
      }
      return cells;
    };
    const readRows = async (user: Synthetic): Promise<MatrixCell[]> => {
      const views = viewsSchema.parse(await graphql(target, user.token!, LIST_VIEWS)).listTableauViews.items;
      const [shown, mailed] = await Promise.all([readShown(user, views), readFiles(user, views)]);
      return [...shown, ...mailed];
    };
    await printer.run('Rows seen per company, on every path', async () => {
      const cells = await Promise.all(synthetic.map(readRows));
      for (const cell of cells.flat()) matrix!.record(cell);
    });
    await printer
      .run('Every emailed file (CSV) was made and read as the delivery function makes it', async () => {
        if (fileFailures.length > 0) {
          problems.push(...fileFailures);
          throw new Error(`${fileFailures.length} file(s):\n         - ${fileFailures.join('\n         - ')}`);
        }
        write(`       ${files.made} snapshot job(s), each for an anonymous user tagged with the user's companies`);
      })
      .catch(() => undefined);
    write('', 'Rows seen per company ("!" marks rows of a company the user does not hold):', ...matrix.lines(), '');
    for (const [dashboardId, why] of notDeliverable)
      write(`Not deliverable: ${dashboardId} (${why}); no file of it is made, so it is not mailed.`);
    const schedules = target.config.dashboardFeatures.includes('Schedules') ? 'on' : 'off';
    write(
      'Files: the portal mails subscribed dashboards as files QuickSight makes for an anonymous user tagged with',
      "the subscriber's companies (the emailed file rows above). QuickSight's own schedules, when",
      `dashboardFeatures turns Schedules on (here: ${schedules}), mail reports QuickSight draws as the reader,`,
      'under the same rules.',
    );
    if (!browser) {
      write(
        'Not seen: the rows an embedded dashboard draws. QuickSight draws them inside the browser frame, which this host',
        'cannot read; what the API shows of them is proven above (groups and members, the rules file and dataset, every',
        'scoped dataset applying the rules over a company column), and each synthetic user got an embed URL only for',
        'the dashboards assigned to them.',
      );
    }

    await negatives({
      target,
      printer,
      problems,
      browser,
      synthetic,
      scoped: scoped[0]!,
      manage,
      urls,
      accessCheck,
      quicksight,
      namespace: target.local?.quicksight.namespace ?? target.config.quicksightNamespace,
    });
  };

  let failed = false;
  try {
    await run();
  } catch (error) {
    failed = true;
    if (!printer.failed) write(`[FAIL] ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    for (const cleanup of [...cleanups].reverse())
      await printer.run(`Clean-up: ${cleanup.name}`, cleanup.run).catch(() => undefined);
  }
  const cross = matrix?.crossCompanyRows ?? 0;
  if (matrix) {
    write('', `Cross-company rows: ${cross}`);
    for (const line of matrix.crossings()) write(`  - ${line}`);
  }
  for (const line of problems) write(`  - ${line}`);
  return { passed: !failed && !printer.failed && cross === 0 && problems.length === 0, ...(matrix && { matrix }) };
}
