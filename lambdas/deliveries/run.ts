import { dueSubscriptions } from '../shared/data/subscription-items.ts';
import type { Logger } from '../shared/logger.ts';

/**
 * One run of the delivery schedule (every 5 minutes): the subscriptions due, earliest first, at
 * most {@link DELIVERIES_PER_RUN} (the rest stay due and wait for the next run: the due index is
 * the queue that keeps QuickSight's snapshot-job quotas), each taken with a lease, checked again,
 * made by QuickSight as an anonymous user tagged with the subscriber's companies, and mailed.
 */
const DELIVERIES_PER_RUN = 10;

export interface RunOptions {
  readonly logger: Logger;
  /** Epoch milliseconds at which the run stops waiting on QuickSight (the function's time left, less a margin). */
  readonly deadline: number;
  readonly pollMs?: number;
}

export interface RunSummary {
  readonly due: number;
  readonly delivered: number;
  readonly retrying: number;
  readonly failed: number;
  readonly canceled: number;
  readonly skipped: number;
}

/**
 * Delivers what is due at `now`. A run with nothing due (most of them) reads the due index and
 * loads nothing else: the code and clients that make and mail a file are loaded with the first due.
 */
export const runDeliveries = async (now: Date, options: RunOptions): Promise<RunSummary> => {
  const due = await dueSubscriptions(now, DELIVERIES_PER_RUN);
  if (due.length === 0) return { due: 0, delivered: 0, retrying: 0, failed: 0, canceled: 0, skipped: 0 };
  const { deliverDue } = await import('./deliver.ts');
  return deliverDue(due, now, options);
};
