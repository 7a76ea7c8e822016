import { randomUUID } from 'node:crypto';
import { LOCAL_ACCOUNT_ID } from '#clients/local-stack.ts';
import type { RunSummary } from '#lambdas/deliveries/run.ts';
import type { Closers } from './closers.ts';
import type { LocalFunction } from './lambda/runtime.ts';

/**
 * The EventBridge rule of the subscription deliveries, run locally: every 20 seconds instead of
 * every 5 minutes (lib/deliveries.ts), so that an administrator's *Send now* or a subscription
 * due in local mode is mailed within a minute. Only the interval is shorter: the function, its
 * event, its due index, its leases and its retries are those of AWS. A run that is still going
 * when the next one is due is not doubled (a rule's would be, and the leases keep that safe).
 * The daily company-access check has no local schedule: an administrator runs it from Companies.
 */
const LOCAL_DELIVERY_INTERVAL_MS = 20_000;

/** The event an EventBridge scheduled rule sends (its `detail` is empty; the handlers read nothing of it). */
export const scheduledEvent = (region: string, ruleName: string, id: string = randomUUID()) => ({
  version: '0',
  id,
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
  account: LOCAL_ACCOUNT_ID,
  time: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  region,
  resources: [`arn:aws:events:${region}:${LOCAL_ACCOUNT_ID}:rule/${ruleName}`],
  detail: {},
});

export interface DeliveryScheduleOptions {
  readonly deliveries: LocalFunction;
  readonly region: string;
  readonly stackName: string;
  readonly log: (line: string) => void;
  readonly closers: Closers;
}

export function startDeliverySchedule(options: DeliveryScheduleOptions): void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const summary = (await options.deliveries.invoke(
        scheduledEvent(options.region, `${options.stackName}-Deliveries`),
      )) as Partial<RunSummary>;
      if (summary.due)
        options.log(
          `Deliveries: ${summary.delivered ?? 0} mailed, ${summary.retrying ?? 0} to retry, ${summary.failed ?? 0} failed, ${summary.canceled ?? 0} canceled`,
        );
    } catch (error) {
      options.log(`Deliveries run failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void run(), LOCAL_DELIVERY_INTERVAL_MS);
  timer.unref();
  options.closers.add(async () => clearInterval(timer));
}
