import { findSampleDashboard, sampleSheetId, type SampleDashboard } from '#emulators/sample-dashboards/catalog.ts';
import type { MonthlyFact } from '#emulators/sample-dashboards/data/generator.ts';
import type { ApiContext } from './api-types.ts';
import { formatDelimited } from './csv.ts';
import type { StateStore } from './persistence.ts';
import type { SessionTag } from './rls-tags.ts';
import { SAMPLE_OUTPUT_COLUMNS, anonymousFacts, sampleRow } from './samples.ts';
import type { SnapshotFiles } from './snapshot-files.ts';
import { renderSnapshotPdf } from './snapshot-pdf.ts';
import { isFinished, type SnapshotOutput, type StoredSnapshotJob } from './state-snapshots.ts';

/**
 * A snapshot job's life after StartDashboardSnapshotJob answers: QUEUED, then RUNNING, then
 * COMPLETED with its files or FAILED with ErrorInfo ("COMPLETED - The job was completed
 * successfully. FAILED - The job failed to execute. QUEUED - The job is queued and hasn't started
 * yet. RUNNING - The job is still running", DescribeDashboardSnapshotJob's JobStatus,
 * https://docs.aws.amazon.com/quicksight/latest/APIReference/API_DescribeDashboardSnapshotJob.html).
 * Each of QUEUED and RUNNING lasts the emulator's `snapshotJobStepMs`. Rows are chosen when the job
 * runs, by the tag rules the datasets have then.
 *
 * A finished job is kept 24 hours: "You can reuse this ID for another job 24 hours after the
 * current job is completed" (StartDashboardSnapshotJob's SnapshotJobId). The reference says no
 * more of how long a job can be described; the emulator forgets it, and deletes its files, then.
 */

const SNAPSHOT_JOB_RETENTION_MS = 24 * 60 * 60_000;

/** ErrorType of a job whose datasets do not all have tag rules (the emulator's name: the reference lists none). */
const NO_TAG_RULES = 'RLS_TAGS_NOT_CONFIGURED';
const INTERNAL_FAILURE = 'INTERNAL_FAILURE';

const CSV_FORMAT = { delimiter: ',', qualifier: '"' };

async function makeFiles(
  files: SnapshotFiles,
  dashboard: SampleDashboard,
  job: StoredSnapshotJob,
  facts: readonly MonthlyFact[],
  now: number,
): Promise<SnapshotOutput[][]> {
  const columns = SAMPLE_OUTPUT_COLUMNS.map((column) => column.Name);
  const rows = facts.map(sampleRow);
  // Every CSV of a job holds the same rows: the text is formatted once, for the first CSV asked for.
  let csv: Buffer | undefined;
  const csvBytes = () => (csv ??= Buffer.from(formatDelimited([columns, ...rows], CSV_FORMAT), 'utf8'));
  const outputs: SnapshotOutput[][] = [];
  for (const group of job.configuration.FileGroups) {
    const made: SnapshotOutput[] = [];
    for (const file of group.Files) {
      if (file.FormatType === 'CSV') {
        // One CSV per selected table visual: the header and the rows in view.
        for (const visualId of file.SheetSelections.flatMap((selection) => selection.VisualIds ?? [])) {
          const fileId = await files.write(csvBytes());
          made.push({ fileId, fileName: `${visualId}.csv`, contentType: 'text/csv; charset=utf-8' });
        }
        continue;
      }
      const sheetId = file.SheetSelections[0]?.SheetId ?? '';
      const sheetName = dashboard.sheets.find((_name, index) => sampleSheetId(dashboard, index) === sheetId) ?? sheetId;
      const pdf = await renderSnapshotPdf({ dashboardName: dashboard.name, sheetName, createdAt: now, columns, rows });
      made.push({ fileId: await files.write(pdf), fileName: `${sheetId}.pdf`, contentType: 'application/pdf' });
    }
    outputs.push(made);
  }
  return outputs;
}

async function finish(context: ApiContext, job: StoredSnapshotJob, tags: readonly SessionTag[]): Promise<void> {
  const end = (ended: Partial<StoredSnapshotJob>) =>
    context.store.commit({ type: 'putSnapshotJob', job: { ...job, ...ended, updatedAt: context.now() } });
  const dashboard = findSampleDashboard(job.dashboardId);
  const seen = dashboard && anonymousFacts(context, dashboard, tags);
  if (!dashboard || !seen) {
    await end({ status: 'FAILED', errorInfo: { ErrorType: INTERNAL_FAILURE, ErrorMessage: 'The dashboard is gone' } });
    return;
  }
  if ('refusal' in seen) {
    await end({ status: 'FAILED', errorInfo: { ErrorType: NO_TAG_RULES, ErrorMessage: seen.refusal } });
    return;
  }
  let outputs: SnapshotOutput[][];
  try {
    outputs = await makeFiles(context.snapshots.files, dashboard, job, seen.facts, context.now());
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await end({ status: 'FAILED', errorInfo: { ErrorType: INTERNAL_FAILURE, ErrorMessage: message } });
    return;
  }
  await end({ status: 'COMPLETED', outputs });
}

/** Moves a QUEUED job on: RUNNING after one step, ended after another. */
export function runSnapshotJobLater(context: ApiContext, job: StoredSnapshotJob, tags: readonly SessionTag[]): void {
  const key = `snapshot-job:${job.dashboardId}:${job.snapshotJobId}`;
  context.later(key, context.snapshots.stepMs, async () => {
    const running: StoredSnapshotJob = { ...job, status: 'RUNNING', updatedAt: context.now() };
    await context.store.commit({ type: 'putSnapshotJob', job: running });
    context.later(key, context.snapshots.stepMs, () => finish(context, running, tags));
  });
}

const expired = (job: StoredSnapshotJob, now: number) =>
  isFinished(job) && now - job.updatedAt > SNAPSHOT_JOB_RETENTION_MS;

async function forget(store: StateStore, files: SnapshotFiles, job: StoredSnapshotJob): Promise<void> {
  await store.commit({ type: 'deleteSnapshotJob', dashboardId: job.dashboardId, snapshotJobId: job.snapshotJobId });
  await files.remove((job.outputs ?? []).flat().map((output) => output.fileId));
}

/** A job the emulator still keeps; one past its retention is forgotten (and its files deleted) first. */
export async function keptSnapshotJob(
  context: ApiContext,
  dashboardId: string,
  snapshotJobId: string,
): Promise<StoredSnapshotJob | undefined> {
  const job = context.store.state.snapshotJobs.job(dashboardId, snapshotJobId);
  if (!job || !expired(job, context.now())) return job;
  await forget(context.store, context.snapshots.files, job);
  return undefined;
}

/**
 * At start: a job the emulator was stopped in the middle of never ends by itself (its tag values
 * were never kept), so it failed; jobs past their retention are forgotten.
 */
export async function settleSnapshotJobs(store: StateStore, files: SnapshotFiles, now: number): Promise<void> {
  for (const job of store.state.snapshotJobs.all()) {
    if (!isFinished(job)) {
      const errorInfo = { ErrorType: INTERNAL_FAILURE, ErrorMessage: 'The emulator stopped before the job ended' };
      await store.commit({ type: 'putSnapshotJob', job: { ...job, status: 'FAILED', updatedAt: now, errorInfo } });
    } else if (expired(job, now)) {
      await forget(store, files, job);
    }
  }
}
