import { Annotations, CfnOutput, Duration, Stack, Token } from 'aws-cdk-lib';
import type * as appsync from 'aws-cdk-lib/aws-appsync';

import type * as cloudfront from 'aws-cdk-lib/aws-cloudfront';

import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';

import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as cognito from 'aws-cdk-lib/aws-cognito';

import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';

import * as sns from 'aws-cdk-lib/aws-sns';

import { Construct } from 'constructs';
import { metricsNamespace, type PortalFunction } from './portal-function.ts';
import { CLOUDFRONT_METRICS_REGION } from './stack-names.ts';
import { AlarmTopic, cloudFrontAlarmSpec, cloudFrontErrorRate, notifyingAlarm, type AlarmSpec } from './alarm-topic.ts';
import {
  DURATION_SHARE_OF_TIMEOUT,
  APPSYNC_P99_LATENCY_MS,
  SES_BOUNCE_RATE,
  SES_COMPLAINT_RATE,
  PERIOD,
  COMPANY_DIFFERENCES_WINDOW_HOURS,
  COMPANY_CHECK_MISSING_HOURS,
  appSyncMetric,
  sesReputation,
  cognitoSignInThrottles,
  cognitoThrottles,
  companyAccessDifferences,
  deliveryFailures,
  functionUrl5xx,
  functionUrlOf,
  quickSightFailures,
  tableRequests,
  usageRecordFailures,
} from './operations-metrics.ts';
import { operationsDashboard } from './operations-dashboard.ts';

export interface PortalOperationsProps {
  /** Every function of the product: each gets errors, throttles and duration alarms. */
  readonly functions: readonly PortalFunction[];
  /** The function that counts QuickSight failures (lambdas/embed). */
  readonly embedFunction: PortalFunction;
  /** The daily company-access check (lambdas/company-check), which publishes CompanyAccessDifferences. */
  readonly companyCheckFunction: PortalFunction;
  /** The subscription deliveries (lib/deliveries.ts): files that failed for good raise an alarm. */
  readonly deliveriesFunction: PortalFunction;
  readonly graphqlApi: appsync.IGraphqlApi;
  readonly distribution: cloudfront.IDistribution;
  readonly userPool: cognito.IUserPool;
  readonly userPoolClient: cognito.IUserPoolClient;
  /**
   * The tables whose throttled requests and system errors are alarmed.
   * @default every DynamoDB table of the stack, wherever it is defined
   */
  readonly tables?: readonly dynamodb.Table[];
  /** @default no subscription: operators subscribe to the topic themselves */
  readonly alarmEmail?: string;
}

/**
 * The operations pack: CloudWatch alarms on what breaks the portal for its users, all sent to
 * one encrypted SNS topic (optionally to an email address), and one dashboard with the same
 * metrics plus QuickSight's dashboard views and load times. Alarms treat missing data as
 * fine (no traffic is no failure), except the one that watches for the daily check itself.
 */
export class PortalOperations extends Construct {
  readonly topic: sns.Topic;
  readonly dashboard: cloudwatch.Dashboard;
  readonly alarms: cloudwatch.Alarm[] = [];
  /** The tables the pack watches. */
  readonly tables: readonly dynamodb.Table[];
  private readonly action: SnsAction;

