import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { MANIFEST_KEY, RULES_KEY, RULES_PREFIX } from '#contracts/company-rules.ts';
import { ENV } from '#contracts/env.ts';
import { VIEWS_BY_DASHBOARD_INDEX } from '#contracts/tables.ts';
import { QUICKSIGHT_DASHBOARDS_REASON, QUICKSIGHT_USERS_REASON } from './api-functions.ts';
import { acknowledge, wildcardResourceFinding } from './compliance.ts';
import type { PortalData } from './data.ts';
import { PortalFunction } from './portal-function.ts';
import { quickSightArns, quickSightEnvironment, type QuickSightTarget } from './quicksight.ts';
import { companyRulesNames } from './stack-names.ts';

/**
 * Where the row-level-security rules file and its QuickSight manifest live in the rules
 * bucket (lambdas/shared/companies/rules.ts writes `rules.csv` and `manifest.json` there).
 * Every S3 grant of this module is confined to it.
 */
const COMPANY_RULES_PREFIX = RULES_PREFIX;

/** How often the company-access check compares the portal with QuickSight. */
const COMPANY_CHECK_INTERVAL = Duration.days(1);

/**
 * Lambda's default for asynchronous invocations, set explicitly because the acknowledgement
 * of the missing dead-letter queue relies on it: a failed scheduled run is tried twice more.
 */
const CHECK_RETRY_ATTEMPTS = 2;

export interface CompanyAccessProps {
  readonly data: PortalData;
  readonly quicksight: QuickSightTarget;
  /** The QuickSight management function (lambdas/quicksight-admin): it keeps the groups and the rules current. */
  readonly manager: PortalFunction;
  /** Bucket receiving the rules bucket's server access logs (the site's access-log bucket). */
  readonly accessLogBucket: s3.IBucket;
  readonly logRetention: logs.RetentionDays;
  readonly retainLogs: boolean;
  /**
   * ARN of the QuickSight user or group (an author) granted the rules data source and dataset,
   * so that they can choose the rules in the console (config `quicksightAuthorArn`).
   * @default none: the rules are visible to no author
   */
  readonly rulesAuthorArn?: string;
}

const RULES_BUCKET_ACKNOWLEDGEMENTS = {
  'NIST.800.53.R5-S3DefaultEncryptionKMS':
    "The bucket holds one small CSV file mapping the portal's QuickSight company groups to company names, and its QuickSight manifest: no personal data, credentials or business figures. Objects are encrypted at rest with S3-managed keys (SSE-S3, AES-256), every request must use TLS, public access is blocked, and only the QuickSight management function, the company-access check and the role QuickSight assumes to load the file are granted access to the company-rules/ prefix. A customer-managed KMS key would add key administration and key grants for QuickSight without narrowing who can read the file.",
  'NIST.800.53.R5-S3BucketReplicationEnabled':
    'The file is derived data: the QuickSight management function writes it again from the companies in the State table (point-in-time recovery) on every company change and whenever an administrator mends the access check, and QuickSight keeps its own loaded copy in SPICE. The bucket is versioned; a copy in another region would add nothing that cannot be regenerated within a minute.',
} as const;

const RULES_OBJECTS_REASON =
  'The grant covers only the company-rules/ prefix of the portal’s own rules bucket, which holds exactly two objects (rules.csv and manifest.json); the pattern names the prefix rather than the two keys so that the prefix, not a list kept in step with the code, is the boundary.';
const COMPANY_GROUPS_REASON =
  'Company groups are created at run time, one per company an administrator adds, so their names are not known at deployment. The pattern is confined to one account, the identity region, the configured namespace and the group-name prefix of this deployment (`<stack name>-company-`): groups of QuickSight authors or of other deployments are out of reach.';
const LIST_GROUPS_REASON =
  'QuickSight authorizes ListGroups on the groups of the namespace as a whole (the request names no group), so the grant names the namespace’s groups; it lets the function read group names only. Every change to a group is allowed on the portal’s own group-name prefix alone.';
