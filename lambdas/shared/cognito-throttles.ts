import { COGNITO_THROTTLES_METRIC, METRICS_NAMESPACE_ENV, SERVICE_DIMENSION } from '#contracts/metrics.ts';

/**
 * Writes one CloudWatch embedded-metric-format line counting a Cognito call that Cognito
 * throttled (TooManyRequestsException). Loaded with `import()` by the Cognito client's
 * middleware (aws/cognito.ts) only when that happens, so no function loads it at start.
 *
 * Two dimension sets: none (one metric per deployment, which the alarm watches) and `service`
 * (the function, for the dashboard). An empty dimension set is allowed by the specification:
 * https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html
 * The line goes to stdout as Powertools metrics write theirs, so Lambda's JSON log format does
 * not wrap it and CloudWatch Logs extracts the metric; it needs no IAM permission.
 */
export const countCognitoThrottle = (operation: string, now: number = Date.now()): void => {
  const service = process.env.POWERTOOLS_SERVICE_NAME?.trim() || undefined;
  const namespace = process.env[METRICS_NAMESPACE_ENV]?.trim() || service || 'portal';
  const document = {
    _aws: {
      Timestamp: now,
      CloudWatchMetrics: [
        {
          Namespace: namespace,
          Dimensions: service === undefined ? [[]] : [[], [SERVICE_DIMENSION]],
          Metrics: [{ Name: COGNITO_THROTTLES_METRIC, Unit: 'Count' }],
        },
      ],
    },
    ...(service === undefined ? {} : { [SERVICE_DIMENSION]: service }),
    operation,
    [COGNITO_THROTTLES_METRIC]: 1,
  };
  process.stdout.write(`${JSON.stringify(document)}\n`);
};
