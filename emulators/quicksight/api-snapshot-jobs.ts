import type { SampleDashboard } from '#emulators/sample-dashboards/catalog.ts';
import { dashboardById } from './api-dashboards.ts';
import { snapshotJobArn } from './arns.ts';
import { QuickSightError, invalidParameter } from './errors.ts';
import { parseBody, requireAccount } from './input.ts';
import { anonymousTags, requireValidSnapshotConfiguration } from './snapshot-request.ts';
import { keptSnapshotJob, runSnapshotJobLater } from './snapshot-run.ts';
import { SHORT_RESTRICTIVE_ID, startSnapshotJobSchema } from './snapshot-shapes.ts';
import type { StoredSnapshotJob } from './state-snapshots.ts';
import { epochSeconds, type ApiContext, type ApiOperation, type ApiRequest } from './api-types.ts';

/**
 * StartDashboardSnapshotJob, DescribeDashboardSnapshotJob and DescribeDashboardSnapshotJobResult
 * (https://docs.aws.amazon.com/quicksight/latest/APIReference/API_StartDashboardSnapshotJob.html,
 * API_DescribeDashboardSnapshotJob.html, API_DescribeDashboardSnapshotJobResult.html) for anonymous
 * users whose rows are chosen by row-level security tags, making CSV and PDF files of the sample
 * dashboards that a link in the result downloads. Each operation answers only the errors its page
 * lists: DescribeDashboardSnapshotJob lists no InvalidParameterValueException, so a malformed job
 * ID is a job it does not find.
 */

/**
 * "By default, 12 jobs can run simlutaneously in one Amazon Web Services account ... there are
 * already 12 jobs with the RUNNING status, the new job request fails and returns a
 * LimitExceededException error." The emulator's choice beyond the page: its QUEUED jobs count as
 * running too, so no more than 12 jobs are ever waiting or running.
 */
const MAX_RUNNING_JOBS = 12;

const jobArn = (context: ApiContext, job: StoredSnapshotJob) =>
  snapshotJobArn(context.scope, job.dashboardId, job.snapshotJobId);

/**
 * The dashboard of the request's path, its account already checked: malformed, InvalidParameterValueException
 * where the operation lists it; unknown, ResourceNotFoundException.
 */
function targetDashboard(request: ApiRequest, invalidListed: boolean): SampleDashboard {
  const dashboardId = request.params.DashboardId ?? '';
  if (!SHORT_RESTRICTIVE_ID.test(dashboardId) && invalidListed) {
    throw invalidParameter('DashboardId must be 1-512 letters, digits, underscores or hyphens');
  }
  return dashboardById(dashboardId);
}

const jobNotFound = (dashboardId: string, snapshotJobId: string) =>
  new QuickSightError(
    'ResourceNotFoundException',
    `Dashboard Snapshot Job with id ${snapshotJobId} is not found for dashboard ${dashboardId}`,
  );

/** The kept job of the request's path, or ResourceNotFoundException. */
async function targetJob(
  request: ApiRequest,
  context: ApiContext,
  dashboard: SampleDashboard,
  invalidListed: boolean,
): Promise<StoredSnapshotJob> {
  const snapshotJobId = request.params.SnapshotJobId ?? '';
  if (!SHORT_RESTRICTIVE_ID.test(snapshotJobId) && invalidListed) {
    throw invalidParameter('SnapshotJobId must be 1-512 letters, digits, underscores or hyphens');
  }
  const job = await keptSnapshotJob(context, dashboard.dashboardId, snapshotJobId);
  if (!job) throw jobNotFound(dashboard.dashboardId, snapshotJobId);
  return job;
}

/** Members both describe operations answer. */
const jobTimes = (context: ApiContext, job: StoredSnapshotJob) => ({
  Arn: jobArn(context, job),
  JobStatus: job.status,
  CreatedTime: epochSeconds(job.createdAt),
  LastUpdatedTime: epochSeconds(job.updatedAt),
});

/**
 * S3Uri of a link: on the emulator's https origin where it has one (the reference's pattern is
 * `^(https|s3)://`); an emulator started without `embedPages` has only its http origin to give.
 */
function downloadUrl(context: ApiContext, path: string): string {
  const origin = context.embedBaseUrl.startsWith('https:') ? context.embedBaseUrl : context.baseUrl;
  return `${origin}${path}`;
}

