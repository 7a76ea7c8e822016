import { Duration } from 'aws-cdk-lib';
import type * as appsync from 'aws-cdk-lib/aws-appsync';

import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';

import type * as cognito from 'aws-cdk-lib/aws-cognito';

import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';

import * as lambda from 'aws-cdk-lib/aws-lambda';

import {
  COGNITO_THROTTLES_METRIC,
  COMPANY_ACCESS_DIFFERENCES_METRIC,
  DELIVERY_FAILURES_METRIC,
  QUICKSIGHT_FAILURES_METRIC,
  SERVICE_DIMENSION,
  USAGE_RECORD_FAILURES_METRIC,
} from '#contracts/metrics.ts';
import { metricsNamespace, type PortalFunction } from './portal-function.ts';

/**
 * What the operations pack watches: its thresholds and periods, and the CloudWatch metrics of
 * AppSync, SES, Cognito, function URLs, tables, the embed function and the company-access check
 * it builds its alarms and dashboard from.
 */

/** A function alarms when its p99 duration reaches this share of its timeout. */
export const DURATION_SHARE_OF_TIMEOUT = 0.8;
/** GraphQL p99 latency (ms) that users feel as a slow page: every screen waits on it. */
export const APPSYNC_P99_LATENCY_MS = 3000;
/** CloudFront 5xx responses (percent of requests) above which the site is failing visitors. */
export const CLOUDFRONT_5XX_RATE_PERCENT = 1;
/**
 * SES reviews an account at a 5 % bounce or 0.1 % complaint rate (and may pause sending
 * above 10 % / 0.5 %). The alarms fire at 80 % of the review levels, before the review.
 */
export const SES_BOUNCE_RATE = 0.04;
export const SES_COMPLAINT_RATE = 0.0008;

/**
 * The DynamoDB operations the functions call (GetItem, Query, Scan, PutItem, UpdateItem,
 * DeleteItem) and the batch operations their grants allow. ThrottledRequests and SystemErrors
 * are published per table and operation (dimensions TableName and Operation):
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/metrics-dimensions.html
 * An alarm's metric math may read at most 10 metrics, so the list stays within that.
 */
const DYNAMODB_OPERATIONS: readonly dynamodb.Operation[] = [
  dynamodb.Operation.GET_ITEM,
  dynamodb.Operation.BATCH_GET_ITEM,
  dynamodb.Operation.QUERY,
  dynamodb.Operation.SCAN,
  dynamodb.Operation.PUT_ITEM,
  dynamodb.Operation.UPDATE_ITEM,
  dynamodb.Operation.DELETE_ITEM,
  dynamodb.Operation.BATCH_WRITE_ITEM,
];

export const PERIOD = Duration.minutes(5);
/**
 * The company-access check reports once a day. Its alarms look at hourly datapoints over a
 * little more than a day (CloudWatch allows up to 7 days of evaluation for periods of an hour),
 * so a run a few minutes later than the day before neither clears nor raises them by accident.
 */
const CHECK_PERIOD = Duration.hours(1);
/** Differences stay reported until a check finds none: the last run's figure within this many hours counts. */
export const COMPANY_DIFFERENCES_WINDOW_HOURS = 25;
/** Hours without a completed check after which the missed-check alarm fires (a day and two hours of slack). */
export const COMPANY_CHECK_MISSING_HOURS = 26;

export const appSyncMetric = (api: appsync.IGraphqlApi, metricName: string, statistic: string) =>
  new cloudwatch.Metric({
    namespace: 'AWS/AppSync',
    metricName,
    dimensionsMap: { GraphQLAPIId: api.apiId },
    period: PERIOD,
    statistic,
  });

/** Account-level reputation: SES publishes it without dimensions. */
export const sesReputation = (metricName: string) =>
  new cloudwatch.Metric({
    namespace: 'AWS/SES',
    metricName,
    period: Duration.hours(1),
    statistic: cloudwatch.Stats.MAXIMUM,
  });

export const cognitoSignInThrottles = (userPool: cognito.IUserPool, client: cognito.IUserPoolClient) =>
  new cloudwatch.Metric({
    namespace: 'AWS/Cognito',
    metricName: 'SignInThrottles',
    dimensionsMap: { UserPool: userPool.userPoolId, UserPoolClient: client.userPoolClientId },
    period: PERIOD,
    statistic: cloudwatch.Stats.SUM,
  });

/**
 * Cognito calls of the functions that Cognito throttled (TooManyRequestsException after the
 * SDK's retries), which the functions answer with a 5xx or 429 that Lambda's Errors metric
 * does not count. The functions publish it themselves (lambdas/shared/cognito-throttles.ts):
 * without dimension for the deployment, with `service` per function.
 */