export const DATASETS_REASON =
  'The datasets behind a catalogue dashboard are chosen by QuickSight authors and change as they edit the dashboard, so they cannot be listed at deployment; DescribeDashboard names them at run time. The grant allows describing a dataset only (to see whether it applies the portal’s row-level security), within one account and region.';
const INGESTIONS_REASON =
  'Each load of the rules file is a new SPICE ingestion whose id is made at run time. The pattern is confined to the ingestions of the portal’s own rules dataset.';
const NO_RESOURCE_LEVEL_SOURCE =
  'the Service Authorization Reference ("Actions, resources, and condition keys for Amazon QuickSight") lists no resource type';
const CREATE_DATA_SOURCE_REASON = `QuickSight CreateDataSource and ListIngestions support no resource-level permissions (${NO_RESOURCE_LEVEL_SOURCE} for them), so IAM accepts only "*" in their statement, which allows these two actions and nothing else. The function creates only the rules data source of this deployment, whose id and manifest location come from its configuration, and lists the ingestions of the rules dataset only.`;
const LIST_INGESTIONS_REASON = `QuickSight ListIngestions supports no resource-level permissions (${NO_RESOURCE_LEVEL_SOURCE} for it), so IAM accepts only "*" in its statement, which allows this read-only action and nothing else. The check lists the ingestions of the portal's rules dataset only, to see whether the last load completed.`;
const CHECK_FAILURE_HANDLING = `The company-access check is invoked asynchronously once a day by an EventBridge schedule with a fixed scheduled event that carries no data. Lambda retries a failed run ${CHECK_RETRY_ATTEMPTS} more times (the function's EventInvokeConfig); a run that still fails raises the function's Errors alarm, and the missed-check alarm of the operations pack notifies when no check has completed for more than a day. A dead-letter queue would hold copies of the empty scheduled event, which carry nothing to replay: the remedy is to run the check again (the next day's schedule, the admin portal's company-access check, or invoking the function).`;

/**
 * What the check's bundle can call but never does: the mending code of the shared access check
 * (lambdas/shared/companies/check.ts) runs only with `fix`, which the admin action passes and
 * the scheduled handler never does. Not granting it keeps the daily check read-only in IAM too.
 */
export const CHECK_WITHHELD_ACTIONS = [
  'quicksight:CreateGroup',
  'quicksight:DeleteGroup',
  'quicksight:CreateGroupMembership',
  'quicksight:DeleteGroupMembership',
  'quicksight:CreateDataSource',
  'quicksight:DeleteDataSource',
  'quicksight:DescribeDataSourcePermissions',
  'quicksight:UpdateDataSourcePermissions',
  'quicksight:CreateDataSet',
  'quicksight:DescribeDataSetPermissions',
  'quicksight:UpdateDataSetPermissions',
  'quicksight:PassDataSource',
  'quicksight:CreateIngestion',
  'iam:PassRole',
  's3:PutObject',
] as const;
const CHECK_WITHHELD_REASON =
  'The scheduled handler (lambdas/company-check/handler.ts) runs the shared access check with fix: false, so the mending calls it bundles (groups, memberships, the rules file and its load) are never made; mending is the QuickSight management function’s, on an administrator’s choice. A change that made the check mend would be refused by IAM.';

/**
 * Companies as QuickSight sees them: the private bucket holding the row-level-security rules
 * file, the role QuickSight assumes to read it (S3Parameters.RoleArn of the rules data
 * source), the grants of the QuickSight management function that keeps groups and rules
 * current, and the daily company-access check that compares the portal with QuickSight and
 * publishes the count of differences (it never changes anything in QuickSight).
 */
export class CompanyAccess extends Construct {
  readonly bucket: s3.Bucket;
  /** The role QuickSight assumes to read the rules file. */
  readonly quickSightRole: iam.Role;
  readonly check: PortalFunction;
  readonly schedule: events.Rule;
  readonly dataSourceId: string;
  readonly dataSetId: string;
  readonly groupPrefix: string;

