import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ENV } from '#contracts/env.ts';
import { STATE_DUE_INDEX, VIEWS_BY_USER_INDEX } from '#contracts/tables.ts';
import { QUICKSIGHT_DASHBOARDS_REASON, sesIdentityArn } from './api-functions.ts';
import type { PortalAuth } from './auth.ts';
import { acknowledge, wildcardResourceFinding } from './compliance.ts';
import type { PortalData } from './data.ts';
import { PortalFunction } from './portal-function.ts';
import { quickSightArns, quickSightEnvironment, type QuickSightTarget } from './quicksight.ts';

/** How often the delivery function looks for subscriptions due: delivery times fall on the quarter hour. */
const DELIVERY_INTERVAL = Duration.minutes(5);

/**
 * A failed scheduled run is not retried by Lambda: whatever it did not record stays due (or
 * leased for 10 minutes) and the next run, 5 minutes later, takes it again.
 */
const DELIVERY_RETRY_ATTEMPTS = 0;
const DELIVERY_FAILURE_HANDLING = `A failed run is not retried by Lambda: the subscriptions it did not deliver stay due in the State table (the lease of a run that stopped ends after 10 minutes) and the next scheduled run, ${DELIVERY_INTERVAL.toMinutes()} minutes later, takes them again; each attempt is recorded on the subscription and failures for good are counted in the DeliveryFailures metric, which an alarm watches.`;

const DATASETS_REASON =
  'The datasets behind a catalogue dashboard are chosen by QuickSight authors and change as they edit the dashboard, so they cannot be listed at deployment; DescribeDashboard names them at run time. The grant allows describing a dataset only (to see whether its row-level security and tag rules limit a file to the subscriber’s companies), within one account and region.';

const RECIPIENTS_REASON =
  'While the account is in the SES sandbox, SES authorizes SendEmail on each recipient’s identity as well as the sender’s, and the recipients are the portal’s subscribers, any address, known only at run time. The ses:FromAddress condition confines every send to the portal’s own sender address, and the handler mails each file to its subscriber alone (no recipient can be named by a user). Out of the sandbox only the sender identity is evaluated.';

export interface DeliveriesProps {
  readonly auth: PortalAuth;
  readonly data: PortalData;
  readonly quicksight: QuickSightTarget;
  /** The QuickSight id of the company rules dataset, which a company-scoped dashboard's datasets apply. */
  readonly companyRulesDataSetId: string;
  /** The site's origin first: the mail links to the dashboard there. */
  readonly allowedOrigins: readonly string[];
  readonly senderAddress: string;
  readonly sesIdentity: string;
  readonly logRetention: logs.RetentionDays;
  readonly retainLogs: boolean;
}

/**
 * Subscriptions delivered (lambdas/deliveries): a function that an EventBridge rule runs every
 * 5 minutes. It reads the subscriptions due through the State table's sparse due-time index,
 * has QuickSight make each file as an anonymous user tagged with the subscriber's companies
 * (StartDashboardSnapshotJob), and mails it from the portal's sender identity. It has no
 * function URL: nothing outside the schedule can start it.
 */
export class Deliveries extends Construct {
  readonly function: PortalFunction;
  readonly schedule: events.Rule;

  constructor(scope: Construct, id: string, props: DeliveriesProps) {
    super(scope, id);
    this.function = new PortalFunction(this, 'Function', {
      name: 'deliveries',
      description: 'Mails subscribed dashboards as files holding only the subscriber’s companies’ rows',
      memorySize: 1024,
      // Up to 10 files a run, 3 at a time, each waiting on QuickSight's snapshot job.
      timeout: Duration.minutes(5),
      logRetention: props.logRetention,
      retainLogs: props.retainLogs,
      environment: {
        ...quickSightEnvironment(props.quicksight),
        [ENV.companyRulesDataSetId]: props.companyRulesDataSetId,
        [ENV.supportFromAddress]: props.senderAddress,
        [ENV.allowedOrigins]: props.allowedOrigins.join(','),
        [ENV.userPoolId]: props.auth.userPool.userPoolId,
      },
      asynchronousFailureHandling: DELIVERY_FAILURE_HANDLING,
    });
    this.function.function.configureAsyncInvoke({ retryAttempts: DELIVERY_RETRY_ATTEMPTS });
    this.allow(props);
    this.schedule = new events.Rule(this, 'Schedule', {
      description: 'Runs the portal subscription deliveries every 5 minutes',
      schedule: events.Schedule.rate(DELIVERY_INTERVAL),
      targets: [new targets.LambdaFunction(this.function.function)],
    });
  }

  private allow(props: DeliveriesProps): void {
    const fn = this.function;
    const { data } = props;
    const state = data.table('State');
    // The subscriptions due (the due-time index), their leases and outcomes (UpdateItem), a canceled
    // one (DeleteItem), and the subscriber's membership and companies (GetItem).
    fn.bindTable(state, ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem']);
    fn.bindTable(state, ['dynamodb:Query'], { indexes: [STATE_DUE_INDEX] });
    fn.bindTable(data.table('Views'), ['dynamodb:Query'], { indexes: [VIEWS_BY_USER_INDEX] });
    fn.bindTable(data.table('Dashboards'), ['dynamodb:Scan']);
    fn.bindTable(data.table('Audit'), ['dynamodb:PutItem']);
    const qs = quickSightArns(props.quicksight);
    const recipients = sesIdentityArn('*');
    const statements = [
      new iam.PolicyStatement({
        sid: 'SubscriberAccount',
        actions: ['cognito-idp:AdminGetUser'],
        resources: [props.auth.userPool.userPoolArn],
      }),
      // The dashboard's sheets and visuals, and its datasets' rules; the snapshot jobs on it.
      new iam.PolicyStatement({
        sid: 'MakeDashboardFiles',
        actions: [
          // DescribeDashboardDefinition too: it has no action of its own.
          'quicksight:DescribeDashboard',
          'quicksight:StartDashboardSnapshotJob',
          'quicksight:DescribeDashboardSnapshotJob',
          'quicksight:DescribeDashboardSnapshotJobResult',
        ],
        resources: [qs.dashboards],
      }),
      new iam.PolicyStatement({
        sid: 'DescribeDataSets',
        actions: ['quicksight:DescribeDataSet'],
        resources: [qs.dataSets],
      }),
      // SES authorizes SendEmail on the sending identity and, while the account is in the SES
      // sandbox, on each recipient's identity too (control-user-access.html): the recipients are
      // the subscribers, any address, known only at run time. The condition keeps the sender.
      new iam.PolicyStatement({
        sid: 'SendFromPortalAddress',
        actions: ['ses:SendEmail'],
        resources: [sesIdentityArn(props.sesIdentity), recipients],
        conditions: { StringEquals: { 'ses:FromAddress': props.senderAddress } },
      }),
    ];
    for (const statement of statements) fn.allow(statement);
    acknowledge(fn.policy, {
      [wildcardResourceFinding(this, qs.dashboards)]: QUICKSIGHT_DASHBOARDS_REASON,
      [wildcardResourceFinding(this, qs.dataSets)]: DATASETS_REASON,
      [wildcardResourceFinding(this, recipients)]: RECIPIENTS_REASON,
    });
  }
}