export const cognitoThrottles = (namespace: string, service?: string) =>
  new cloudwatch.Metric({
    namespace,
    metricName: COGNITO_THROTTLES_METRIC,
    ...(service === undefined ? {} : { dimensionsMap: { [SERVICE_DIMENSION]: service } }),
    period: PERIOD,
    statistic: cloudwatch.Stats.SUM,
  });

/**
 * 5xx answers of a function URL (Lambda's function URL metrics, dimension FunctionName): a
 * handler's own 5xx (an upstream failure, a throttled Cognito call) is a successful invocation
 * for Lambda's Errors metric, so only this metric sees what the browser got.
 * https://docs.aws.amazon.com/lambda/latest/dg/urls-monitoring.html
 */
export const functionUrl5xx = (fn: PortalFunction) =>
  new cloudwatch.Metric({
    namespace: 'AWS/Lambda',
    metricName: 'Url5xxCount',
    dimensionsMap: { FunctionName: fn.function.functionName },
    period: PERIOD,
    statistic: cloudwatch.Stats.SUM,
  });

/**
 * The function URL a PortalFunction was given (lambda.Function#addFunctionUrl adds it as the child `FunctionUrl`), if
 * any.
 */
export const functionUrlOf = (fn: PortalFunction): lambda.FunctionUrl | undefined => {
  const child = fn.function.node.tryFindChild('FunctionUrl');
  return child instanceof lambda.FunctionUrl ? child : undefined;
};

/**
 * A table's requests of one kind (ThrottledRequests, SystemErrors) summed over the operations
 * the portal calls. SUM over the array adds the operations that have a datapoint, so one
 * operation's throttles count though the others have none in the period.
 */
export const tableRequests = (
  table: dynamodb.Table,
  metricName: 'ThrottledRequests' | 'SystemErrors',
  label: string,
) => {
  // Ids unique per table and metric, so several sums can share a dashboard graph.
  const id = (index: number) =>
    `${table.node.id.toLowerCase()}_${metricName === 'ThrottledRequests' ? 'throttled' : 'errors'}_${index}`;
  return new cloudwatch.MathExpression({
    expression: `SUM([${DYNAMODB_OPERATIONS.map((_, index) => id(index)).join(',')}])`,
    usingMetrics: Object.fromEntries(
      DYNAMODB_OPERATIONS.map((operation, index) => [
        id(index),
        new cloudwatch.Metric({
          namespace: 'AWS/DynamoDB',
          metricName,
          dimensionsMap: { TableName: table.tableName, Operation: operation },
          period: PERIOD,
          statistic: cloudwatch.Stats.SUM,
        }),
      ]),
    ),
    label,
    period: PERIOD,
  });
};

/** A count a function publishes with Powertools (namespace the stack, dimension its service), summed per period. */
const functionCount = (fn: PortalFunction, metricName: string): cloudwatch.Metric =>
  new cloudwatch.Metric({
    namespace: metricsNamespace(fn),
    metricName,
    dimensionsMap: { [SERVICE_DIMENSION]: fn.serviceName },
    period: PERIOD,
    statistic: cloudwatch.Stats.SUM,
  });

/** Embed requests QuickSight failed (throttling, access or service errors), as the embed function counts them. */
export const quickSightFailures = (embed: PortalFunction): cloudwatch.Metric =>
  functionCount(embed, QUICKSIGHT_FAILURES_METRIC);

/** Issued embed URLs whose view the Insights page will not count (the dashboard was still shown). */
export const usageRecordFailures = (embed: PortalFunction): cloudwatch.Metric =>
  functionCount(embed, USAGE_RECORD_FAILURES_METRIC);

/** Subscribed files the delivery function could not make or mail after their retries. */
export const deliveryFailures = (deliveries: PortalFunction): cloudwatch.Metric =>
  functionCount(deliveries, DELIVERY_FAILURES_METRIC);

/** What the daily check reports: the differences it found between the portal and QuickSight. */
export const companyAccessDifferences = (
  check: PortalFunction,
  statistic: string = cloudwatch.Stats.MAXIMUM,
): cloudwatch.Metric =>
  new cloudwatch.Metric({
    namespace: metricsNamespace(check),
    metricName: COMPANY_ACCESS_DIFFERENCES_METRIC,
    dimensionsMap: { [SERVICE_DIMENSION]: check.serviceName },
    period: CHECK_PERIOD,
    statistic,
  });
