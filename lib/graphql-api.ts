import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as appsync from 'aws-cdk-lib/aws-appsync';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { Kind, parse } from 'graphql';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ENV } from '#contracts/env.ts';
import { QUERY_DEPTH_LIMIT, RESOLVER_COUNT_LIMIT } from '#contracts/graphql-limits.ts';
import type { PortalAuth } from './auth.ts';
import { QUICKSIGHT_DASHBOARDS_REASON } from './api-functions.ts';
import { DATASETS_REASON } from './company-access.ts';
import { acknowledge, wildcardResourceFinding } from './compliance.ts';
import type { PortalData } from './data.ts';
import { CATALOGUE_ACTIONS, PortalFunction, STATE_ITEM_ACTIONS, type TableAction } from './portal-function.ts';
import { quickSightArns, quickSightEnvironment, type QuickSightTarget } from './quicksight.ts';

export const SCHEMA_FILE = fileURLToPath(new URL('../contracts/schema.graphql', import.meta.url));

export interface PortalGraphqlApiProps {
  /** Name of the API (see `PortalNames`). */
  readonly apiName: string;
  readonly auth: PortalAuth;
  readonly data: PortalData;
  /** The QuickSight account: a catalogue entry is created only for a dashboard QuickSight has. */
  readonly quicksight: QuickSightTarget;
  /**
   * The row-level-security rules dataset (CompanyAccess): a subscription is taken only for a
   * dashboard whose datasets apply it (lambdas/shared/companies/scope.ts).
   */
  readonly companyRulesDataSetId: string;
  /** Tokens of a sign-in older than this are refused by the resolver. */
  readonly absoluteSessionMinutes: number;
  readonly logRetention: logs.RetentionDays;
  readonly retainLogs: boolean;
}

/**
 * The State table: the claims, pointers and leases (STATE_ITEM_ACTIONS), and the caller's
 * subscriptions (lambdas/shared/data/subscriptions.ts): listed and counted with a Query of
 * the base table, paused and resumed with UpdateItem.
 */
const SUBSCRIPTION_STATE_ACTIONS: readonly TableAction[] = [
  ...STATE_ITEM_ACTIONS,
  'dynamodb:Query',
  'dynamodb:UpdateItem',
];

/** Every Query and Mutation field of the schema: each gets a resolver on the Lambda data source. */
export function rootFields(schemaSource: string): { typeName: 'Query' | 'Mutation'; fieldName: string }[] {
  const fields: { typeName: 'Query' | 'Mutation'; fieldName: string }[] = [];
  for (const definition of parse(schemaSource).definitions) {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION) continue;
    const typeName = definition.name.value;
    if (typeName !== 'Query' && typeName !== 'Mutation') continue;
    for (const field of definition.fields ?? []) fields.push({ typeName, fieldName: field.name.value });
  }
  return fields;
}

/**
 * The AppSync API over `contracts/schema.graphql` with Cognito user-pool authorization.
 * Resolvers run in one Lambda data source (direct Lambda resolvers) so the same resolver
 * code serves local mode, where AppSync's own resolver runtimes cannot run. Field logs at
 * ERROR level and X-Ray tracing are on.
 */
export class PortalGraphqlApi extends Construct {
  readonly api: appsync.GraphqlApi;
  readonly resolver: PortalFunction;

