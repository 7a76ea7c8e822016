import type { Context } from 'aws-lambda';
import { DELIVERY_FAILURES_METRIC } from '#contracts/metrics.ts';
import { createLogger } from '../shared/logger.ts';

const logger = createLogger('deliveries');

/** Time kept back from the function's timeout to record outcomes after the last wait on QuickSight. */
const RECORD_MARGIN_MS = 30_000;

/**
 * The delivery schedule (an EventBridge rule every 5 minutes): mails the subscriptions due
 * (lambdas/deliveries/run.ts) and publishes the failures, which an alarm watches.
 */
export const handler = async (
  _event: unknown,
  context: Pick<Context, 'getRemainingTimeInMillis'>,
): Promise<{ due: number; delivered: number; retrying: number; failed: number; canceled: number; skipped: number }> => {
  // The run, its clients, the metrics and the logger are loaded by the invocation, not when the function starts.
  const [{ runDeliveries }, { MetricUnit }, { createMetrics }] = await Promise.all([
    import('./run.ts'),
    import('@aws-lambda-powertools/metrics'),
    import('../shared/metrics.ts'),
    logger.ready(),
  ]);
  const deadline = Date.now() + context.getRemainingTimeInMillis() - RECORD_MARGIN_MS;
  const summary = await runDeliveries(new Date(), { deadline, logger });
  const metrics = createMetrics('deliveries');
  metrics.addMetric(DELIVERY_FAILURES_METRIC, MetricUnit.Count, summary.failed);
  metrics.publishStoredMetrics();
  if (summary.due > 0) logger.info('Deliveries run', { ...summary });
  return summary;
};
