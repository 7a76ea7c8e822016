import type { Metrics } from '@aws-lambda-powertools/metrics';
import { COMPANY_ACCESS_DIFFERENCES_METRIC } from '#contracts/metrics.ts';
import { createLogger } from '../shared/logger.ts';

const logger = createLogger('company-check');
let metrics: Metrics | undefined;

/** Who the Companies tab names as having run the daily check. */
export const SCHEDULED_CHECKER = 'schedule';

/**
 * The daily company-access check (EventBridge schedule): compares the portal's companies and
 * memberships with QuickSight's groups, memberships and row-level security, keeps the result
 * for the Companies tab and publishes the number of differences, which an alarm watches. It
 * never changes anything: mending is an administrator's choice (CHECK_COMPANY_ACCESS with fix).
 */
export const handler = async (): Promise<{ differences: number; quicksightCalls: number }> => {
  // The check, its clients, the metrics and the logger are loaded by the invocation, not when the function starts.
  const [{ runScheduledCheck }, { MetricUnit }, { createMetrics }] = await Promise.all([
    import('./scheduled-check.ts'),
    import('@aws-lambda-powertools/metrics'),
    import('../shared/metrics.ts'),
    logger.ready(),
  ]);
  const check = await runScheduledCheck(SCHEDULED_CHECKER);
  metrics ??= createMetrics('company-check');
  metrics.addMetric(COMPANY_ACCESS_DIFFERENCES_METRIC, MetricUnit.Count, check.differences.length);
  metrics.publishStoredMetrics();
  const summary = { differences: check.differences.length, quicksightCalls: check.quicksightCalls };
  if (check.differences.length > 0) {
    logger.warn('Portal and QuickSight differ', {
      ...summary,
      kinds: [...new Set(check.differences.map((difference) => difference.kind))],
    });
  } else {
    logger.info('Portal and QuickSight are in step', summary);
  }
  return summary;
};