  constructor(scope: Construct, id: string, props: PortalGraphqlApiProps) {
    super(scope, id);
    const { auth, data } = props;

    this.resolver = new PortalFunction(this, 'Resolver', {
      name: 'graphql',
      description: 'Resolves the GraphQL operations on views, the dashboard catalogue and subscriptions',
      memorySize: 512,
      timeout: Duration.seconds(15),
      logRetention: props.logRetention,
      retainLogs: props.retainLogs,
      environment: {
        ...quickSightEnvironment(props.quicksight),
        [ENV.userPoolId]: auth.userPool.userPoolId,
        [ENV.userPoolClientId]: auth.client.userPoolClientId,
        [ENV.absoluteSessionMinutes]: String(props.absoluteSessionMinutes),
        [ENV.companyRulesDataSetId]: props.companyRulesDataSetId,
      },
    });
    // createDashboardMetadata (admins only) checks the dashboard exists in QuickSight first;
    // createSubscription checks that every dataset behind the dashboard applies the company rules.
    const { dashboards, dataSets } = quickSightArns(props.quicksight);
    this.resolver.allow(
      new iam.PolicyStatement({
        sid: 'CheckDashboard',
        actions: ['quicksight:DescribeDashboard'],
        resources: [dashboards],
      }),
    );
    this.resolver.allow(
      new iam.PolicyStatement({
        sid: 'CheckDataSets',
        actions: ['quicksight:DescribeDataSet'],
        resources: [dataSets],
      }),
    );
    acknowledge(this.resolver.policy, {
      [wildcardResourceFinding(this, dashboards)]: QUICKSIGHT_DASHBOARDS_REASON,
      [wildcardResourceFinding(this, dataSets)]: DATASETS_REASON,
    });
    this.resolver.bindTable(data.table('Views'), [
      'dynamodb:GetItem',
      'dynamodb:Query',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
    ]);
    this.resolver.bindTable(data.table('Dashboards'), CATALOGUE_ACTIONS);
    this.resolver.bindTable(data.table('State'), SUBSCRIPTION_STATE_ACTIONS);
    this.resolver.bindTable(data.table('Audit'), ['dynamodb:PutItem']);
    // A token that claims Admins is confirmed against the group as Cognito holds it now; a
    // token from a refresh is checked against the account (AdminGetUser) and the State table's
    // record of ended sessions, which STATE_ITEM_ACTIONS already reads.
    this.resolver.allow(
      new iam.PolicyStatement({
        sid: 'UserPool',
        actions: ['cognito-idp:AdminListGroupsForUser', 'cognito-idp:AdminGetUser'],
        resources: [auth.userPool.userPoolArn],
      }),
    );

    this.api = new appsync.GraphqlApi(this, 'Api', {
      name: props.apiName,
      definition: appsync.Definition.fromFile(SCHEMA_FILE),
      authorizationConfig: {
        defaultAuthorization: {
          authorizationType: appsync.AuthorizationType.USER_POOL,
          userPoolConfig: {
            userPool: auth.userPool,
            appIdClientRegex: `^${auth.client.userPoolClientId}$`,
            defaultAction: appsync.UserPoolDefaultAction.ALLOW,
          },
        },
      },
      xrayEnabled: true,
      introspectionConfig: appsync.IntrospectionConfig.DISABLED,
      // The same limits as local mode's stand-in (contracts/graphql-limits.ts).
      queryDepthLimit: QUERY_DEPTH_LIMIT,
      resolverCountLimit: RESOLVER_COUNT_LIMIT,
    });
    this.configureLogging(props);

    // The data source's role may invoke the resolver function and nothing else.
    const invokeRole = new iam.Role(this, 'DataSourceRole', {
      assumedBy: new iam.ServicePrincipal('appsync.amazonaws.com'),
      description: 'Lets AppSync invoke the GraphQL resolver function',
    });
    new iam.ManagedPolicy(this, 'DataSourcePolicy', {
      description: 'Lets AppSync invoke the GraphQL resolver function',
      roles: [invokeRole],
      statements: [
        new iam.PolicyStatement({
          sid: 'InvokeResolver',
          actions: ['lambda:InvokeFunction'],
          resources: [this.resolver.function.functionArn],
        }),
      ],
    });
    const dataSource = new appsync.LambdaDataSource(this, 'Resolvers', {
      api: this.api,
      lambdaFunction: this.resolver.function,
      description: 'The resolver function of every Query and Mutation field',
      // The role's permissions are the managed policy above; grants CDK would add
      // (including a version wildcard) are not applied to it.
      serviceRole: invokeRole.withoutPolicyUpdates(),
    });
    for (const { typeName, fieldName } of rootFields(readFileSync(SCHEMA_FILE, 'utf8'))) {
      dataSource.createResolver(`${typeName}${fieldName[0]?.toUpperCase()}${fieldName.slice(1)}`, {
        typeName,
        fieldName,
      });
    }
  }

  /**
   * Field logs at ERROR level into a log group this stack owns (with retention). The log
   * configuration is set on the CloudFormation resource directly: the higher-level option
   * would add a log-retention custom resource with an AWS-managed policy and wildcard
   * permissions for the same result. The logging role's policy names the API's own log
   * group, which exists only once the API has an id, hence a separate policy resource.
   */
  private configureLogging(props: PortalGraphqlApiProps): void {
    const logGroup = new logs.LogGroup(this, 'Logs', {
      logGroupName: `/aws/appsync/apis/${this.api.apiId}`,
      retention: props.logRetention,
      removalPolicy: props.retainLogs ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    const loggingRole = new iam.Role(this, 'LoggingRole', {
      assumedBy: new iam.ServicePrincipal('appsync.amazonaws.com'),
      description: 'Lets AppSync write the GraphQL API logs',
    });
    new iam.ManagedPolicy(this, 'LoggingPolicy', {
      description: 'Lets AppSync write the GraphQL API logs',
      roles: [loggingRole],
      statements: [
        new iam.PolicyStatement({
          sid: 'WriteApiLogs',
          actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          resources: [logGroup.logGroupArn],
        }),
      ],
    });
    const cfnApi = this.api.node.defaultChild as appsync.CfnGraphQLApi;
    cfnApi.logConfig = {
      cloudWatchLogsRoleArn: loggingRole.roleArn,
      fieldLogLevel: appsync.FieldLogLevel.ERROR,
      excludeVerboseContent: false,
    };
    acknowledge(logGroup, {
      'NIST.800.53.R5-CloudWatchLogGroupEncrypted':
        'CloudWatch Logs encrypts every log group at rest with service-managed AES-256 keys. Field logs are at ERROR level and the resolvers never return tokens or secrets; read access to the logs is governed by IAM, so a customer-managed KMS key would add key administration without changing who can read them.',
    });
  }
}
