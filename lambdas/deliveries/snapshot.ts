import {
  DescribeDashboardDefinitionCommand,
  DescribeDashboardSnapshotJobCommand,
  DescribeDashboardSnapshotJobResultCommand,
  StartDashboardSnapshotJobCommand,
} from '@aws-sdk/client-quicksight';
import * as https from 'node:https';
import * as tls from 'node:tls';
import { ENV } from '#contracts/env.ts';
import { companyTags, fileSheetSelection, type FileSheetSelection } from '#contracts/snapshot-files.ts';
import type { SubscriptionFormat } from '#contracts/subscriptions.ts';
import { quicksight } from '../shared/aws/quicksight.ts';
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
  const result = await quicksight.send(new DescribeDashboardSnapshotJobResultCommand(ids));
  if (job.JobStatus === 'FAILED' || result.JobStatus === 'FAILED') {
    const info = result.ErrorInfo;
    throw new SnapshotError(
      `QuickSight could not make the file: ${info?.ErrorMessage ?? info?.ErrorType ?? 'failed'}`,
      true,
    );
  }
  const file = result.Result?.AnonymousUsers?.[0]?.FileGroups?.[0]?.S3Results?.[0];
  if (!file?.S3Uri || (file.ErrorInfo?.length ?? 0) > 0) {
    const error = file?.ErrorInfo?.[0];
    throw new SnapshotError(
      `QuickSight could not make the file: ${error?.ErrorMessage ?? error?.ErrorType ?? 'no file in the result'}`,
      true,
    );
  }
  return { done: true, url: file.S3Uri };
};

const downloadFailed = (status: number | string) =>
  new SnapshotError(`The file could not be downloaded (HTTP ${status})`, true);

/** A download that trusts `ca` (local mode's own certificate) besides the public ones. */
const downloadTrusting = (url: string, ca: string): Promise<Uint8Array> =>
  new Promise((resolve, reject) => {
    const request = https.get(url, { ca: [...tls.rootCertificates, ca] }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        reject(downloadFailed(response.statusCode ?? 'error'));
        return;
      }
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
      response.on('error', reject);
    });
    request.on('error', (error) => reject(downloadFailed(error.message)));
  });

/** The file behind the result's URL. */
export const downloadSnapshot = async (url: string): Promise<Uint8Array> => {
  const localCa = optionalEnv(ENV.localCaCertificate);
  if (localCa !== undefined && url.startsWith('https:')) return downloadTrusting(url, localCa);
  const response = await fetch(url);
  if (!response.ok) throw downloadFailed(response.status);
  return new Uint8Array(await response.arrayBuffer());
};