  constructor(scope: Construct, id: string, props: PortalOperationsProps) {
    super(scope, id);
    if (props.functions.length === 0) throw new Error('PortalOperations: no functions to watch');
    if (!props.functions.includes(props.embedFunction))
      throw new Error('PortalOperations: embedFunction must be one of functions');
    if (!props.functions.includes(props.companyCheckFunction))
      throw new Error('PortalOperations: companyCheckFunction must be one of functions');

    this.topic = new AlarmTopic(this, 'Alarms', { alarmEmail: props.alarmEmail }).topic;
    this.action = new SnsAction(this.topic);

    for (const fn of props.functions) this.functionAlarms(fn);
    this.tables =
      props.tables ??
      Stack.of(this)
        .node.findAll()
        .filter((c): c is dynamodb.Table => c instanceof dynamodb.Table);
    for (const table of this.tables) this.tableAlarms(table);
    this.cognitoThrottleAlarm(props.functions[0]!);
    this.appSyncAlarms(props.graphqlApi);
    this.cloudFrontAlarm(props.distribution);
    this.cognitoAlarm(props.userPool, props.userPoolClient);
    this.sesAlarms();
    this.embedFailureAlarms(props.embedFunction);
    this.companyAccessAlarms(props.companyCheckFunction);
    this.deliveryAlarm(props.deliveriesFunction);
    this.dashboard = operationsDashboard(this, props, this.alarms, this.tables);

    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.topic.topicArn,
      description: 'SNS topic of the operations alarms (subscribe on-call here)',
    });
    new CfnOutput(this, 'DashboardName', {
      value: this.dashboard.dashboardName,
      description: 'CloudWatch dashboard of the portal',
    });
  }

  private alarm(id: string, spec: AlarmSpec): cloudwatch.Alarm {
    const alarm = notifyingAlarm(this, id, spec, this.action);
    this.alarms.push(alarm);
    return alarm;
  }

  /** Any error or throttle, and a p99 duration close enough to the timeout that requests start to fail. */
  private functionAlarms(fn: PortalFunction): void {
    const name = fn.serviceName;
    const timeout = fn.function.timeout ?? Duration.seconds(3);
    const limitMs = Math.floor(timeout.toMilliseconds() * DURATION_SHARE_OF_TIMEOUT);
    this.alarm(`${name}-errors`, {
      metric: fn.function.metricErrors({ period: PERIOD, statistic: cloudwatch.Stats.SUM }),
      threshold: 1,
      description: `The ${name} function failed (errors in 5 minutes); see its log group for the request.`,
    });
    this.alarm(`${name}-throttles`, {
      metric: fn.function.metricThrottles({ period: PERIOD, statistic: cloudwatch.Stats.SUM }),
      threshold: 1,
      description: `The ${name} function was throttled: the account's Lambda concurrency is exhausted.`,
    });
    this.alarm(`${name}-duration`, {
      metric: fn.function.metricDuration({ period: PERIOD, statistic: cloudwatch.Stats.p(99) }),
      threshold: limitMs,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      description: `The ${name} function's p99 duration reached ${limitMs} ms, ${DURATION_SHARE_OF_TIMEOUT * 100} % of its ${timeout.toSeconds()} s timeout.`,
    });
    if (functionUrlOf(fn) !== undefined) {
      this.alarm(`${name}-url-5xx`, {
        metric: functionUrl5xx(fn),
        threshold: 1,
        description: `The ${name} function URL answered with server errors (5xx) in 5 minutes: its own 5xx answers too (an upstream or Cognito failure), which the Errors alarm does not count. See its log group.`,
      });
    }
  }

  /**
   * Requests DynamoDB throttled (on demand: a table's or the account's throughput limit) and its own errors, per
   * table.
   */
  private tableAlarms(table: dynamodb.Table): void {
    const id = table.node.id;
    this.alarm(`${id}-table-throttles`, {
      metric: tableRequests(table, 'ThrottledRequests', `${id} throttled requests`),
      threshold: 1,
      description: `DynamoDB throttled requests to the ${id} table in 5 minutes: its on-demand throughput limit (or the account's) was reached. See the table's metrics per operation.`,
    });
    this.alarm(`${id}-table-system-errors`, {
      metric: tableRequests(table, 'SystemErrors', `${id} system errors`),
      threshold: 1,
      description: `DynamoDB answered requests to the ${id} table with server errors (HTTP 500) in 5 minutes; the SDK retries them, repeated ones reach users.`,
    });
  }

  /**
   * Any Cognito call throttled after the SDK's retries: the capacity model's first bottleneck
   * (GetUser on every request). Raising a Cognito request-rate quota is paid (docs/operations.md, Costs).
   */
  private cognitoThrottleAlarm(anyFunction: PortalFunction): void {
    this.alarm('cognito-throttled-calls', {
      metric: cognitoThrottles(metricsNamespace(anyFunction)),
      threshold: 1,
      description:
        'Cognito refused calls of the portal functions with TooManyRequestsException (a request-rate quota is exhausted, first UserAccountRead for GetUser): users got 5xx or 429 answers. See CognitoThrottles per function on the dashboard and docs/capacity.md.',
    });
  }

  private appSyncAlarms(api: appsync.IGraphqlApi): void {
    const metric = (metricName: string, statistic: string) => appSyncMetric(api, metricName, statistic);
    this.alarm('appsync-5xx', {
      metric: metric('5XXError', cloudwatch.Stats.SUM),
      threshold: 1,
      description: 'The GraphQL API answered with server errors (5xx) in 5 minutes.',
    });
    this.alarm('appsync-latency', {
      metric: metric('Latency', cloudwatch.Stats.p(99)),
      threshold: APPSYNC_P99_LATENCY_MS,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      description: `The GraphQL API's p99 latency reached ${APPSYNC_P99_LATENCY_MS} ms.`,
    });
  }

  /** The 5xx rate of the site; its metric always lives in us-east-1 (see CLOUDFRONT_METRICS_REGION). */
  static cloudFrontErrorRate(distribution: cloudfront.IDistribution): cloudwatch.Metric {
    return cloudFrontErrorRate(distribution);
  }

  /** In us-east-1 the site's alarm is here; elsewhere a companion stack in us-east-1 holds it (lib/edge-alarms.ts). */
  private cloudFrontAlarm(distribution: cloudfront.IDistribution): void {
    const region = Stack.of(this).region;
    if (Token.isUnresolved(region) || region !== CLOUDFRONT_METRICS_REGION) {
      Annotations.of(this).addInfo(
        `The CloudFront 5xx-rate alarm is in the companion stack in ${CLOUDFRONT_METRICS_REGION} (CloudFront publishes its metrics there and an alarm reads only its own region's); the rate is also on the operations dashboard.`,
      );
      return;
    }
    this.alarm('cloudfront-5xx-rate', cloudFrontAlarmSpec(distribution));
  }

  private cognitoAlarm(userPool: cognito.IUserPool, client: cognito.IUserPoolClient): void {
    this.alarm('cognito-sign-in-throttles', {
      metric: cognitoSignInThrottles(userPool, client),
      threshold: 1,
      description:
        'Cognito throttled sign-ins of the portal: the UserAuthentication request-rate quota is exhausted. Raising a Cognito request-rate quota is paid (about $20 per request per second a month; docs/operations.md, Costs).',
    });
  }

  private sesAlarms(): void {
    const reputation = sesReputation;
    this.alarm('ses-bounce-rate', {
      metric: reputation('Reputation.BounceRate'),
      threshold: SES_BOUNCE_RATE,
      description: `The account's SES bounce rate reached ${SES_BOUNCE_RATE * 100} % (SES reviews the account at 5 %).`,
    });
    this.alarm('ses-complaint-rate', {
      metric: reputation('Reputation.ComplaintRate'),
      threshold: SES_COMPLAINT_RATE,
      description: `The account's SES complaint rate reached ${SES_COMPLAINT_RATE * 100} % (SES reviews the account at 0.1 %).`,
    });
  }

  static quickSightFailures(embed: PortalFunction): cloudwatch.Metric {
    return quickSightFailures(embed);
  }

  /** Issued embed URLs whose view the Insights page will not count (the dashboard was still shown). */
  static usageRecordFailures(embed: PortalFunction): cloudwatch.Metric {
    return usageRecordFailures(embed);
  }

  private embedFailureAlarms(embed: PortalFunction): void {
    this.alarm('embed-quicksight-failures', {
      metric: PortalOperations.quickSightFailures(embed),
      threshold: 1,
      description:
        'QuickSight failed embed requests of users who may see the dashboard (throttling, access or service errors).',
    });
    this.alarm('embed-usage-record-failures', {
      metric: PortalOperations.usageRecordFailures(embed),
      threshold: 1,
      description:
        'Dashboard views could not be recorded for the Insights page (the dashboards were still shown): check the Usage table and the embed function log.',
    });
  }

  /** What the daily check reports: the differences it found between the portal and QuickSight. */
  static companyAccessDifferences(
    check: PortalFunction,
    statistic: string = cloudwatch.Stats.MAXIMUM,
  ): cloudwatch.Metric {
    return companyAccessDifferences(check, statistic);
  }

  /**
   * Differences found by the last check, and a check that has not reported for more than a
   * day (each completed run publishes the count, 0 included, so no datapoint means no run:
   * the schedule, the function or its permissions failed). Failed runs also raise the
   * function's own Errors alarm.
   */
  private companyAccessAlarms(check: PortalFunction): void {
    this.alarm('company-access-differences', {
      metric: PortalOperations.companyAccessDifferences(check),
      threshold: 1,
      evaluationPeriods: COMPANY_DIFFERENCES_WINDOW_HOURS,
      datapointsToAlarm: 1,
      description:
        "The daily company-access check found differences between the portal's companies and QuickSight (groups, members, rules or dashboards that are not company-scoped). Review them in the admin portal (Companies) and mend them there; the alarm clears after a check finds none.",
    });
    this.alarm('company-check-missing', {
      metric: PortalOperations.companyAccessDifferences(check, cloudwatch.Stats.SAMPLE_COUNT),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
      evaluationPeriods: COMPANY_CHECK_MISSING_HOURS,
      datapointsToAlarm: COMPANY_CHECK_MISSING_HOURS,
      treatMissingData: cloudwatch.TreatMissingData.BREACHING,
      description: `No company-access check has completed for ${COMPANY_CHECK_MISSING_HOURS} hours (it runs once a day): see the company-check function's log and its EventBridge schedule.`,
    });
  }

  private deliveryAlarm(deliveries: PortalFunction): void {
    this.alarm('delivery-failures', {
      metric: deliveryFailures(deliveries),
      threshold: 1,
      description:
        'A subscribed dashboard file could not be made or mailed after its retries (QuickSight snapshot job or SES). The admin portal’s Deliveries page shows each failed subscription with QuickSight’s or SES’s reason.',
    });
  }
}
