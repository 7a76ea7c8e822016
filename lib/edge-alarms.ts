import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { Construct } from 'constructs';
import { AlarmTopic, cloudFrontAlarmSpec, notifyingAlarm } from './alarm-topic.ts';
import { CLOUDFRONT_METRICS_REGION } from './stack-names.ts';

export interface EdgeAlarmsStackProps extends StackProps {
  /** The portal's distribution, defined in the portal stack of another region. */
  readonly distribution: cloudfront.IDistribution;
  /** @default no subscription */
  readonly alarmEmail?: string;
}

/**
 * The site's CloudFront alarm for a portal deployed outside us-east-1. CloudFront publishes
 * its metrics only in us-east-1 and an alarm reads its own region's metrics and notifies a
 * topic of its own region, so this small stack holds the alarm and a topic there. The
 * distribution id comes from the portal stack's outputs through CDK's cross-region references,
 * which synthesize to CloudFormation's Fn::GetStackOutput (resolved when this stack deploys):
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference-getstackoutput.html
 */
export class EdgeAlarmsStack extends Stack {
  readonly topic: AlarmTopic['topic'];
  readonly alarm: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: EdgeAlarmsStackProps) {
    super(scope, id, { ...props, crossRegionReferences: true });
    if (this.region !== CLOUDFRONT_METRICS_REGION) {
      throw new Error(
        `EdgeAlarmsStack must be in ${CLOUDFRONT_METRICS_REGION}, where CloudFront publishes its metrics (got ${this.region})`,
      );
    }
    this.topic = new AlarmTopic(this, 'Alarms', { alarmEmail: props.alarmEmail }).topic;
    this.alarm = notifyingAlarm(
      this,
      'cloudfront-5xx-rate',
      cloudFrontAlarmSpec(props.distribution),
      new SnsAction(this.topic),
    );
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.topic.topicArn,
      description: `SNS topic of the site's CloudFront alarm (in ${CLOUDFRONT_METRICS_REGION}; subscribe on-call here too)`,
    });
  }
}
