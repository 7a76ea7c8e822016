import type { Logger } from '../shared/logger.ts';
import { USAGE_RECORD_FAILURES_METRIC } from '#contracts/metrics.ts';
import { recordDashboardView, usageRetentionDays, type ViewEvent } from '../shared/data/usage.ts';
import { countOne, createMetrics } from '../shared/metrics.ts';
import { companyNamesOfUser } from '../shared/data/companies.ts';

const metrics = createMetrics('embed');

/**
 * How long an embed answer may wait for its view to be recorded. The writes run in parallel
 * (two rounds, three on a user's first view of a day), a few milliseconds each in DynamoDB;
 * past this the answer goes out and the recording counts as failed.
 */
const RECORD_BUDGET_MS = 1_000;

/**
 * Records an issued embed URL for the Insights page. Never throws: a failure (or a recording
 * slower than its budget) is logged and counted in UsageRecordFailures, and the caller still
 * gets the dashboard.
 */
export const recordViewWithinBudget = async (
  event: Omit<ViewEvent, 'companies'>,
  logger: Logger,
  budgetMs = RECORD_BUDGET_MS,
): Promise<void> => {
  const fail = (reason: string, error?: unknown) => {
    logger.error('The dashboard view could not be recorded', {
      reason,
      dashboardId: event.dashboardId,
      source: event.source,
      ...(error ? { error: error as Error } : {}),
    });
    countOne(metrics, USAGE_RECORD_FAILURES_METRIC, { reason });
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    // The company comes from the company model, never from a field the user can edit.
    const recording = companyNamesOfUser(event.email)
      .then((companies) => recordDashboardView({ ...event, companies }, usageRetentionDays()))
      .then(
        () => 'recorded' as const,
        (error: unknown) => ({ error }),
      );
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), budgetMs);
    });
    const outcome = await Promise.race([recording, timeout]);
    if (outcome === 'timeout') fail('timeout');
    else if (outcome !== 'recorded') fail('error', outcome.error);
  } catch (error) {
    fail('error', error);
  } finally {
    clearTimeout(timer);
  }
};
