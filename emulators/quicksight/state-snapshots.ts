import { z } from 'zod';
import { snapshotConfigurationSchema } from './snapshot-shapes.ts';

/**
 * Dashboard snapshot jobs: what StartDashboardSnapshotJob asked for, the job's status and, once it
 * ended, its files (kept under the data directory) or why it failed. Part of the emulator's state:
 * changed only through the changes below. The anonymous user's tag values are not kept: like
 * DescribeDashboardSnapshotJob's SnapshotAnonymousUserRedacted, a job remembers the tag keys only.
 */

const SNAPSHOT_JOB_STATUSES = ['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED'] as const;

const snapshotOutputSchema = z.object({
  /** Name of the file under the emulator's snapshot directory. */
  fileId: z.string(),
  fileName: z.string(),
  contentType: z.string(),
});
export type SnapshotOutput = z.infer<typeof snapshotOutputSchema>;

const storedSnapshotJobSchema = z.object({
  dashboardId: z.string(),
  snapshotJobId: z.string(),
  status: z.enum(SNAPSHOT_JOB_STATUSES),
  createdAt: z.number(),
  updatedAt: z.number(),
  tagKeys: z.array(z.string()),
  configuration: snapshotConfigurationSchema,
  /** Per file group of the configuration, the files it made (a CSV per sheet selection, or one PDF). */
  outputs: z.array(z.array(snapshotOutputSchema)).optional(),
  errorInfo: z.object({ ErrorType: z.string(), ErrorMessage: z.string() }).optional(),
});
export type StoredSnapshotJob = z.infer<typeof storedSnapshotJobSchema>;

export const snapshotChangeSchemas = [
  z.object({ type: z.literal('putSnapshotJob'), job: storedSnapshotJobSchema }),
  z.object({ type: z.literal('deleteSnapshotJob'), dashboardId: z.string(), snapshotJobId: z.string() }),
] as const;
export type SnapshotChange = z.infer<(typeof snapshotChangeSchemas)[number]>;

const SNAPSHOT_CHANGE_TYPES: ReadonlySet<string> = new Set(snapshotChangeSchemas.map((s) => s.shape.type.value));
export const isSnapshotChange = (change: { type: string }): change is SnapshotChange =>
  SNAPSHOT_CHANGE_TYPES.has(change.type);

/** Snapshots written before snapshot jobs were emulated have none: the list defaults to empty. */
export const snapshotJobsSnapshotSchema = z.object({
  snapshotJobs: z.array(storedSnapshotJobSchema).default([]),
});

/** A job's ID is unique per dashboard ("This ID is unique to the dashboard while the job is running"). */
const jobKey = (dashboardId: string, snapshotJobId: string) => `${dashboardId}\u0000${snapshotJobId}`;

export const isFinished = (job: StoredSnapshotJob) => job.status === 'COMPLETED' || job.status === 'FAILED';

export class SnapshotJobs {
  /** A Map, not an object: IDs come from requests. */
  private readonly jobs = new Map<string, StoredSnapshotJob>();

  constructor(jobs: readonly StoredSnapshotJob[] = []) {
    for (const job of jobs) this.jobs.set(jobKey(job.dashboardId, job.snapshotJobId), job);
  }

  apply(change: SnapshotChange): void {
    if (change.type === 'putSnapshotJob') {
      this.jobs.set(jobKey(change.job.dashboardId, change.job.snapshotJobId), change.job);
    } else {
      this.jobs.delete(jobKey(change.dashboardId, change.snapshotJobId));
    }
  }

  job(dashboardId: string, snapshotJobId: string): StoredSnapshotJob | undefined {
    return this.jobs.get(jobKey(dashboardId, snapshotJobId));
  }

  /** Jobs in start order. */
  all(): StoredSnapshotJob[] {
    return [...this.jobs.values()];
  }

  /** Jobs that have not ended (QUEUED or RUNNING). */
  unfinished(): StoredSnapshotJob[] {
    return this.all().filter((job) => !isFinished(job));
  }

  toSnapshot(): StoredSnapshotJob[] {
    return this.all();
  }
}
