import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMPANY_ACCESS_DIFFERENCES_METRIC,
  METRICS_NAMESPACE_ENV,
  QUICKSIGHT_FAILURES_METRIC,
  USAGE_RECORD_FAILURES_METRIC,
} from '#contracts/metrics.ts';
import { ConfigError, loadConfig } from '#lib/config.ts';
import {
  asList,
  buildPortal,
  sharedPortalBuild,
  logicalIdAt,
  policyStatements,
  type PortalBuild,
} from './support/portal-build.ts';

/** A template resource as the CDK assertions hand it out. */
type Resource = ReturnType<Template['findResources']>[string];

const FUNCTION_PATHS = [
  '/Functions/Embed/',
  '/Functions/QuickSightAdmin/',
  '/Functions/UserAdmin/',
  '/Functions/Mfa/',
  '/Functions/Contact/',
  '/GraphQL/Resolver/',
  '/Auth/PostConfirmation/',
  '/Auth/PreTokenGeneration/',
  '/Companies/Check/',
  '/Deliveries/Function/',
];

/** The functions with a function URL: each has its own 5xx alarm. */
const URL_FUNCTION_PATHS = [
  '/Functions/Embed/',
  '/Functions/QuickSightAdmin/',
  '/Functions/UserAdmin/',
  '/Functions/Mfa/',
  '/Functions/Contact/',
];
const TABLES = ['Views', 'Dashboards', 'State', 'Audit', 'Usage'];
/** The operations the table alarms sum (the ones the functions call and their grants allow). */
const TABLE_OPERATIONS = [
  'GetItem',
  'BatchGetItem',
  'Query',
  'Scan',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
];

const alarmsOf = (build: PortalBuild) =>
  Object.values(build.template.findResources('AWS::CloudWatch::Alarm')) as Resource[];
const functionId = (build: PortalBuild, path: string) =>
  logicalIdAt(build.template, 'AWS::Lambda::Function', `${path}Function/`);
const functionOf = (build: PortalBuild, path: string) =>
  build.template.toJSON().Resources[functionId(build, path)] as Resource;
const topicId = (build: PortalBuild) =>
  logicalIdAt(build.template, 'AWS::SNS::Topic', '/Operations/Alarms/AlarmTopic/');

/** The alarms on a metric, optionally only those naming a dimension value. */
const alarmsOn = (build: PortalBuild, metricName: string, dimension?: { Name: string; Value: unknown }) =>
  alarmsOf(build).filter(
    (alarm) =>
      alarm.Properties.MetricName === metricName &&
      (dimension === undefined ||
        asList(alarm.Properties.Dimensions).some((d) => JSON.stringify(d) === JSON.stringify(dimension))),
  );

/** The metric-math alarms whose metrics are all `metricName` of one table. */
const tableAlarms = (build: PortalBuild, metricName: string, tableId: string) =>
  alarmsOf(build).filter((alarm) => {
    const stats = asList(alarm.Properties.Metrics as Resource[]).filter((query) => query.MetricStat !== undefined);
    return (
      stats.length > 0 &&
      stats.every(
        (query) =>
          query.MetricStat.Metric.MetricName === metricName &&
          JSON.stringify(query.MetricStat.Metric.Dimensions).includes(`"Ref":"${tableId}"`),
      )
    );
  });

