import { Duration, Stack, Token } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';

import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { cloudFrontErrorRate } from './alarm-topic.ts';
import { metricsNamespace, type PortalFunction } from './portal-function.ts';
import {
  PERIOD,
  appSyncMetric,
  cognitoSignInThrottles,
  cognitoThrottles,
  companyAccessDifferences,
  deliveryFailures,
  functionUrl5xx,
  functionUrlOf,
  quickSightFailures,
  sesReputation,
  tableRequests,
} from './operations-metrics.ts';
import type { PortalOperationsProps } from './operations.ts';

/**
 * The operations dashboard: the status of the pack's alarms, the metrics they watch side by
 * side (functions, GraphQL, the site, Cognito, SES, the embed function, tables, the daily
 * company-access check) and QuickSight's dashboard views and load times.
 */
export function operationsDashboard(
  scope: Construct,
  props: PortalOperationsProps,
  alarms: cloudwatch.Alarm[],
  tables: readonly dynamodb.Table[],
): cloudwatch.Dashboard {
  const stack = Stack.of(scope);
  const graph = (title: string, left: cloudwatch.IMetric[], width = 8) =>
    new cloudwatch.GraphWidget({ title, left, width, height: 6 });
  const perFunction = (metricOf: (fn: PortalFunction) => cloudwatch.Metric) =>
    props.functions.map((fn) => metricOf(fn).with({ label: fn.serviceName }));
  const quickSight = (metricName: string, statistic: string) =>
    new cloudwatch.Metric({ namespace: 'AWS/QuickSight', metricName, period: PERIOD, statistic });
  const appsync = (metricName: string, statistic: string) => appSyncMetric(props.graphqlApi, metricName, statistic);

  const dashboard = new cloudwatch.Dashboard(scope, 'Dashboard', {
    // Dashboard names are unique per account, not per region: the region keeps two deployments apart.
    dashboardName: Token.isUnresolved(stack.region) ? undefined : `${stack.stackName}-${stack.region}-operations`,
    defaultInterval: Duration.hours(12),
  });
  dashboard.addWidgets(new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms, width: 24, height: 4 }));
  dashboard.addWidgets(
    graph(
      'Function errors',
      perFunction((fn) => fn.function.metricErrors({ period: PERIOD, statistic: cloudwatch.Stats.SUM })),
    ),
    graph(
      'Function throttles',
      perFunction((fn) => fn.function.metricThrottles({ period: PERIOD, statistic: cloudwatch.Stats.SUM })),
    ),
    graph(
      'Function duration p99 (ms)',
      perFunction((fn) => fn.function.metricDuration({ period: PERIOD, statistic: cloudwatch.Stats.p(99) })),
    ),
  );
  dashboard.addWidgets(
    graph('GraphQL 5xx errors', [appsync('5XXError', cloudwatch.Stats.SUM)]),
    graph('GraphQL latency p99 (ms)', [appsync('Latency', cloudwatch.Stats.p(99))]),
    graph('Site 5xx error rate (%)', [cloudFrontErrorRate(props.distribution)]),
  );
  dashboard.addWidgets(
    graph('Cognito sign-in throttles', [cognitoSignInThrottles(props.userPool, props.userPoolClient)]),
    graph('SES reputation (account)', [
      sesReputation('Reputation.BounceRate'),
      sesReputation('Reputation.ComplaintRate'),
    ]),
    graph('Embed: QuickSight failures', [quickSightFailures(props.embedFunction)]),
  );
  dashboard.addWidgets(
    graph(
      'Function URL 5xx answers',
      props.functions
        .filter((fn) => functionUrlOf(fn) !== undefined)
        .map((fn) => functionUrl5xx(fn).with({ label: fn.serviceName })),
    ),
    graph('Cognito throttled calls (per function)', [
      cognitoThrottles(metricsNamespace(props.functions[0]!)).with({ label: 'all functions' }),
      ...props.functions.map((fn) =>
        cognitoThrottles(metricsNamespace(fn), fn.serviceName).with({ label: fn.serviceName }),
      ),
    ]),
    graph(
      'DynamoDB throttled requests and system errors',
      tables.flatMap((table) => [
        tableRequests(table, 'ThrottledRequests', `${table.node.id} throttled`),
        tableRequests(table, 'SystemErrors', `${table.node.id} system errors`),
      ]),
    ),
  );
  dashboard.addWidgets(
    graph('Company-access differences (daily check)', [companyAccessDifferences(props.companyCheckFunction)], 12),
    graph('Subscription deliveries failed for good', [deliveryFailures(props.deliveriesFunction)], 12),
  );
  dashboard.addWidgets(
    graph('QuickSight dashboard views', [quickSight('DashboardViewCount', cloudwatch.Stats.SUM)], 12),
    graph(
      'QuickSight dashboard load time (ms)',
      [
        quickSight('DashboardViewLoadTime', cloudwatch.Stats.AVERAGE),
        quickSight('DashboardViewLoadTime', cloudwatch.Stats.p(90)),
      ],
      12,
    ),
  );
  return dashboard;
}
