import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  DescribeDashboardDefinitionCommand,
  DescribeDashboardSnapshotJobCommand,
  DescribeDashboardSnapshotJobResultCommand,
  StartDashboardSnapshotJobCommand,
  type QuickSightClient,
  type StartDashboardSnapshotJobCommandInput,
} from '@aws-sdk/client-quicksight';
import { PDFArray, PDFDocument, PDFRawStream, decodePDFRawStream } from 'pdf-lib';
import { afterEach, describe, expect, it } from 'vitest';
import { sampleDataset } from '#emulators/sample-dashboards/data/generator.ts';
import { parseDelimited } from '#emulators/quicksight/csv.ts';
import {
  SAMPLE_COMPANIES,
  startQuickSightEmulator,
  type QuickSightEmulator,
  type QuickSightEmulatorOptions,
} from '#emulators/quicksight/index.ts';
import { sampleRow } from '#emulators/quicksight/samples.ts';
import { ACCOUNT_ID, REGION, TestClock, clientFor, sdkError } from './quicksight-support.ts';

/**
 * Dashboard snapshot jobs for anonymous users as the API reference documents them
 * (https://docs.aws.amazon.com/quicksight/latest/APIReference/API_StartDashboardSnapshotJob.html,
 * API_DescribeDashboardSnapshotJob.html, API_DescribeDashboardSnapshotJobResult.html): asynchronous
 * (QUEUED, RUNNING, then COMPLETED or FAILED), the result only once the job has ended, files holding
 * only the rows the anonymous user's row-level security tags let through, and the request checked
 * as the reference's constraints and format rules say.
 */

const [NORTHWIND, CONTOSO, FABRIKAM] = SAMPLE_COMPANIES as readonly [string, string, string];
const DASHBOARD = 'sales-performance';
const SHEET = 'sales-performance-sheet-1';
const TABLE = 'sales-performance-table';
/** The header of a snapshot CSV: the sample datasets' columns, in their order. */
const CSV_HEADER =
  'month,company,distributor_id,region,product_line,revenue,planned_revenue,units,cogs,lines_ordered,' +
  'lines_filled,shipments,on_time_shipments,inventory_value,stock_outs';
const COMPANY_TAG_RULES = {
  TagRules: [{ TagKey: 'company', ColumnName: 'company', TagMultiValueDelimiter: ',', MatchAllValue: '*' }],
};

