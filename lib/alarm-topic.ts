import { Aws, Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as cloudfront from 'aws-cdk-lib/aws-cloudfront';

import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';

import * as iam from 'aws-cdk-lib/aws-iam';

import * as kms from 'aws-cdk-lib/aws-kms';

import * as sns from 'aws-cdk-lib/aws-sns';

import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { CLOUDFRONT_METRICS_REGION } from './stack-names.ts';
import { CLOUDFRONT_5XX_RATE_PERCENT, PERIOD } from './operations-metrics.ts';

/**
 * The alarms' delivery: one encrypted SNS topic (optionally mailing an address) that every alarm
 * of the portal notifies, the alarm shape the stacks share, and the site's CloudFront alarm.
 */

/** One alarm as the stacks describe it: the metric, when it fires, and what it says. */
export interface AlarmSpec {
  readonly metric: cloudwatch.IMetric;
  readonly threshold: number;
  readonly description: string;
  /** @default 1 of 1 period */
  readonly evaluationPeriods?: number;
  readonly datapointsToAlarm?: number;
  /** @default at or above the threshold */
  readonly comparisonOperator?: cloudwatch.ComparisonOperator;
  /** @default not breaching: no traffic is no failure */
  readonly treatMissingData?: cloudwatch.TreatMissingData;
}

/**
 * An alarm that notifies the topic behind `action` when it fires and when it clears; by default no data is no
 * failure.
 */
export function notifyingAlarm(
  scope: Construct,
  id: string,
  spec: AlarmSpec,
  action: cloudwatch.IAlarmAction,
): cloudwatch.Alarm {
  const alarm = new cloudwatch.Alarm(scope, id, {
    metric: spec.metric,
    threshold: spec.threshold,
    comparisonOperator: spec.comparisonOperator ?? cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: spec.evaluationPeriods ?? 1,
    datapointsToAlarm: spec.datapointsToAlarm ?? spec.evaluationPeriods ?? 1,
    treatMissingData: spec.treatMissingData ?? cloudwatch.TreatMissingData.NOT_BREACHING,
    alarmDescription: spec.description,
  });
  alarm.addAlarmAction(action);
  alarm.addOkAction(action);
  return alarm;
}

export function cloudFrontErrorRate(distribution: cloudfront.IDistribution): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: 'AWS/CloudFront',
    metricName: '5xxErrorRate',
    dimensionsMap: { DistributionId: distribution.distributionId, Region: 'Global' },
    region: CLOUDFRONT_METRICS_REGION,
    period: PERIOD,
    statistic: cloudwatch.Stats.AVERAGE,
  });
}

/** The site's alarm: a 5xx rate at or above CLOUDFRONT_5XX_RATE_PERCENT in 2 of 3 periods. */
export function cloudFrontAlarmSpec(distribution: cloudfront.IDistribution): AlarmSpec {
  return {
    metric: cloudFrontErrorRate(distribution),
    threshold: CLOUDFRONT_5XX_RATE_PERCENT,
    evaluationPeriods: 3,
    datapointsToAlarm: 2,
    description: `The site answered ${CLOUDFRONT_5XX_RATE_PERCENT} % or more of requests with 5xx errors.`,
  };
}

/** Requests CloudWatch makes for an alarm of this account and region only (the key's and the topic's policies). */
const ALARM_SOURCE_CONDITIONS = {
  ArnLike: { 'aws:SourceArn': `arn:${Aws.PARTITION}:cloudwatch:${Aws.REGION}:${Aws.ACCOUNT_ID}:alarm:*` },
  StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
};

/**
 * The topic alarms notify. SNS encrypts the messages with a customer-managed key: CloudWatch
 * cannot use the AWS managed SNS key, so the key policy lets it encrypt for the topic. The
 * topic policy refuses requests without TLS and admits only this account's alarms as publishers.
 */
export class AlarmTopic extends Construct {
  readonly topic: sns.Topic;

  constructor(scope: Construct, id: string, props: { readonly alarmEmail?: string }) {
    super(scope, id);
    const key = new kms.Key(this, 'AlarmTopicKey', {
      description: 'Encrypts the portal operations alarm notifications at rest in SNS',
      enableKeyRotation: true,
      // It protects transient notifications only; nothing needs decrypting after the stack is gone.
      removalPolicy: RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(7),
    });
    // Only this account's alarms may use the key: CloudWatch uses it on an alarm's behalf, and
    // the source account and alarm ARN conditions keep another account's alarms from doing so
    // (confused-deputy protection); the grant CloudWatch needs for an encrypted topic:
    // https://docs.aws.amazon.com/sns/latest/dg/sns-key-management.html#compatibility-with-aws-services
    key.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'CloudWatchAlarmsEncryptForTopic',
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: ALARM_SOURCE_CONDITIONS,
      }),
    );
    const topic = new sns.Topic(this, 'AlarmTopic', {
      displayName: 'Portal operations alarms',
      masterKey: key,
      enforceSSL: true,
    });
    topic.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'AccountAlarmsPublish',
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [topic.topicArn],
        conditions: ALARM_SOURCE_CONDITIONS,
      }),
    );
    if (props.alarmEmail) topic.addSubscription(new EmailSubscription(props.alarmEmail));
    this.topic = topic;
  }
}
