import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  DescribeDashboardDefinitionCommand,
  DescribeDashboardSnapshotJobCommand,
  DescribeDashboardSnapshotJobResultCommand,
  StartDashboardSnapshotJobCommand,
} from '@aws-sdk/client-quicksight';
import { COMPANY_COLUMN } from '#contracts/companies.ts';
import { companyTags, fileSheetSelection, snapshotFile, type FileSheetSelection } from '#contracts/snapshot-files.ts';
import { download } from '#lambdas/shared/download.ts';
import { embedCertificatePath } from '#clients/local-stack.ts';
import { describeError } from './cli.ts';
import type { QuickSightReader } from './isolation-api.ts';

/**
 * The emailed-file path of the isolation proof: a subscribed dashboard's CSV made as the delivery
 * function makes it (lambdas/deliveries/snapshot.ts). QuickSight runs StartDashboardSnapshotJob
 * for an anonymous user whose only row-level-security tag is `company` = the user's companies,
 * as the portal records them, joined with the tag rules' delimiter; the file is the first table
 * visual of the dashboard's first sheet. The job is described every second until it ends, the
 * file is downloaded from the result's link and its rows are counted per company.
 */

const POLL_MS = 1_000;
const TIMEOUT_MS = 120_000;
const DOWNLOAD_TIMEOUT_MS = 30_000;
/**
 * Jobs running at once: half of the 12 QuickSight runs at once per account by default (more are
 * refused with LimitExceededException), which leaves room for the portal's own deliveries.
 */
const JOBS_AT_ONCE = 6;

/** What one file held: its rows per company, or why no file is made for this user and dashboard. */
export type EmailedFile =
  { readonly made: true; readonly rows: ReadonlyMap<string, number> } | { readonly made: false; readonly why: string };

/** The first table of the first sheet (a CSV is one visual's data), or why the dashboard has none. */
type Selection = FileSheetSelection | string;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Delimited text as QuickSight writes its CSV files (RFC 4180: quoted fields, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  const endRecord = () => {
    record.push(field);
    if (record.length > 1 || record[0] !== '') records.push(record);
    record = [];
    field = '';
  };
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted && char === '"' && text[i + 1] === '"') {
      field += '"';
      i += 1;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (quoted) {
      field += char;
    } else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\n') {
      endRecord();
    } else if (char !== '\r') {
      field += char;
    }
  }
  if (field !== '' || record.length > 0) endRecord();
  return records;
}

/** A file's rows per company, by the header's `company` column. */
function rowsPerCompany(csv: string): Map<string, number> {
  const [header = [], ...records] = parseCsv(csv.replace(/^\uFEFF/, ''));
  const column = header.findIndex((name) => name.trim().toLowerCase() === COMPANY_COLUMN);
  if (column < 0) throw new Error(`the file has no ${COMPANY_COLUMN} column (columns: ${header.join(', ')})`);
  const rows = new Map<string, number>();
  for (const record of records) {
    const company = record[column]?.trim() || '(no company)';
    rows.set(company, (rows.get(company) ?? 0) + 1);
  }
  return rows;
}

/** Makes and reads the files: one snapshot job per user and dashboard, each with an ID unique to this run. */
export class EmailedFiles {
  private readonly runId = `isolation-${randomBytes(4).toString('hex')}`;
  private jobs = 0;
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly selections = new Map<string, Promise<Selection>>();

  private constructor(
    private readonly quicksight: QuickSightReader,
    private readonly ca: string | undefined,
  ) {}

  /** For the target: local mode's file links are served with the local stack's certificate. */
  static async open(quicksight: QuickSightReader, localDataDir?: string): Promise<EmailedFiles> {
    const ca = localDataDir === undefined ? undefined : await readFile(embedCertificatePath(localDataDir), 'utf8');
    return new EmailedFiles(quicksight, ca);
  }

  get made(): number {
    return this.jobs;
  }

  private selection(dashboardId: string): Promise<Selection> {
    let found = this.selections.get(dashboardId);
    if (!found) {
      found = this.quicksight.client
        .send(
          new DescribeDashboardDefinitionCommand({ AwsAccountId: this.quicksight.accountId, DashboardId: dashboardId }),
        )
        .then(({ Definition }) => fileSheetSelection(Definition, 'CSV'));
      this.selections.set(dashboardId, found);
    }
    return found;
  }

  /**
   * The CSV of `dashboardId` for `user` (named in messages), tagged with `companies`: its rows per
   * company. A job that fails or does not end within 120 s throws, naming the dashboard and user.
   */
  async read(dashboardId: string, user: string, companies: readonly string[]): Promise<EmailedFile> {
    const selection = await this.selection(dashboardId).catch((error: unknown) => {
      throw new Error(`the dashboard definition of ${dashboardId} could not be read: ${describeError(error)}`);
    });
    if (typeof selection === 'string') return { made: false, why: selection };
    while (this.running >= JOBS_AT_ONCE) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    try {
      return await this.make(dashboardId, user, companies, selection);
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }

  private async make(
    dashboardId: string,
    user: string,
    companies: readonly string[],
    selection: FileSheetSelection,
  ): Promise<EmailedFile> {
    this.jobs += 1;
    const ids = {
      AwsAccountId: this.quicksight.accountId,
      DashboardId: dashboardId,
      SnapshotJobId: `${this.runId}-${this.jobs}`,
    };
    const what = `the emailed file of ${dashboardId} for ${user} (snapshot job ${ids.SnapshotJobId})`;
    const { client } = this.quicksight;
    try {
      await client.send(
        new StartDashboardSnapshotJobCommand({
          ...ids,
          UserConfiguration: {
            AnonymousUsers: [{ RowLevelPermissionTags: companyTags(companies) }],
          },
          SnapshotConfiguration: { FileGroups: [{ Files: [{ FormatType: 'CSV', SheetSelections: [selection] }] }] },
        }),
      );
    } catch (error) {
      throw new Error(`${what} could not be started: ${describeError(error)}`);
    }
    const describe = <T>(call: Promise<T>) =>
      call.catch((error: unknown) => {
        throw new Error(`${what} could not be described: ${describeError(error)}`);
      });
    const started = Date.now();
    for (;;) {
      await sleep(POLL_MS);
      const job = await describe(client.send(new DescribeDashboardSnapshotJobCommand(ids)));
      if (job.JobStatus === 'QUEUED' || job.JobStatus === 'RUNNING') {
        if (Date.now() - started >= TIMEOUT_MS)
          throw new Error(`${what} was still ${job.JobStatus} after ${TIMEOUT_MS / 1000} s; gave up`);
        continue;
      }
      const result = await describe(client.send(new DescribeDashboardSnapshotJobResultCommand(ids)));
      const file = snapshotFile(job.JobStatus, result);
      if ('error' in file) throw new Error(`QuickSight could not make ${what}: ${file.error}`);
      try {
        const body = await download(file.url, { ca: this.ca, timeoutMs: DOWNLOAD_TIMEOUT_MS });
        return { made: true, rows: rowsPerCompany(new TextDecoder().decode(body)) };
      } catch (failure) {
        throw new Error(`${what} could not be read: ${describeError(failure)}`);
      }
    }
  }
}