interface Running {
  readonly emulator: QuickSightEmulator;
  readonly client: QuickSightClient;
  readonly clock: TestClock;
  readonly dataDir: string;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(options: Partial<QuickSightEmulatorOptions> = {}, reuse?: Running): Promise<Running> {
  const clock = reuse?.clock ?? new TestClock();
  let dataDir = reuse?.dataDir;
  if (!dataDir) {
    const created = await mkdtemp(path.join(tmpdir(), 'quicksight-snapshots-'));
    cleanups.push(() => rm(created, { recursive: true, force: true }));
    dataDir = created;
  }
  const emulator = await startQuickSightEmulator({
    dataDir,
    accountId: ACCOUNT_ID,
    region: REGION,
    now: clock.now,
    rowLevelPermissionTagConfiguration: COMPANY_TAG_RULES,
    snapshotJobStepMs: 10,
    ...options,
  });
  const client = clientFor(emulator.url);
  cleanups.push(async () => {
    client.destroy();
    await emulator.close();
  });
  return { emulator, client, clock, dataDir };
}

type Groups = NonNullable<StartDashboardSnapshotJobCommandInput['SnapshotConfiguration']>['FileGroups'];

const csvGroup = (VisualIds: string[] = [TABLE], SheetId = SHEET) => ({
  Files: [
    {
      FormatType: 'CSV' as const,
      SheetSelections: [{ SheetId, SelectionScope: 'SELECTED_VISUALS' as const, VisualIds }],
    },
  ],
});
const pdfGroup = (SheetId = SHEET) => ({
  Files: [{ FormatType: 'PDF' as const, SheetSelections: [{ SheetId, SelectionScope: 'ALL_VISUALS' as const }] }],
});
const tag = (Value: string, Key = 'company') => ({ Key, Value });

function jobInput(
  SnapshotJobId: string,
  tags: { Key: string; Value: string }[] | undefined,
  FileGroups: Groups = [csvGroup()],
  DashboardId = DASHBOARD,
): StartDashboardSnapshotJobCommandInput {
  return {
    AwsAccountId: ACCOUNT_ID,
    DashboardId,
    SnapshotJobId,
    UserConfiguration: { AnonymousUsers: [tags ? { RowLevelPermissionTags: tags } : {}] },
    SnapshotConfiguration: { FileGroups },
  };
}

const ids = (SnapshotJobId: string, DashboardId = DASHBOARD) => ({
  AwsAccountId: ACCOUNT_ID,
  DashboardId,
  SnapshotJobId,
});
const describeJob = (qs: Running, jobId: string, dashboardId = DASHBOARD) =>
  qs.client.send(new DescribeDashboardSnapshotJobCommand(ids(jobId, dashboardId)));
const describeResult = (qs: Running, jobId: string, dashboardId = DASHBOARD) =>
  qs.client.send(new DescribeDashboardSnapshotJobResultCommand(ids(jobId, dashboardId)));

/**
 * Polls DescribeDashboardSnapshotJob until the job has ended; every status seen, in order. A job that has not
 * ended within 30 seconds fails the test, naming the statuses seen.
 */
async function ended(qs: Running, jobId: string, dashboardId = DASHBOARD): Promise<string[]> {
  const seen: string[] = [];
  const deadline = Date.now() + 30_000;
  for (;;) {
    const status = (await describeJob(qs, jobId, dashboardId)).JobStatus ?? '';
    if (seen.at(-1) !== status) seen.push(status);
    if (status === 'COMPLETED' || status === 'FAILED') return seen;
    if (Date.now() > deadline) {
      throw new Error(`Snapshot job ${jobId} did not end within 30 seconds; statuses seen: ${seen.join(', ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Runs a job to its end; the result's download links, in file group order. */
async function runJob(qs: Running, input: StartDashboardSnapshotJobCommandInput): Promise<string[]> {
  const [jobId, dashboardId] = [input.SnapshotJobId ?? '', input.DashboardId ?? ''];
  await qs.client.send(new StartDashboardSnapshotJobCommand(input));
  expect((await ended(qs, jobId, dashboardId)).at(-1)).toBe('COMPLETED');
  const result = await describeResult(qs, jobId, dashboardId);
  const groups = result.Result?.AnonymousUsers?.[0]?.FileGroups ?? [];
  return groups.flatMap((group) => (group.S3Results ?? []).map((s3) => s3.S3Uri ?? ''));
}

async function download(url: string): Promise<Buffer> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

/** A CSV file's records: the header, then the rows. */
const csvRecords = (bytes: Buffer) => parseDelimited(bytes.toString('utf8'), { delimiter: ',', qualifier: '"' });

const expectedRows = (companies: readonly string[]) =>
  sampleDataset()
    .facts.filter((fact) => companies.includes(fact.company))
    .map(sampleRow);

/** Every string a PDF draws, page by page, read back with pdf-lib. */
async function pdfText(bytes: Buffer): Promise<{ pages: number; text: string }> {
  const document = await PDFDocument.load(bytes);
  const drawn: string[] = [];
  for (const page of document.getPages()) {
    const contents = page.node.Contents();
    const streams =
      contents instanceof PDFArray ? contents.asArray().map((ref) => document.context.lookup(ref)) : [contents];
    for (const stream of streams) {
      if (!(stream instanceof PDFRawStream)) continue;
      const operators = Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
      for (const match of operators.matchAll(/<([0-9A-Fa-f]*)> Tj/g))
        drawn.push(Buffer.from(match[1] ?? '', 'hex').toString('latin1'));
    }
  }
  return { pages: document.getPageCount(), text: drawn.join('\n') };
}

describe('snapshot job lifecycle', () => {
  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_StartDashboardSnapshotJob.html,
  // API_DescribeDashboardSnapshotJob.html (JobStatus) and API_DescribeDashboardSnapshotJobResult.html
  // (PreconditionNotMetException before the job ends).
  it('answers 202 at once, is QUEUED, then RUNNING, then COMPLETED, and has a result only at the end', async () => {
    const qs = await start({ snapshotJobStepMs: 3_000 });
    const started = await qs.client.send(new StartDashboardSnapshotJobCommand(jobInput('job-1', [tag(NORTHWIND)])));
    expect(started).toMatchObject({
      Status: 202,
      SnapshotJobId: 'job-1',
      Arn: `arn:aws:quicksight:${REGION}:${ACCOUNT_ID}:dashboard/${DASHBOARD}/snapshot-job/job-1`,
    });
    const described = await describeJob(qs, 'job-1');
    expect(described).toMatchObject({
      AwsAccountId: ACCOUNT_ID,
      DashboardId: DASHBOARD,
      SnapshotJobId: 'job-1',
      Arn: started.Arn,
      JobStatus: 'QUEUED',
      // SnapshotAnonymousUserRedacted: the keys, never the values.
      UserConfiguration: { AnonymousUsers: [{ RowLevelPermissionTagKeys: ['company'] }] },
      SnapshotConfiguration: { FileGroups: [csvGroup()] },
    });
    expect(JSON.stringify(described)).not.toContain(NORTHWIND);
    expect(described.CreatedTime?.getTime()).toBe(qs.clock.now());
    const early = await sdkError(describeResult(qs, 'job-1'));
    expect(early).toMatchObject({ name: 'PreconditionNotMetException', status: 400 });
    expect(early.message).toBe('Dashboard Snapshot Job with id job-1 has not reached a terminal state.');
    expect(await ended(qs, 'job-1')).toEqual(['QUEUED', 'RUNNING', 'COMPLETED']);
    const result = await describeResult(qs, 'job-1');
    expect(result).toMatchObject({ Arn: started.Arn, JobStatus: 'COMPLETED' });
    expect(result.ErrorInfo).toBeUndefined();
    const group = result.Result?.AnonymousUsers?.[0]?.FileGroups?.[0];
    expect(group?.Files).toEqual(csvGroup().Files);
    expect(group?.S3Results).toHaveLength(1);
  });

  // The 12-job limit: https://docs.aws.amazon.com/quicksight/latest/APIReference/API_StartDashboardSnapshotJob.html.
  // Counting QUEUED jobs toward it, and failing a job the emulator was stopped in the middle of, are the emulator's own
  // choices (nearest page: that one, which counts RUNNING jobs).
  it('fails a job the emulator was stopped in the middle of, and refuses a 13th running job', async () => {
    const qs = await start({ snapshotJobStepMs: 60_000 });
    for (let i = 1; i <= 12; i += 1) {
      await qs.client.send(new StartDashboardSnapshotJobCommand(jobInput(`job-${i}`, [tag(NORTHWIND)])));
    }
    expect(
      await sdkError(qs.client.send(new StartDashboardSnapshotJobCommand(jobInput('job-13', [tag(NORTHWIND)])))),
    ).toMatchObject({
      name: 'LimitExceededException',
      status: 409,
    });
    await qs.emulator.close();
    const again = await start({}, qs);
    expect((await describeJob(again, 'job-1')).JobStatus).toBe('FAILED');
    expect((await describeResult(again, 'job-1')).ErrorInfo).toMatchObject({ ErrorType: 'INTERNAL_FAILURE' });
    await again.client.send(new StartDashboardSnapshotJobCommand(jobInput('job-13', [tag(NORTHWIND)])));
  });
});

describe('snapshot files hold only the rows the anonymous user’s tags allow', () => {
  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_SnapshotAnonymousUser.html (RowLevelPermissionTags)
  // and https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RowLevelPermissionTagRule.html.
  it('makes a CSV of the table visual with the header and Northwind’s rows only', async () => {
    const qs = await start();
    const [url] = await runJob(qs, jobInput('northwind', [tag(NORTHWIND)]));
    expect(url).toMatch(new RegExp(`^${qs.emulator.url}/snapshot-files/[A-Za-z0-9_-]{43}/${TABLE}\\.csv$`));
    const bytes = await download(url ?? '');
    expect(bytes.toString('utf8').split('\r\n')[0]).toBe(CSV_HEADER);
    const [header, ...rows] = csvRecords(bytes);
    expect(header).toEqual(CSV_HEADER.split(','));
    expect(rows).toEqual(expectedRows([NORTHWIND]));
    expect(rows.length).toBeGreaterThan(0);
  });

  // TagMultiValueDelimiter:
  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RowLevelPermissionTagRule.html.
  it('splits a value with the rule’s delimiter: Northwind and Contoso, never Fabrikam', async () => {
    const qs = await start();
    const [url] = await runJob(qs, jobInput('two', [tag(`${NORTHWIND},${CONTOSO}`)]));
    const text = (await download(url ?? '')).toString('utf8');
    const [, ...rows] = csvRecords(Buffer.from(text));
    expect(rows).toEqual(expectedRows([NORTHWIND, CONTOSO]));
    expect(text).not.toContain(FABRIKAM);
  });

  // MatchAllValue: https://docs.aws.amazon.com/quicksight/latest/APIReference/API_RowLevelPermissionTagRule.html.
  it('gives every row for the match-all value', async () => {
    const qs = await start();
    const [url] = await runJob(qs, jobInput('all', [tag('*')]));
    expect(csvRecords(await download(url ?? '')).slice(1)).toEqual(expectedRows([NORTHWIND, CONTOSO, FABRIKAM]));
  });

  // A CSV holding the header only when the tags let no row through is the emulator's own choice (nearest page:
  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_StartDashboardSnapshotJob.html, which does not say
  // what a file without rows holds).
  it.each([
    ['no tags at all', undefined],
    ['another tag key only', [tag(NORTHWIND, 'region')]],
    ['the key in another case', [tag(NORTHWIND, 'Company')]],
    ['the value in another case', [tag(NORTHWIND.toUpperCase())]],
  ])('gives the header only with %s', async (_case, tags) => {
    const qs = await start();
    const [url] = await runJob(qs, jobInput('none', tags));
    expect(csvRecords(await download(url ?? ''))).toEqual([CSV_HEADER.split(',')]);
  });

  // FormatType PDF: https://docs.aws.amazon.com/quicksight/latest/APIReference/API_SnapshotFile.html.
  it('makes a PDF that a PDF library reads, with the dashboard, the sheet and Northwind’s rows only', async () => {
    const qs = await start();
    const [csvUrl, pdfUrl] = await runJob(qs, jobInput('both', [tag(NORTHWIND)], [csvGroup(), pdfGroup()]));
    expect(csvUrl).toMatch(/\.csv$/);
    const bytes = await download(pdfUrl ?? '');
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { pages, text } = await pdfText(bytes);
    const rows = expectedRows([NORTHWIND]);
    expect(pages).toBeGreaterThan(1);
    expect(text).toContain('Sales Performance');
    expect(text).toContain('Sheet: Overview');
    expect(text).toContain(`${rows.length} rows in view`);
    for (const distributor of new Set(rows.map((row) => row[2]))) expect(text).toContain(distributor);
    expect(text.split('\n').filter((line) => line === NORTHWIND)).toHaveLength(rows.length);
    expect(text).not.toContain(CONTOSO);
    expect(text).not.toContain(FABRIKAM);
  });

  // The PDF's wording is the emulator's own choice (nearest page:
  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_SnapshotFile.html).
  it('says so in the PDF when no row is in view', async () => {
    const qs = await start();
    const [url] = await runJob(qs, jobInput('empty-pdf', [tag('Nobody')], [pdfGroup()]));
    const { pages, text } = await pdfText(await download(url ?? ''));
    expect(pages).toBe(1);
    expect(text).toContain('0 rows in view');
    for (const company of SAMPLE_COMPANIES) expect(text).not.toContain(company);
  });

  // FAILED with ErrorInfo:
  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_DescribeDashboardSnapshotJobResult.html. The
  // ErrorType RLS_TAGS_NOT_CONFIGURED is the emulator's own choice (nearest page:
  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_SnapshotJobErrorInfo.html, which lists no values).
  it('fails the job, delivering nothing, when a dataset behind the dashboard has no tag rules', async () => {
    const withoutRules = await start({ rowLevelPermissionTagConfiguration: undefined });
    await withoutRules.client.send(new StartDashboardSnapshotJobCommand(jobInput('no-rules', [tag('*')])));
    expect((await ended(withoutRules, 'no-rules')).at(-1)).toBe('FAILED');
    const result = await describeResult(withoutRules, 'no-rules');
    expect(result).toMatchObject({ JobStatus: 'FAILED', ErrorInfo: { ErrorType: 'RLS_TAGS_NOT_CONFIGURED' } });
    expect(result.ErrorInfo?.ErrorMessage).toContain('distributor-monthly-facts');
    expect(result.Result).toBeUndefined();

    // The benchmarks' dataset is not company-scoped: it never has tag rules.
    const qs = await start();
    const input = jobInput(
      'benchmarks',
      [tag('*')],
      [csvGroup(['market-benchmarks-table'], 'market-benchmarks-sheet-1')],
      'market-benchmarks',
    );
    await qs.client.send(new StartDashboardSnapshotJobCommand(input));
    expect((await ended(qs, 'benchmarks', 'market-benchmarks')).at(-1)).toBe('FAILED');
  });

  // "5 CSVs from table or pivot table visuals":
  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_StartDashboardSnapshotJob.html.
  it('makes a CSV per selected visual of a CSV file (up to five)', async () => {
    const qs = await start();
    const selections = [1, 2].map(() => ({
      SheetId: SHEET,
      SelectionScope: 'SELECTED_VISUALS' as const,
      VisualIds: [TABLE],
    }));
    const urls = await runJob(
      qs,
      jobInput('pair', [tag(CONTOSO)], [{ Files: [{ FormatType: 'CSV', SheetSelections: selections }] }]),
    );
    expect(urls).toHaveLength(2);
    expect(new Set(urls).size).toBe(2);
  });
});

describe('finding what to snapshot', () => {
  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_DescribeDashboardDefinition.html
  it('gives the sheet and its table visual through DescribeDashboardDefinition, as a caller finds them', async () => {
    const qs = await start();
    const described = await qs.client.send(
      new DescribeDashboardDefinitionCommand({ AwsAccountId: ACCOUNT_ID, DashboardId: 'distributor-scorecard' }),
    );
    expect(described).toMatchObject({ DashboardId: 'distributor-scorecard', ResourceStatus: 'CREATION_SUCCESSFUL' });
    expect(described.Definition?.DataSetIdentifierDeclarations).toEqual([
      {
        Identifier: 'distributor-monthly-facts',
        DataSetArn: `arn:aws:quicksight:${REGION}:${ACCOUNT_ID}:dataset/distributor-monthly-facts`,
      },
    ]);
    const sheet = described.Definition?.Sheets?.[0];
    const table = sheet?.Visuals?.find((visual) => visual.TableVisual)?.TableVisual;
    expect(sheet?.Visuals?.some((visual) => visual.KPIVisual)).toBe(true);
    const input = jobInput(
      'from-definition',
      [tag(FABRIKAM)],
      [csvGroup([table?.VisualId ?? ''], sheet?.SheetId ?? ''), pdfGroup(sheet?.SheetId ?? '')],
      'distributor-scorecard',
    );
    const [csvUrl, pdfUrl] = await runJob(qs, input);
    expect(csvRecords(await download(csvUrl ?? '')).slice(1)).toEqual(expectedRows([FABRIKAM]));
    expect((await pdfText(await download(pdfUrl ?? ''))).text).toContain('Sheet: Scorecard');
  });
});

describe('download links', () => {
  // The 5-minute lifetime and the S3-style 403 AccessDenied are the emulator's own choices (nearest pages:
  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_SnapshotJobS3Result.html, which gives the link no
  // lifetime, and https://docs.aws.amazon.com/quicksight/latest/APIReference/API_GenerateEmbedUrlForAnonymousUser.html,
  // whose URL is valid for 5 minutes).
  it('expire 5 minutes after they are handed out; a new result hands out a new one', async () => {
    const qs = await start();
    const [url] = await runJob(qs, jobInput('links', [tag(NORTHWIND)]));
    // 5 minutes.
    qs.clock.advance(5 * 60_000 + 1);
    const expired = await fetch(url ?? '');
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('<Code>AccessDenied</Code><Message>Request has expired</Message>');
    const fresh = (await describeResult(qs, 'links')).Result?.AnonymousUsers?.[0]?.FileGroups?.[0]?.S3Results?.[0]
      ?.S3Uri;
    expect(fresh).not.toBe(url);
    expect(csvRecords(await download(fresh ?? '')).slice(1)).toEqual(expectedRows([NORTHWIND]));
  });

  // The S3-style 403 AccessDenied is the emulator's own choice (nearest page:
  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_SnapshotJobS3Result.html).
  it('refuse an unknown token and a link whose file name was changed', async () => {
    const qs = await start();
    const [url] = await runJob(qs, jobInput('tokens', [tag(NORTHWIND)]));
    const token = /snapshot-files\/([^/]+)\//.exec(url ?? '')?.[1] ?? '';
    const forged = `${qs.emulator.url}/snapshot-files/${'A'.repeat(43)}/${TABLE}.csv`;
    for (const bad of [forged, (url ?? '').replace('.csv', '.pdf'), `${qs.emulator.url}/snapshot-files/${token}`]) {
      const response = await fetch(bad);
      expect(response.status).toBe(403);
      expect(await response.text()).toContain('<Code>AccessDenied</Code>');
    }
  });
});

describe('job IDs', () => {
  // SnapshotJobId and ResourceExistsException:
  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_StartDashboardSnapshotJob.html.
  it('refuses a job ID in use on the dashboard, until 24 hours after the job ended', async () => {
    const qs = await start();
    await qs.client.send(new StartDashboardSnapshotJobCommand(jobInput('daily', [tag(NORTHWIND)])));
    const again = () => qs.client.send(new StartDashboardSnapshotJobCommand(jobInput('daily', [tag(CONTOSO)])));
    expect(await sdkError(again())).toMatchObject({ name: 'ResourceExistsException', status: 409 });
    await ended(qs, 'daily');
    expect(await sdkError(again())).toMatchObject({ name: 'ResourceExistsException' });
    // The ID is the dashboard's: another dashboard may use it.
    const other = jobInput(
      'daily',
      [tag(NORTHWIND)],
      [csvGroup(['inventory-margins-table'], 'inventory-margins-sheet-1')],
      'inventory-margins',
    );
    await qs.client.send(new StartDashboardSnapshotJobCommand(other));

    // 24 hours after the job ended.
    qs.clock.advance(24 * 60 * 60_000 + 1);
    expect(await sdkError(describeJob(qs, 'daily'))).toMatchObject({ name: 'ResourceNotFoundException' });
    expect((await again()).SnapshotJobId).toBe('daily');
    expect((await ended(qs, 'daily')).at(-1)).toBe('COMPLETED');
  });

  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_DescribeDashboardSnapshotJob.html and
  // API_DescribeDashboardSnapshotJobResult.html (errors).
  it('answers ResourceNotFoundException for a job that does not exist', async () => {
    const qs = await start();
    expect(await sdkError(describeJob(qs, 'missing'))).toMatchObject({
      name: 'ResourceNotFoundException',
      status: 404,
    });
    expect(await sdkError(describeResult(qs, 'missing'))).toMatchObject({ name: 'ResourceNotFoundException' });
    // DescribeDashboardSnapshotJob lists no InvalidParameterValueException: a malformed ID is not found.
    expect(await sdkError(describeJob(qs, 'bad id!'))).toMatchObject({ name: 'ResourceNotFoundException' });
    expect(await sdkError(describeResult(qs, 'bad id!'))).toMatchObject({ name: 'InvalidParameterValueException' });
    expect(await sdkError(describeJob(qs, 'missing', 'no-such-dashboard'))).toMatchObject({
      name: 'ResourceNotFoundException',
    });
  });
});

const file = (FormatType: 'CSV' | 'PDF' | 'EXCEL', SheetSelections: unknown[]) => ({
  Files: [{ FormatType, SheetSelections }],
});
const selected = (VisualIds?: string[], SheetId = SHEET) => ({
  SheetId,
  SelectionScope: 'SELECTED_VISUALS',
  VisualIds,
});
const all = (SheetId = SHEET) => ({ SheetId, SelectionScope: 'ALL_VISUALS' });

describe('StartDashboardSnapshotJob refuses what QuickSight refuses', () => {
  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_StartDashboardSnapshotJob.html and the pages of its
  // members (SnapshotUserConfiguration, SessionTag, SnapshotConfiguration, SnapshotFile, SnapshotFileSheetSelection);
  // refusing what the emulator does not make (registered users, Excel, S3 destinations, parameters) is its own choice.
  it.each<[string, (input: Record<string, unknown>) => void, string]>([
    ['no UserConfiguration (registered users)', (i) => delete i.UserConfiguration, 'UserConfiguration is required'],
    ['no anonymous user', (i) => (i.UserConfiguration = { AnonymousUsers: [] }), 'exactly one anonymous user'],
    ['two anonymous users', (i) => (i.UserConfiguration = { AnonymousUsers: [{}, {}] }), 'exactly one anonymous user'],
    [
      '51 tags',
      (i) =>
        (i.UserConfiguration = {
          AnonymousUsers: [{ RowLevelPermissionTags: Array.from({ length: 51 }, (_, n) => tag('x', `k${n}`)) }],
        }),
      'Too big',
    ],
    [
      'an empty tag list',
      (i) => (i.UserConfiguration = { AnonymousUsers: [{ RowLevelPermissionTags: [] }] }),
      'Too small',
    ],
    [
      'a tag key of 129 characters',
      (i) => (i.UserConfiguration = { AnonymousUsers: [{ RowLevelPermissionTags: [tag('x', 'k'.repeat(129))] }] }),
      'Key',
    ],
    [
      'an empty tag value',
      (i) => (i.UserConfiguration = { AnonymousUsers: [{ RowLevelPermissionTags: [tag('')] }] }),
      'Value',
    ],
    [
      'a tag value of 257 characters',
      (i) => (i.UserConfiguration = { AnonymousUsers: [{ RowLevelPermissionTags: [tag('v'.repeat(257))] }] }),
      'Value',
    ],
    [
      'a tag key twice',
      (i) => (i.UserConfiguration = { AnonymousUsers: [{ RowLevelPermissionTags: [tag(NORTHWIND), tag(CONTOSO)] }] }),
      'more than once',
    ],
    ['a job ID with a space', (i) => (i.SnapshotJobId = 'job 1'), 'SnapshotJobId'],
    ['a job ID of 513 characters', (i) => (i.SnapshotJobId = 'j'.repeat(513)), 'SnapshotJobId'],
    ['no SnapshotConfiguration', (i) => delete i.SnapshotConfiguration, 'SnapshotConfiguration'],
    ['no file groups', (i) => (i.SnapshotConfiguration = { FileGroups: [] }), 'FileGroups'],
    [
      '8 file groups',
      (i) => (i.SnapshotConfiguration = { FileGroups: Array.from({ length: 8 }, () => csvGroup()) }),
      'FileGroups',
    ],
    [
      'a group of two files',
      (i) => (i.SnapshotConfiguration = { FileGroups: [{ Files: [...csvGroup().Files, ...pdfGroup().Files] }] }),
      'exactly one file',
    ],
    [
      'an unknown format',
      (i) => (i.SnapshotConfiguration = { FileGroups: [file('DOCX' as 'CSV', [all()])] }),
      'FormatType',
    ],
    [
      'a PDF of selected visuals',
      (i) => (i.SnapshotConfiguration = { FileGroups: [file('PDF', [selected([TABLE])])] }),
      'ALL_VISUALS',
    ],
    [
      'a PDF of two sheet selections',
      (i) => (i.SnapshotConfiguration = { FileGroups: [file('PDF', [all(), all()])] }),
      '1 configuration for PDF',
    ],
    [
      'a PDF naming visuals',
      (i) => (i.SnapshotConfiguration = { FileGroups: [file('PDF', [{ ...all(), VisualIds: [TABLE] }])] }),
      'VisualIds',
    ],
    ['two PDFs', (i) => (i.SnapshotConfiguration = { FileGroups: [pdfGroup(), pdfGroup()] }), '1 PDF'],
    [
      'a CSV of all visuals',
      (i) => (i.SnapshotConfiguration = { FileGroups: [file('CSV', [all()])] }),
      'SELECTED_VISUALS',
    ],
    [
      'a CSV without VisualIds',
      (i) => (i.SnapshotConfiguration = { FileGroups: [file('CSV', [selected()])] }),
      'VisualIds is required',
    ],
    [
      'a CSV of two visuals',
      (i) => (i.SnapshotConfiguration = { FileGroups: [file('CSV', [selected([TABLE, TABLE])])] }),
      '1 visual for CSV',
    ],
    [
      'a CSV of a KPI visual',
      (i) => (i.SnapshotConfiguration = { FileGroups: [csvGroup(['sales-performance-kpis'])] }),
      'not a table',
    ],
    [
      'a CSV of a visual of another dashboard',
      (i) => (i.SnapshotConfiguration = { FileGroups: [csvGroup(['inventory-margins-table'])] }),
      'not a visual',
    ],
    [
      'a visual ID in another case',
      (i) => (i.SnapshotConfiguration = { FileGroups: [csvGroup(['Sales-Performance-Table'])] }),
      'not a visual',
    ],
    [
      'a sheet of another dashboard',
      (i) => (i.SnapshotConfiguration = { FileGroups: [pdfGroup('inventory-margins-sheet-1')] }),
      'not a sheet',
    ],
    [
      'a sheet ID in another case',
      (i) => (i.SnapshotConfiguration = { FileGroups: [pdfGroup(SHEET.toUpperCase())] }),
      'not a sheet',
    ],
    [
      'six CSVs',
      (i) =>
        (i.SnapshotConfiguration = {
          FileGroups: [
            file(
              'CSV',
              Array.from({ length: 5 }, () => selected([TABLE])),
            ),
            csvGroup(),
          ],
        }),
      '5 CSVs',
    ],
    [
      'an Excel workbook (not emulated)',
      (i) => (i.SnapshotConfiguration = { FileGroups: [file('EXCEL', [selected([TABLE])])] }),
      'EXCEL is not supported',
    ],
    [
      'an Excel workbook of all visuals',
      (i) => (i.SnapshotConfiguration = { FileGroups: [file('EXCEL', [all()])] }),
      'SELECTED_VISUALS',
    ],
    [
      'an S3 destination (not emulated)',
      (i) =>
        (i.SnapshotConfiguration = {
          FileGroups: [csvGroup()],
          DestinationConfiguration: {
            S3Destinations: [{ BucketConfiguration: { BucketName: 'b', BucketPrefix: 'p', BucketRegion: REGION } }],
          },
        }),
      'S3Destinations is not supported',
    ],
    [
      'a blank bucket name',
      (i) =>
        (i.SnapshotConfiguration = {
          FileGroups: [csvGroup()],
          DestinationConfiguration: {
            S3Destinations: [{ BucketConfiguration: { BucketName: ' ', BucketPrefix: 'p', BucketRegion: REGION } }],
          },
        }),
      'BucketName',
    ],
    [
      'parameters (not emulated)',
      (i) =>
        (i.SnapshotConfiguration = {
          FileGroups: [csvGroup()],
          Parameters: { StringParameters: [{ Name: 'company', Values: [NORTHWIND] }] },
        }),
      'Parameters is not supported',
    ],
  ])('refuses %s with InvalidParameterValueException and starts no job', async (_case, change, saying) => {
    const qs = await start();
    const input = jobInput('refused', [tag(NORTHWIND)]) as unknown as Record<string, unknown>;
    change(input);
    const refused = await sdkError(qs.client.send(new StartDashboardSnapshotJobCommand(input as never)));
    expect(refused).toMatchObject({ name: 'InvalidParameterValueException', status: 400 });
    expect(refused.message).toContain(saying);
    if (typeof input.SnapshotJobId === 'string' && /^[\w-]{1,512}$/.test(input.SnapshotJobId)) {
      expect(await sdkError(describeJob(qs, input.SnapshotJobId))).toMatchObject({ name: 'ResourceNotFoundException' });
    }
  });

  // https://docs.aws.amazon.com/quicksight/latest/APIReference/API_StartDashboardSnapshotJob.html (errors).
  it('refuses an unknown dashboard with ResourceNotFoundException and another account with AccessDeniedException', async () => {
    const qs = await start();
    expect(
      await sdkError(
        qs.client.send(
          new StartDashboardSnapshotJobCommand(jobInput('j', [tag(NORTHWIND)], [csvGroup()], 'no-such-dashboard')),
        ),
      ),
    ).toMatchObject({ name: 'ResourceNotFoundException', status: 404 });
    expect(
      await sdkError(
        qs.client.send(
          new StartDashboardSnapshotJobCommand({ ...jobInput('j', [tag(NORTHWIND)]), AwsAccountId: '210987654321' }),
        ),
      ),
    ).toMatchObject({ name: 'AccessDeniedException' });
  });
});