/** SnapshotJobResult of a COMPLETED job: per file group its files, each with a new download link. */
function jobResult(context: ApiContext, job: StoredSnapshotJob) {
  const now = context.now();
  return {
    AnonymousUsers: [
      {
        FileGroups: job.configuration.FileGroups.map((group, index) => ({
          Files: group.Files,
          S3Results: (job.outputs?.[index] ?? []).map((file) => ({
            S3Uri: downloadUrl(context, context.snapshots.files.link(file, now)),
          })),
        })),
      },
    ],
  };
}

export const snapshotJobOperations: readonly ApiOperation[] = [
  {
    name: 'StartDashboardSnapshotJob',
    method: 'POST',
    path: '/accounts/{AwsAccountId}/dashboards/{DashboardId}/snapshot-jobs',
    async handle(request, context) {
      requireAccount(context.scope, request.params.AwsAccountId, 'StartDashboardSnapshotJob');
      const input = parseBody(startSnapshotJobSchema, request.body);
      const dashboard = targetDashboard(request, true);
      const tags = anonymousTags(input);
      requireValidSnapshotConfiguration(dashboard, input.SnapshotConfiguration);
      // SnapshotJobId: "This ID is unique to the dashboard while the job is running ... You can
      // reuse this ID for another job 24 hours after the current job is completed."
      if (await keptSnapshotJob(context, dashboard.dashboardId, input.SnapshotJobId)) {
        // No ResourceType: ExceptionResourceType has no value for a snapshot job.
        throw new QuickSightError(
          'ResourceExistsException',
          `Dashboard Snapshot Job with id ${input.SnapshotJobId} already exists for dashboard ${dashboard.dashboardId}`,
        );
      }
      if (context.store.state.snapshotJobs.unfinished().length >= MAX_RUNNING_JOBS) {
        throw new QuickSightError(
          'LimitExceededException',
          `${MAX_RUNNING_JOBS} snapshot jobs are already running in this account; wait for one to end`,
        );
      }
      const now = context.now();
      const job: StoredSnapshotJob = {
        dashboardId: dashboard.dashboardId,
        snapshotJobId: input.SnapshotJobId,
        status: 'QUEUED',
        createdAt: now,
        updatedAt: now,
        tagKeys: tags.map((tag) => tag.Key),
        configuration: input.SnapshotConfiguration,
      };
      await context.store.commit({ type: 'putSnapshotJob', job });
      runSnapshotJobLater(context, job, tags);
      return { status: 202, body: { Arn: jobArn(context, job), SnapshotJobId: job.snapshotJobId } };
    },
  },
  {
    name: 'DescribeDashboardSnapshotJob',
    method: 'GET',
    path: '/accounts/{AwsAccountId}/dashboards/{DashboardId}/snapshot-jobs/{SnapshotJobId}',
    async handle(request, context) {
      requireAccount(context.scope, request.params.AwsAccountId, 'DescribeDashboardSnapshotJob');
      const dashboard = targetDashboard(request, false);
      const job = await targetJob(request, context, dashboard, false);
      // SnapshotAnonymousUserRedacted: the tag keys only ("Sensitive user information is excluded").
      const redacted = job.tagKeys.length > 0 ? { RowLevelPermissionTagKeys: job.tagKeys } : {};
      return {
        body: {
          AwsAccountId: context.scope.accountId,
          DashboardId: job.dashboardId,
          SnapshotJobId: job.snapshotJobId,
          UserConfiguration: { AnonymousUsers: [redacted] },
          SnapshotConfiguration: job.configuration,
          ...jobTimes(context, job),
        },
      };
    },
  },
  {
    name: 'DescribeDashboardSnapshotJobResult',
    method: 'GET',
    path: '/accounts/{AwsAccountId}/dashboards/{DashboardId}/snapshot-jobs/{SnapshotJobId}/result',
    async handle(request, context) {
      requireAccount(context.scope, request.params.AwsAccountId, 'DescribeDashboardSnapshotJobResult');
      const dashboard = targetDashboard(request, true);
      const job = await targetJob(request, context, dashboard, true);
      // "If the job has not finished running, this operation returns a message that says Dashboard
      // Snapshot Job with id <SnapshotjobId> has not reached a terminal state." (as the listed
      // PreconditionNotMetException, "One or more preconditions aren't met").
      if (job.status === 'QUEUED' || job.status === 'RUNNING') {
        throw new QuickSightError(
          'PreconditionNotMetException',
          `Dashboard Snapshot Job with id ${job.snapshotJobId} has not reached a terminal state.`,
        );
      }
      return {
        body: {
          ...jobTimes(context, job),
          ...(job.status === 'COMPLETED' ? { Result: jobResult(context, job) } : { ErrorInfo: job.errorInfo }),
        },
      };
    },
  },
];