const configProblems = (context: Record<string, unknown>): string => {
  try {
    loadConfig((key) => context[key]);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  return '';
};

describe('operations pack (default configuration)', () => {
  let build: PortalBuild;
  beforeAll(() => {
    build = sharedPortalBuild();
  });
  afterAll(() => build.dispose());

  it.each(FUNCTION_PATHS)('alarms on the errors, throttles and p99 duration near the timeout of %s', (path) => {
    const dimension = { Name: 'FunctionName', Value: { Ref: functionId(build, path) } };
    expect(alarmsOn(build, 'Errors', dimension)).toHaveLength(1);
    expect(alarmsOn(build, 'Throttles', dimension)).toHaveLength(1);
    const [duration] = alarmsOn(build, 'Duration', dimension);
    expect(duration?.Properties).toMatchObject({
      ExtendedStatistic: 'p99',
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    const timeoutMs = Number(functionOf(build, path).Properties.Timeout) * 1000;
    expect(duration?.Properties.Threshold).toBe(Math.floor(timeoutMs * 0.8));
  });

  it('alarms on GraphQL 5xx errors and latency, Cognito sign-in throttles and SES reputation', () => {
    const api = {
      Name: 'GraphQLAPIId',
      Value: { 'Fn::GetAtt': [logicalIdAt(build.template, 'AWS::AppSync::GraphQLApi', '/GraphQL/Api/'), 'ApiId'] },
    };
    expect(alarmsOn(build, '5XXError', api)).toHaveLength(1);
    expect(alarmsOn(build, 'Latency', api)[0]?.Properties.ExtendedStatistic).toBe('p99');
    const [throttles] = alarmsOn(build, 'SignInThrottles');
    expect(throttles?.Properties).toMatchObject({ Namespace: 'AWS/Cognito', Threshold: 1 });
    expect(JSON.stringify(throttles?.Properties.Dimensions)).toContain(
      logicalIdAt(build.template, 'AWS::Cognito::UserPool', '/Auth/UserPool/'),
    );
    for (const metric of ['Reputation.BounceRate', 'Reputation.ComplaintRate']) {
      const [alarm] = alarmsOn(build, metric);
      expect(alarm?.Properties).toMatchObject({ Namespace: 'AWS/SES', Statistic: 'Maximum' });
      // Account-level metrics: SES publishes them without dimensions.
      expect(alarm?.Properties.Dimensions).toBeUndefined();
    }
  });

  it.each(URL_FUNCTION_PATHS)(
    'alarms on the 5xx answers of the function URL of %s (Url5xxCount, sum ≥ 1 in 5 minutes)',
    (path) => {
      const dimension = { Name: 'FunctionName', Value: { Ref: functionId(build, path) } };
      const alarms = alarmsOn(build, 'Url5xxCount', dimension);
      expect(alarms).toHaveLength(1);
      expect(alarms[0]?.Properties).toMatchObject({
        Namespace: 'AWS/Lambda',
        Dimensions: [dimension],
        Statistic: 'Sum',
        Period: 300,
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 1,
        AlarmActions: [{ Ref: topicId(build) }],
      });
    },
  );

  it('has no function URL alarm for a function without a URL', () => {
    expect(alarmsOn(build, 'Url5xxCount')).toHaveLength(5);
    for (const path of [
      '/GraphQL/Resolver/',
      '/Auth/PostConfirmation/',
      '/Auth/PreTokenGeneration/',
      '/Companies/Check/',
    ]) {
      expect(
        alarmsOn(build, 'Url5xxCount', { Name: 'FunctionName', Value: { Ref: functionId(build, path) } }),
      ).toHaveLength(0);
    }
  });

  it.each(
    TABLES.flatMap((table) => [
      [table, 'ThrottledRequests'],
      [table, 'SystemErrors'],
    ]),
  )(
    'alarms on the %s table’s %s summed over the operations the portal calls (≥ 1 in 5 minutes)',
    (table, metricName) => {
      const tableId = logicalIdAt(build.template, 'AWS::DynamoDB::Table', `/Data/${table}/`);
      const alarms = tableAlarms(build, metricName, tableId);
      expect(alarms).toHaveLength(1);
      const alarm = alarms[0]!.Properties;
      expect(alarm).toMatchObject({
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 1,
        AlarmActions: [{ Ref: topicId(build) }],
      });
      const queries = alarm.Metrics as Resource[];
      const stats = queries.filter((query) => query.MetricStat !== undefined);
      // Published per table and operation (dimensions TableName and Operation).
      const byName = (dimensions: { Name: string }[]) => [...dimensions].sort((a, b) => a.Name.localeCompare(b.Name));
      expect(stats.map((query) => byName(query.MetricStat.Metric.Dimensions))).toEqual(
        TABLE_OPERATIONS.map((operation) => [
          { Name: 'Operation', Value: operation },
          { Name: 'TableName', Value: { Ref: tableId } },
        ]),
      );
      for (const query of stats) {
        expect(query.MetricStat).toMatchObject({
          Metric: { Namespace: 'AWS/DynamoDB', MetricName: metricName },
          Stat: 'Sum',
          Period: 300,
        });
        expect(query.ReturnData).toBe(false);
      }
      // CloudWatch alarms on metric math read at most 10 metrics.
      expect(stats.length).toBeLessThanOrEqual(10);
      const [expression] = queries.filter((query) => query.Expression !== undefined);
      expect(expression?.Expression).toBe(`SUM([${stats.map((query) => query.Id).join(',')}])`);
    },
  );

  it('alarms on Cognito calls the functions report as throttled (CognitoThrottles in the stack’s namespace, no dimension, ≥ 1)', () => {
    const alarms = alarmsOn(build, 'CognitoThrottles');
    expect(alarms).toHaveLength(1);
    expect(alarms[0]?.Properties).toMatchObject({
      Namespace: build.stack.stackName,
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      AlarmActions: [{ Ref: topicId(build) }],
      OKActions: [{ Ref: topicId(build) }],
    });
    expect(alarms[0]?.Properties.Dimensions).toBeUndefined();
    // The namespace the functions publish in (POWERTOOLS_METRICS_NAMESPACE) is the same.
    for (const path of URL_FUNCTION_PATHS)
      expect(functionOf(build, path).Properties.Environment.Variables[METRICS_NAMESPACE_ENV]).toBe(
        build.stack.stackName,
      );
  });

  it('alarms on the SES bounce rate at 4 % and the complaint rate at 0.08 % (hourly maximum)', () => {
    expect(alarmsOn(build, 'Reputation.BounceRate')[0]?.Properties).toMatchObject({
      Namespace: 'AWS/SES',
      Threshold: 0.04,
      Period: 3600,
      Statistic: 'Maximum',
      AlarmActions: [{ Ref: topicId(build) }],
    });
    expect(alarmsOn(build, 'Reputation.ComplaintRate')[0]?.Properties).toMatchObject({
      Namespace: 'AWS/SES',
      Threshold: 0.0008,
      Period: 3600,
      Statistic: 'Maximum',
      AlarmActions: [{ Ref: topicId(build) }],
    });
  });

  it('lets CloudWatch use the topic key only for alarms of this account and region', () => {
    const keys = Object.values(build.template.findResources('AWS::KMS::Key')) as Resource[];
    const statements = keys.flatMap((key) => key.Properties.KeyPolicy.Statement as Resource[]);
    const cloudWatch = statements.filter((statement) =>
      JSON.stringify(statement.Principal).includes('cloudwatch.amazonaws.com'),
    );
    expect(cloudWatch).toHaveLength(1);
    expect(cloudWatch[0]).toMatchObject({
      Sid: 'CloudWatchAlarmsEncryptForTopic',
      Effect: 'Allow',
      Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
    });
    expect(cloudWatch[0]?.Condition).toEqual({
      StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
      ArnLike: {
        'aws:SourceArn': {
          'Fn::Join': [
            '',
            [
              'arn:',
              { Ref: 'AWS::Partition' },
              ':cloudwatch:',
              { Ref: 'AWS::Region' },
              ':',
              { Ref: 'AWS::AccountId' },
              ':alarm:*',
            ],
          ],
        },
      },
    });
  });

  it("alarms on the embed function's QuickSight failures in the namespace the function is given", () => {
    const namespace = functionOf(build, '/Functions/Embed/').Properties.Environment.Variables[METRICS_NAMESPACE_ENV];
    expect(namespace).toBe(build.stack.stackName);
    const [alarm] = alarmsOn(build, QUICKSIGHT_FAILURES_METRIC);
    expect(alarm?.Properties).toMatchObject({
      Namespace: namespace,
      Dimensions: [{ Name: 'service', Value: 'embed' }],
      Statistic: 'Sum',
      Threshold: 1,
    });
    const [usage] = alarmsOn(build, USAGE_RECORD_FAILURES_METRIC);
    expect(usage?.Properties).toMatchObject({
      Namespace: namespace,
      Dimensions: [{ Name: 'service', Value: 'embed' }],
      Statistic: 'Sum',
      Threshold: 1,
    });
  });

  it('alarms on a subscription file that failed for good (DeliveryFailures of the deliveries function, sum over 5 minutes ≥ 1)', () => {
    const namespace = functionOf(build, '/Deliveries/Function/').Properties.Environment.Variables[
      METRICS_NAMESPACE_ENV
    ];
    const alarms = alarmsOn(build, 'DeliveryFailures');
    expect(alarms).toHaveLength(1);
    expect(alarms[0]?.Properties).toMatchObject({
      Namespace: namespace,
      Dimensions: [{ Name: 'service', Value: 'deliveries' }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(String(alarms[0]?.Properties.AlarmDescription)).toContain('Deliveries page');
  });

  it('alarms on differences the daily company-access check finds, and on a check that has not reported for more than a day', () => {
    const namespace = functionOf(build, '/Companies/Check/').Properties.Environment.Variables[METRICS_NAMESPACE_ENV];
    expect(namespace).toBe(build.stack.stackName);
    const alarms = alarmsOn(build, COMPANY_ACCESS_DIFFERENCES_METRIC);
    expect(alarms).toHaveLength(2);
    const differences = alarms.find((alarm) => alarm.Properties.Statistic === 'Maximum');
    const missing = alarms.find((alarm) => alarm.Properties.Statistic === 'SampleCount');
    const onCheck = { Namespace: namespace, Dimensions: [{ Name: 'service', Value: 'company-check' }], Period: 3600 };
    // Any difference in the last 25 hours (a run a little later than the day before still counts).
    expect(differences?.Properties).toMatchObject({
      ...onCheck,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 25,
      DatapointsToAlarm: 1,
      TreatMissingData: 'notBreaching',
    });
    // No completed check (no datapoint at all) for 26 hours: missing data is what this alarm watches.
    expect(missing?.Properties).toMatchObject({
      ...onCheck,
      Threshold: 1,
      ComparisonOperator: 'LessThanThreshold',
      EvaluationPeriods: 26,
      DatapointsToAlarm: 26,
      TreatMissingData: 'breaching',
    });
    // CloudWatch evaluates at most 7 days for periods of an hour or more (PutMetricAlarm).
    for (const alarm of alarms)
      expect(alarm.Properties.Period * alarm.Properties.EvaluationPeriods).toBeLessThanOrEqual(7 * 24 * 3600);
    expect(String(missing?.Properties.AlarmDescription)).toContain('26 hours');
    const body = JSON.stringify(Object.values(build.template.findResources('AWS::CloudWatch::Dashboard'))[0]);
    expect(body).toContain(COMPANY_ACCESS_DIFFERENCES_METRIC);
  });

  it('runs the company-access check once a day from an EventBridge schedule, retried twice', () => {
    const checkId = functionId(build, '/Companies/Check/');
    const rules = Object.values(build.template.findResources('AWS::Events::Rule')) as Resource[];
    const schedule = rules.filter((rule) => JSON.stringify(rule.Properties.Targets).includes(checkId));
    expect(schedule).toHaveLength(1);
    expect(schedule[0]?.Properties.ScheduleExpression).toBe('rate(1 day)');
    expect(schedule[0]?.Properties.State ?? 'ENABLED').toBe('ENABLED');
    expect(schedule[0]?.Properties.Targets).toEqual([
      expect.objectContaining({ Arn: { 'Fn::GetAtt': [checkId, 'Arn'] } }),
    ]);
    const invoke = Object.values(build.template.findResources('AWS::Lambda::EventInvokeConfig')) as Resource[];
    expect(invoke.filter((config) => JSON.stringify(config.Properties.FunctionName).includes(checkId))).toEqual([
      expect.objectContaining({ Properties: expect.objectContaining({ MaximumRetryAttempts: 2 }) }),
    ]);
  });

  it('sends every alarm, and its recovery, to the encrypted alarm topic', () => {
    const alarms = alarmsOf(build);
    expect(alarms.length).toBeGreaterThanOrEqual(FUNCTION_PATHS.length * 3 + 8);
    for (const alarm of alarms) {
      expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId(build) }]);
      expect(alarm.Properties.OKActions).toEqual([{ Ref: topicId(build) }]);
      // Only the missed-check alarm treats missing data as breaching: no datapoint means no check ran.
      const missedCheck =
        alarm.Properties.MetricName === COMPANY_ACCESS_DIFFERENCES_METRIC &&
        alarm.Properties.Statistic === 'SampleCount';
      expect(alarm.Properties.TreatMissingData).toBe(missedCheck ? 'breaching' : 'notBreaching');
    }
    const topic = build.template.toJSON().Resources[topicId(build)] as Resource;
    expect(topic.Properties.KmsMasterKeyId).toEqual({ 'Fn::GetAtt': [expect.any(String), 'Arn'] });
  });

  it('refuses requests to the topic without TLS and lets only this account’s alarms publish', () => {
    const statements = Object.values(build.template.findResources('AWS::SNS::TopicPolicy')).flatMap(
      (policy) => (policy as Resource).Properties.PolicyDocument.Statement as Resource[],
    );
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    const publish = statements.find((s) => s.Sid === 'AccountAlarmsPublish');
    expect(publish).toMatchObject({
      Effect: 'Allow',
      Action: 'sns:Publish',
      Principal: { Service: 'cloudwatch.amazonaws.com' },
    });
    expect(Object.keys(publish?.Condition ?? {}).sort()).toEqual(['ArnLike', 'StringEquals']);
  });

  it('has no email subscription without alarmEmail', () => {
    build.template.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('keeps the CloudFront alarm out of a stack outside us-east-1, says where it is, and keeps the rate on the dashboard', () => {
    expect(alarmsOn(build, '5xxErrorRate')).toHaveLength(0);
    const notes = build.app
      .synth()
      .getStackArtifact(build.stack.artifactId)
      .messages.map((m) => String(m.entry.data));
    expect(
      notes.some((note) => note.includes('CloudFront 5xx-rate alarm is in the companion stack in us-east-1')),
    ).toBe(true);
    const body = JSON.stringify(Object.values(build.template.findResources('AWS::CloudWatch::Dashboard'))[0]);
    expect(body).toContain('5xxErrorRate');
    expect(body).toContain('us-east-1');
  });

  it('has one dashboard with the alarms’ metrics and the QuickSight dashboard views and load time', () => {
    const dashboards = Object.values(build.template.findResources('AWS::CloudWatch::Dashboard')) as Resource[];
    expect(dashboards).toHaveLength(1);
    expect(dashboards[0]?.Properties.DashboardName).toBe(`${build.stack.stackName}-us-east-2-operations`);
    const body = JSON.stringify(dashboards[0]?.Properties.DashboardBody);
    for (const metric of [
      'DashboardViewCount',
      'DashboardViewLoadTime',
      'AWS/QuickSight',
      QUICKSIGHT_FAILURES_METRIC,
      'DeliveryFailures',
      'SignInThrottles',
      'Reputation.BounceRate',
      'Reputation.ComplaintRate',
      '5XXError',
      'Throttles',
      'Url5xxCount',
      'CognitoThrottles',
      'ThrottledRequests',
      'SystemErrors',
    ]) {
      expect(body).toContain(metric);
    }
  });

  it('leaves tracing off by default', () => {
    for (const path of FUNCTION_PATHS) expect(functionOf(build, path).Properties.TracingConfig).toBeUndefined();
    expect(
      policyStatements(build.template)
        .flatMap(({ statement }) => asList(statement.Action as string[]))
        .filter((a) => a.startsWith('xray:')),
    ).toEqual([]);
  });
});

describe('operations pack in us-east-1, with alarmEmail and tracing', () => {
  let build: PortalBuild;
  beforeAll(() => {
    build = buildPortal({ context: { region: 'us-east-1', alarmEmail: 'On-Call@Example.com', tracing: 'true' } });
  });
  afterAll(() => build.dispose());

  it("alarms on the site's CloudFront 5xx error rate", () => {
    const distribution = logicalIdAt(build.template, 'AWS::CloudFront::Distribution', '/Site/Distribution/');
    const [alarm] = alarmsOn(build, '5xxErrorRate', { Name: 'DistributionId', Value: { Ref: distribution } });
    expect(alarm?.Properties).toMatchObject({
      Namespace: 'AWS/CloudFront',
      Threshold: 1,
      AlarmActions: [{ Ref: topicId(build) }],
    });
  });

  it('subscribes alarmEmail to the alarm topic', () => {
    build.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'on-call@example.com',
      TopicArn: { Ref: topicId(build) },
    });
  });

  it('turns on active tracing of every function with the X-Ray grant in its own policy', () => {
    for (const path of FUNCTION_PATHS) {
      expect(functionOf(build, path).Properties.TracingConfig).toEqual({ Mode: 'Active' });
      const roleId = logicalIdAt(build.template, 'AWS::IAM::Role', `${path}Role/`);
      const policyId = logicalIdAt(build.template, 'AWS::IAM::ManagedPolicy', `${path}Policy/`);
      const trace = policyStatements(build.template).find(
        ({ resource, statement }) => resource === policyId && statement.Sid === 'WriteTraces',
      );
      expect(trace?.statement.Resource).toBe('*');
      expect(asList(trace?.statement.Action as string[]).sort()).toEqual([
        'xray:PutTelemetryRecords',
        'xray:PutTraceSegments',
      ]);
      expect((build.template.toJSON().Resources[policyId] as Resource).Properties.Roles).toContainEqual({
        Ref: roleId,
      });
    }
  });

  it('records the X-Ray grant as used by the Lambda service in the compliance report', () => {
    const report = JSON.parse(readFileSync(join(build.outdir, 'compliance', 'report.json'), 'utf8')) as {
      access: {
        principals: {
          kind: string;
          name: string;
          unusedGrants: string[];
          rows: { action: string; usedBy: string[] }[];
        }[];
      }[];
    };
    const roles = report.access.flatMap((stack) => stack.principals).filter((p) => p.kind === 'function role');
    expect(roles).toHaveLength(FUNCTION_PATHS.length);
    for (const role of roles) {
      expect(role.unusedGrants, role.name).toEqual([]);
      const trace = role.rows.find((row) => row.action === 'xray:PutTraceSegments');
      expect(trace?.usedBy.join(' '), role.name).toContain('active X-Ray tracing');
    }
  });
});

describe('the CloudFront alarm of a deployment outside us-east-1', () => {
  let build: PortalBuild;
  let companion: {
    stackName: string;
    region: string;
    template: ReturnType<Template['toJSON']>;
    dependencies: string[];
  };
  beforeAll(() => {
    build = buildPortal({ context: { region: 'eu-west-1', environment: 'prod', alarmEmail: 'on-call@example.com' } });
    const stacks = build.app.synth().stacks.filter((stack) => stack.stackName !== build.stack.stackName);
    expect(stacks).toHaveLength(1);
    const [stack] = stacks;
    companion = {
      stackName: stack!.stackName,
      region: stack!.environment.region,
      template: stack!.template,
      dependencies: stack!.dependencies.map((d) => d.id),
    };
  });
  afterAll(() => build.dispose());

  it('lives in a us-east-1 companion stack named after the portal stack and its region, deployed after it', () => {
    expect(companion.region).toBe('us-east-1');
    expect(companion.stackName).toBe(`${build.stack.stackName}-eu-west-1-edge-alarms`);
    expect(companion.dependencies).toContain(build.stack.artifactId);
  });

  it('alarms on the distribution of the portal stack, read from its outputs in its region (Fn::GetStackOutput)', () => {
    const alarms = Object.values(companion.template.Resources as Record<string, Resource>).filter(
      (r) => r.Type === 'AWS::CloudWatch::Alarm',
    );
    expect(alarms).toHaveLength(1);
    const alarm = alarms[0]!.Properties;
    expect(alarm).toMatchObject({ Namespace: 'AWS/CloudFront', MetricName: '5xxErrorRate', Threshold: 1 });
    const distribution = asList(alarm.Dimensions).find((d) => (d as { Name: string }).Name === 'DistributionId') as {
      Value: { 'Fn::GetStackOutput': { StackName: string; Region: string; OutputName: string } };
    };
    const reference = distribution.Value['Fn::GetStackOutput'];
    expect(reference).toMatchObject({ StackName: build.stack.stackName, Region: 'eu-west-1' });
    // The output it reads is the distribution's id in the portal stack.
    const distributionId = logicalIdAt(build.template, 'AWS::CloudFront::Distribution', '/Site/Distribution/');
    expect(
      (build.template.toJSON().Outputs as Record<string, { Value: unknown }>)[reference.OutputName]?.Value,
    ).toEqual({ Ref: distributionId });
  });

  it('notifies an encrypted topic of its own region, with the alarmEmail subscription', () => {
    const resources = Object.values(companion.template.Resources as Record<string, Resource>);
    const topic = resources.find((r) => r.Type === 'AWS::SNS::Topic');
    expect(topic?.Properties.KmsMasterKeyId).toBeDefined();
    expect(resources.find((r) => r.Type === 'AWS::SNS::Subscription')?.Properties).toMatchObject({
      Protocol: 'email',
      Endpoint: 'on-call@example.com',
    });
    const alarm = resources.find((r) => r.Type === 'AWS::CloudWatch::Alarm');
    expect(alarm?.Properties.AlarmActions).toHaveLength(1);
    expect(alarm?.Properties.OKActions).toEqual(alarm?.Properties.AlarmActions);
  });

  it('lets CloudWatch use its topic key only for alarms of its own account and region', () => {
    const key = Object.values(companion.template.Resources as Record<string, Resource>).find(
      (r) => r.Type === 'AWS::KMS::Key',
    );
    const statement = (key?.Properties.KeyPolicy.Statement as Resource[]).find(
      (s) => s.Sid === 'CloudWatchAlarmsEncryptForTopic',
    );
    expect(statement?.Condition.StringEquals).toEqual({ 'aws:SourceAccount': { Ref: 'AWS::AccountId' } });
    expect(JSON.stringify(statement?.Condition.ArnLike['aws:SourceArn'])).toContain(':alarm:*');
  });

  it('is not made for a us-east-1 deployment, which holds the alarm itself', () => {
    const east = buildPortal({ context: { region: 'us-east-1' } });
    try {
      expect(east.app.synth().stacks.map((stack) => stack.stackName)).toEqual([east.stack.stackName]);
    } finally {
      east.dispose();
    }
  });
});

describe('operations: false', () => {
  it('removes the alarms, the topic and the dashboard', () => {
    const build = buildPortal({ context: { operations: 'false' } });
    try {
      for (const type of ['AWS::CloudWatch::Alarm', 'AWS::CloudWatch::Dashboard', 'AWS::SNS::Topic', 'AWS::KMS::Key'])
        build.template.resourceCountIs(type, 0);
      expect(build.app.synth().stacks.map((stack) => stack.stackName)).toEqual([build.stack.stackName]);
    } finally {
      build.dispose();
    }
  });
});

describe('operations configuration', () => {
  it.each([
    [{ operations: 'sometimes' }, 'operations: must be true or false'],
    [{ tracing: 'yes' }, 'tracing: must be true or false'],
    [{ alarmEmail: 'on-call' }, 'alarmEmail: must be an email address'],
    [{ alarmEmail: 'on-call@example.com', operations: 'false' }, 'alarmEmail: is set while operations is false'],
  ])('refuses %j', (context, message) => {
    expect(configProblems(context)).toContain(message);
  });

  it('defaults to operations on and tracing off, and accepts the values on the command line', () => {
    expect(loadConfig(() => undefined)).toMatchObject({ operations: true, tracing: false, alarmEmail: undefined });
    const context: Record<string, string> = { operations: 'true', tracing: 'true', alarmEmail: 'Ops@Example.com' };
    expect(loadConfig((key) => context[key])).toMatchObject({
      operations: true,
      tracing: true,
      alarmEmail: 'ops@example.com',
    });
  });
});