  constructor(scope: Construct, id: string, props: CompanyAccessProps) {
    super(scope, id);
    const names = companyRulesNames(Stack.of(this).stackName);
    this.dataSourceId = names.dataSourceId;
    this.dataSetId = names.dataSetId;
    this.groupPrefix = names.groupPrefix;

    this.bucket = new s3.Bucket(this, 'RulesBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: props.accessLogBucket,
      serverAccessLogsPrefix: 's3-company-rules/',
      // Every company change writes the file again; a month of earlier versions is history enough.
      lifecycleRules: [{ noncurrentVersionExpiration: Duration.days(30) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(this.bucket, RULES_BUCKET_ACKNOWLEDGEMENTS);

    const rulesObjects = this.bucket.arnForObjects(`${COMPANY_RULES_PREFIX}*`);
    // QuickSight accepts only a role of its own account as a data source's RoleArn ("Running
    // queries as an IAM role in Amazon QuickSight"), so no other account can have it read here.
    this.quickSightRole = new iam.Role(this, 'QuickSightReadRole', {
      assumedBy: new iam.ServicePrincipal('quicksight.amazonaws.com'),
      description: 'Lets QuickSight read the portal company rules file for its row-level-security dataset',
    });
    // The user guide's example policy for an S3 data source ("Attaching additional policies",
    // https://docs.aws.amazon.com/quicksight/latest/user/security-create-iam-role-athena-s3.html):
    // s3:ListBucket (with s3:GetBucketLocation) on the bucket, s3:GetObject and
    // s3:GetObjectVersion on the objects; here the rules bucket and its two objects only. Its
    // s3:ListAllMyBuckets serves the console's bucket picker, which a data source made through
    // the API does not use.
    new iam.ManagedPolicy(this, 'QuickSightReadPolicy', {
      description: 'QuickSight reads the company rules file and its manifest',
      roles: [this.quickSightRole],
      statements: [
        new iam.PolicyStatement({
          sid: 'FindRulesBucket',
          actions: ['s3:ListBucket', 's3:GetBucketLocation'],
          resources: [this.bucket.bucketArn],
        }),
        new iam.PolicyStatement({
          sid: 'ReadCompanyRules',
          actions: ['s3:GetObject', 's3:GetObjectVersion'],
          resources: [this.bucket.arnForObjects(RULES_KEY), this.bucket.arnForObjects(MANIFEST_KEY)],
        }),
      ],
    });

    const environment = {
      ...quickSightEnvironment(props.quicksight),
      [ENV.companyRulesBucket]: this.bucket.bucketName,
      [ENV.companyRulesDataSourceId]: this.dataSourceId,
      [ENV.companyRulesDataSetId]: this.dataSetId,
      [ENV.companyRulesRoleArn]: this.quickSightRole.roleArn,
      [ENV.companyGroupPrefix]: this.groupPrefix,
      ...(props.rulesAuthorArn && { [ENV.companyRulesAuthorArn]: props.rulesAuthorArn }),
    };
    for (const [name, value] of Object.entries(environment)) props.manager.addEnvironment(name, value);
    this.allowManagement(props.manager, props.quicksight, rulesObjects);

    this.check = new PortalFunction(this, 'Check', {
      name: 'company-check',
      description: 'Daily check that QuickSight groups and row-level-security rules match the portal companies',
      // The defaults of the admin functions: it pages through every user and group in one run.
      memorySize: 1024,
      timeout: Duration.seconds(60),
      logRetention: props.logRetention,
      retainLogs: props.retainLogs,
      environment,
      asynchronousFailureHandling: CHECK_FAILURE_HANDLING,
    });
    this.check.function.configureAsyncInvoke({ retryAttempts: CHECK_RETRY_ATTEMPTS });
    this.check.withholdCodePaths(CHECK_WITHHELD_ACTIONS, CHECK_WITHHELD_REASON);
    this.allowCheck(props, rulesObjects);

    this.schedule = new events.Rule(this, 'Schedule', {
      description: 'Runs the portal company-access check once a day',
      schedule: events.Schedule.rate(COMPANY_CHECK_INTERVAL),
      targets: [new targets.LambdaFunction(this.check.function)],
    });
  }

  /** The groups, the rules data source and dataset, their loads, and the rules file. */
  private allowManagement(manager: PortalFunction, target: QuickSightTarget, rulesObjects: string): void {
    const qs = quickSightArns(target);
    const groups = qs.groupsNamed(this.groupPrefix);
    const ingestions = qs.ingestionsOf(this.dataSetId);
    const statements = [
      new iam.PolicyStatement({
        sid: 'ManageCompanyGroups',
        actions: [
          'quicksight:CreateGroup',
          'quicksight:DeleteGroup',
          'quicksight:CreateGroupMembership',
          'quicksight:DeleteGroupMembership',
          'quicksight:ListGroupMemberships',
        ],
        resources: [groups],
      }),
      new iam.PolicyStatement({
        sid: 'ListGroups',
        actions: ['quicksight:ListGroups'],
        resources: [qs.groupsInNamespace],
      }),
      new iam.PolicyStatement({
        sid: 'DescribeDashboards',
        actions: ['quicksight:DescribeDashboard'],
        resources: [qs.dashboards],
      }),
      new iam.PolicyStatement({
        sid: 'DescribeDataSets',
        actions: ['quicksight:DescribeDataSet'],
        resources: [qs.dataSets],
      }),
      // Describe and pass the rules data source; grant its author; delete it when QuickSight failed to create it.
      new iam.PolicyStatement({
        sid: 'UseRulesDataSource',
        actions: [
          'quicksight:DescribeDataSource',
          'quicksight:PassDataSource',
          'quicksight:DeleteDataSource',
          'quicksight:DescribeDataSourcePermissions',
          'quicksight:UpdateDataSourcePermissions',
        ],
        resources: [qs.dataSource(this.dataSourceId)],
      }),
      new iam.PolicyStatement({
        sid: 'GrantRulesDataSet',
        actions: ['quicksight:DescribeDataSetPermissions', 'quicksight:UpdateDataSetPermissions'],
        resources: [qs.dataSet(this.dataSetId)],
      }),
      // CreateDataSet is authorized on the data source it reads (Service Authorization Reference);
      // the dataset's own ARN is named too, so the grant stays confined whichever QuickSight checks.
      new iam.PolicyStatement({
        sid: 'CreateRulesDataSet',
        actions: ['quicksight:CreateDataSet'],
        resources: [qs.dataSource(this.dataSourceId), qs.dataSet(this.dataSetId)],
      }),
      new iam.PolicyStatement({ sid: 'LoadRules', actions: ['quicksight:CreateIngestion'], resources: [ingestions] }),
      new iam.PolicyStatement({
        sid: 'CreateRulesDataSource',
        actions: ['quicksight:CreateDataSource', 'quicksight:ListIngestions'],
        resources: ['*'],
      }),
      // CreateDataSource hands QuickSight the role that reads the rules file (S3Parameters.RoleArn).
      new iam.PolicyStatement({
        sid: 'PassRulesRole',
        actions: ['iam:PassRole'],
        resources: [this.quickSightRole.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'quicksight.amazonaws.com' } },
      }),
      new iam.PolicyStatement({
        sid: 'WriteCompanyRules',
        actions: ['s3:PutObject', 's3:GetObject'],
        resources: [rulesObjects],
      }),
      // S3 answers a read of a missing key with NoSuchKey only to a caller allowed to list the
      // bucket (403 AccessDenied otherwise: GetObject, API Reference), and "no rules file yet" is
      // a state the check must tell apart from a refusal.
      new iam.PolicyStatement({
        sid: 'TellMissingRules',
        actions: ['s3:ListBucket'],
        resources: [this.bucket.bucketArn],
      }),
    ];
    for (const statement of statements) manager.allow(statement);
    // Its users and dashboards patterns are acknowledged where they are granted (ApiFunctions).
    acknowledge(manager.policy, {
      [wildcardResourceFinding(this, groups)]: COMPANY_GROUPS_REASON,
      [wildcardResourceFinding(this, qs.groupsInNamespace)]: LIST_GROUPS_REASON,
      [wildcardResourceFinding(this, qs.dataSets)]: DATASETS_REASON,
      [wildcardResourceFinding(this, ingestions)]: INGESTIONS_REASON,
      'AwsSolutions-IAM5[Resource::*]': CREATE_DATA_SOURCE_REASON,
      [wildcardResourceFinding(this, rulesObjects)]: RULES_OBJECTS_REASON,
    });
  }

  /**
   * Read-only: users, groups and memberships, the dashboards' datasets, the rules and their loads, the catalogue and
   * the companies.
   */
  private allowCheck(props: CompanyAccessProps, rulesObjects: string): void {
    const check = this.check;
    const qs = quickSightArns(props.quicksight);
    const groups = qs.groupsNamed(this.groupPrefix);
    // The catalogue (Scan), who holds each dashboard (Query), the companies and memberships
    // (Query) and the last check's result (PutItem); the assignments through the by-dashboard index only.
    check.bindTable(props.data.table('Dashboards'), ['dynamodb:Scan']);
    check.bindTable(props.data.table('Views'), ['dynamodb:Query'], { indexes: [VIEWS_BY_DASHBOARD_INDEX] });
    check.bindTable(props.data.table('State'), ['dynamodb:Query', 'dynamodb:PutItem']);
    const statements = [
      new iam.PolicyStatement({
        sid: 'ListQuickSightUsers',
        actions: ['quicksight:ListUsers'],
        resources: [qs.usersInNamespace],
      }),
      new iam.PolicyStatement({
        sid: 'ListGroups',
        actions: ['quicksight:ListGroups'],
        resources: [qs.groupsInNamespace],
      }),
      new iam.PolicyStatement({
        sid: 'ListCompanyGroupMembers',
        actions: ['quicksight:ListGroupMemberships'],
        resources: [groups],
      }),
      new iam.PolicyStatement({
        sid: 'DescribeDashboards',
        actions: ['quicksight:DescribeDashboard'],
        resources: [qs.dashboards],
      }),
      new iam.PolicyStatement({
        sid: 'DescribeDataSets',
        actions: ['quicksight:DescribeDataSet'],
        resources: [qs.dataSets],
      }),
      new iam.PolicyStatement({
        sid: 'DescribeRulesDataSource',
        actions: ['quicksight:DescribeDataSource'],
        resources: [qs.dataSource(this.dataSourceId)],
      }),
      new iam.PolicyStatement({ sid: 'ListRulesIngestions', actions: ['quicksight:ListIngestions'], resources: ['*'] }),
      new iam.PolicyStatement({ sid: 'ReadCompanyRules', actions: ['s3:GetObject'], resources: [rulesObjects] }),
      new iam.PolicyStatement({
        sid: 'TellMissingRules',
        actions: ['s3:ListBucket'],
        resources: [this.bucket.bucketArn],
      }),
    ];
    for (const statement of statements) check.allow(statement);
    acknowledge(check.policy, {
      [wildcardResourceFinding(this, qs.usersInNamespace)]: QUICKSIGHT_USERS_REASON,
      [wildcardResourceFinding(this, qs.dashboards)]: QUICKSIGHT_DASHBOARDS_REASON,
      [wildcardResourceFinding(this, groups)]: COMPANY_GROUPS_REASON,
      [wildcardResourceFinding(this, qs.groupsInNamespace)]: LIST_GROUPS_REASON,
      [wildcardResourceFinding(this, qs.dataSets)]: DATASETS_REASON,
      'AwsSolutions-IAM5[Resource::*]': LIST_INGESTIONS_REASON,
      [wildcardResourceFinding(this, rulesObjects)]: RULES_OBJECTS_REASON,
    });
  }
}
