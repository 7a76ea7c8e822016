import {
  DescribeDashboardDefinitionCommand,
  DescribeDashboardSnapshotJobCommand,
  DescribeDashboardSnapshotJobResultCommand,
  StartDashboardSnapshotJobCommand,
} from '@aws-sdk/client-quicksight';
import { ENV } from '#contracts/env.ts';
import { companyTags, fileSheetSelection, snapshotFile, type FileSheetSelection } from '#contracts/snapshot-files.ts';
import type { SubscriptionFormat } from '#contracts/subscriptions.ts';
import { quicksight } from '../shared/aws/quicksight.ts';
import { download } from '../shared/download.ts';
import { optionalEnv } from '../shared/env.ts';
import { quicksightSettings } from '../shared/quicksight.ts';

/**
 * One dashboard file made by QuickSight for an anonymous user whose rows are chosen by
 * row-level-security tags (StartDashboardSnapshotJob with UserConfiguration.AnonymousUsers):
 * the tag `company` carries the subscriber's companies, joined with the delimiter the datasets'
 * tag rules declare (contracts/companies.ts tagRulesProblem), so a dataset shows exactly those companies' rows.
 * The job runs asynchronously: it is started, described until it ends, and its result holds a
 * short-lived URL of the file (DescribeDashboardSnapshotJobResult).
 */
export class SnapshotError extends Error {
  constructor(
    message: string,
    /** False when trying again cannot help (the dashboard cannot make this file). */
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'SnapshotError';
  }
}

/** The part of the dashboard the file holds (contracts/snapshot-files.ts), from its definition. */
export const sheetSelection = async (dashboardId: string, format: SubscriptionFormat): Promise<FileSheetSelection> => {
  const { accountId } = quicksightSettings();
  const described = await quicksight.send(
    new DescribeDashboardDefinitionCommand({ AwsAccountId: accountId, DashboardId: dashboardId }),
  );
  const selection = fileSheetSelection(described.Definition, format);
  if (typeof selection === 'string') throw new SnapshotError(selection, false);
  return selection;
};

export interface SnapshotRequest {
  readonly jobId: string;
  readonly dashboardId: string;
  readonly format: SubscriptionFormat;
  /** The companies whose rows the file holds (names, as the rules' company column holds them). */
  readonly companies: readonly string[];
  /** The part of the dashboard the file holds ({@link sheetSelection}). */
  readonly selection: FileSheetSelection;
}

export const startSnapshot = async (request: SnapshotRequest): Promise<void> => {
  const { accountId } = quicksightSettings();
  await quicksight.send(
    new StartDashboardSnapshotJobCommand({
      AwsAccountId: accountId,
      DashboardId: request.dashboardId,
      SnapshotJobId: request.jobId,
      UserConfiguration: {
        AnonymousUsers: [{ RowLevelPermissionTags: companyTags(request.companies) }],
      },
      SnapshotConfiguration: {
        FileGroups: [{ Files: [{ FormatType: request.format, SheetSelections: [request.selection] }] }],
      },
    }),
  );
};

export type SnapshotState = { readonly done: false } | { readonly done: true; readonly url: string };

/** The job's state: running, or its file's URL once it completed; a failed job throws its error. */
export const snapshotState = async (dashboardId: string, jobId: string): Promise<SnapshotState> => {
  const { accountId } = quicksightSettings();
  const ids = { AwsAccountId: accountId, DashboardId: dashboardId, SnapshotJobId: jobId };
  const job = await quicksight.send(new DescribeDashboardSnapshotJobCommand(ids));
  if (job.JobStatus === 'QUEUED' || job.JobStatus === 'RUNNING') return { done: false };
  const file = snapshotFile(job.JobStatus, await quicksight.send(new DescribeDashboardSnapshotJobResultCommand(ids)));
  if ('error' in file) throw new SnapshotError(`QuickSight could not make the file: ${file.error}`, true);
  return { done: true, url: file.url };
};

/** How long the file's download may take: it is one file of at most a few megabytes. */
const DOWNLOAD_TIMEOUT_MS = 60_000;

/** The file behind the result's URL. */
export const downloadSnapshot = async (url: string): Promise<Uint8Array> => {
  try {
    return await download(url, { ca: optionalEnv(ENV.localCaCertificate), timeoutMs: DOWNLOAD_TIMEOUT_MS });
  } catch (error) {
    throw new SnapshotError(`The file could not be downloaded (${(error as Error).message})`, true);
  }
};
