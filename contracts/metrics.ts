/**
 * Custom CloudWatch metrics the handlers emit (Powertools metrics, EMF through the log) and
 * the operations pack alarms on. The namespace comes from POWERTOOLS_METRICS_NAMESPACE, which
 * the CDK function construct sets; Powertools adds the `service` dimension (the function's
 * POWERTOOLS_SERVICE_NAME).
 */
export const METRICS_NAMESPACE_ENV = 'POWERTOOLS_METRICS_NAMESPACE';

/** Dimension Powertools puts on every metric: the function's service name. */
export const SERVICE_DIMENSION = 'service';

/** Count of embed requests that failed at QuickSight itself (throttling, access, service errors). */
export const QUICKSIGHT_FAILURES_METRIC = 'QuickSightFailures';

/** Count of issued embed URLs whose view could not be recorded for the Insights page (the URL is still returned). */
export const USAGE_RECORD_FAILURES_METRIC = 'UsageRecordFailures';

/** Differences the daily company-access check found between the portal and QuickSight (0 when in step). */
export const COMPANY_ACCESS_DIFFERENCES_METRIC = 'CompanyAccessDifferences';

/** Subscription deliveries that failed for good after their retries (lambdas/deliveries): an alarm watches it. */
export const DELIVERY_FAILURES_METRIC = 'DeliveryFailures';

/**
 * Count of Cognito calls the functions made that Cognito still refused with
 * TooManyRequestsException after the SDK's retries (a request-rate quota is exhausted).
 * Published per deployment (no dimension) and per function (`service`).
 */
export const COGNITO_THROTTLES_METRIC = 'CognitoThrottles';
