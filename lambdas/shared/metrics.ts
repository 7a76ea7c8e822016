import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { METRICS_NAMESPACE_ENV } from '#contracts/metrics.ts';

/**
 * One Powertools metrics instance per function. The metrics travel as EMF lines in the log,
 * so emitting them needs no IAM permission; in local mode the same lines go to stdout.
 */
export const createMetrics = (serviceName: string): Metrics =>
  new Metrics({ serviceName, namespace: process.env[METRICS_NAMESPACE_ENV]?.trim() || serviceName });

/**
 * Adds 1 to a count metric and writes it at once. Flushing here rather than in a middleware
 * keeps requests that record nothing from logging Powertools' "no metrics" warning.
 */
export const countOne = (metrics: Metrics, name: string, metadata: Readonly<Record<string, string>> = {}): void => {
  metrics.addMetric(name, MetricUnit.Count, 1);
  for (const [key, value] of Object.entries(metadata)) metrics.addMetadata(key, value);
  metrics.publishStoredMetrics();
};
