import { AssetHashType, type CfnResource, DockerImage, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct, type IConstruct } from 'constructs';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ENV } from '#contracts/env.ts';
import { METRICS_NAMESPACE_ENV } from '#contracts/metrics.ts';
import { prebuiltBundle } from './bundling/handler-bundle.ts';
import { acknowledge } from './compliance.ts';
import type { PortalTable } from './data.ts';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** The bundler run in a child process when no prebuilt bundle exists (CDK bundles synchronously). */
const BUNDLE_CLI = fileURLToPath(new URL('./bundling/bundle-cli.ts', import.meta.url));

/**
 * Bundles the handler of function folder `name` into `outputDir` (index.mjs and its chunks,
 * with source maps): a copy of the bundle this process prebuilt (bundleHandlersInto, all
 * handlers at once) or, without one, esbuild in a child process.
 */
const bundleHandlerSync = (name: string, entry: string, outputDir: string): void => {
  const prebuilt = prebuiltBundle(name);
  if (prebuilt !== undefined) {
    cpSync(prebuilt, outputDir, { recursive: true });
    return;
  }
  execFileSync(process.execPath, ['--import', 'tsx', BUNDLE_CLI, entry, outputDir], {
    cwd: projectRoot,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
};

/** The newest Node.js runtime this aws-cdk-lib offers (cdk-nag AwsSolutions-L1 asks for it). */
const FUNCTION_RUNTIME = lambda.Runtime.NODEJS_24_X;

/** The DynamoDB actions a function may be granted on a table. */
export type TableAction =
  | 'dynamodb:GetItem'
  | 'dynamodb:BatchGetItem'
  | 'dynamodb:Query'
  | 'dynamodb:Scan'
  | 'dynamodb:PutItem'
  | 'dynamodb:UpdateItem'
  | 'dynamodb:DeleteItem'
  | 'dynamodb:BatchWriteItem'
  | 'dynamodb:ConditionCheckItem';

/** The actions that read a table or an index by key condition or in full (the others act on one item or a batch). */
const READ_ACTIONS: readonly TableAction[] = ['dynamodb:Query', 'dynamodb:Scan'];

export interface BindTableOptions {
  /**
   * The indexes the function queries or scans; Query and Scan are then granted on them only.
   * @default the table itself, or every index of a table read only through its indexes
   */
  readonly indexes?: readonly string[];
}

/** The catalogue's item operations (lambdas/shared/data/catalogue.ts): read, page, write, remove. */
export const CATALOGUE_ACTIONS: readonly TableAction[] = [
  'dynamodb:GetItem',
  'dynamodb:Scan',
  'dynamodb:PutItem',
  'dynamodb:DeleteItem',
];
/** The State table's single-item claims, pointers and leases: conditional get, put and delete. */
export const STATE_ITEM_ACTIONS: readonly TableAction[] = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:DeleteItem',
];
/** Recording a dashboard view (lambdas/shared/data/usage.ts): the event put, the aggregates' ADD updates. */
export const USAGE_RECORD_ACTIONS: readonly TableAction[] = ['dynamodb:PutItem', 'dynamodb:UpdateItem'];

/** Role metadata naming bundled calls a function never makes (see PortalFunction.withholdCodePaths). */
const WITHHELD_METADATA = 'portal:withheld-code-paths';
interface WithheldCodePaths {
  readonly actions: readonly string[];
  readonly reason: string;
}

/** Findings that hold for every function of the product, with the reasons they are accepted. */
const DEAD_LETTER_FINDING = 'NIST.800.53.R5-LambdaDLQ';
const SYNCHRONOUS_ONLY =
  'The function is invoked synchronously only (a function URL, the AppSync data source or the Cognito trigger): the caller receives the error and retries or reports it. A dead-letter queue receives only failed asynchronous invocations, so it would never hold a message here.';

const FUNCTION_ACKNOWLEDGEMENTS = {
  'NIST.800.53.R5-LambdaInsideVPC':
    'The functions reach only public AWS service endpoints (Cognito, DynamoDB, QuickSight, SES) over TLS with SigV4-signed requests, and the product has no private network resource to isolate. Attaching a VPC would add NAT gateways or interface endpoints without reducing the exposed surface, which is the function URL and is guarded by token verification in every handler.',
  'NIST.800.53.R5-LambdaConcurrency':
    "Availability is protected by the account's regional concurrency limit, by token verification before any work in every handler, and by the contact function's per-user rate limit. A per-function reservation would be carved out of the same account pool (new accounts start with a pool too small to reserve for every function, so deployment would fail) and would cap legitimate peaks; operators can set one in the console once the account quota allows.",
} as const;

const LOG_GROUP_ACKNOWLEDGEMENTS = {
  'NIST.800.53.R5-CloudWatchLogGroupEncrypted':
    'CloudWatch Logs encrypts every log group at rest with service-managed AES-256 keys. The handlers never log tokens, passwords, one-time codes or TOTP secrets, and read access to the logs is governed by IAM; a customer-managed KMS key would add key administration without changing who can read them.',
} as const;

/** Namespace of the functions' custom metrics: the stack's name, so deployments side by side keep theirs apart. */
export const metricsNamespace = (scope: IConstruct): string => Stack.of(scope).stackName;

const TRACING_ACKNOWLEDGEMENT =
  'X-Ray accepts trace segments and telemetry only for the resource "*": PutTraceSegments and PutTelemetryRecords have no resource-level permissions (Service Authorization Reference, AWS X-Ray). The statement allows nothing but writing traces, it is added only when tracing is configured on, and the Lambda service uses it to send the function\'s segments.';

export interface PortalFunctionProps {
  /** Folder under `lambdas/` holding `handler.ts`. */
  readonly name: string;
  readonly description: string;
  /** @default 256 */
  readonly memorySize?: number;
  /** @default 10 seconds */
  readonly timeout?: Duration;
  readonly logRetention: logs.RetentionDays;
  /** Whether the log group is kept when the stack is deleted. */
  readonly retainLogs: boolean;
  readonly environment?: Readonly<Record<string, string>>;
  /**
   * For a function that is invoked asynchronously (a schedule): why a failed invocation needs
   * no dead-letter queue, for the auditor reading the acknowledgement.
   * @default the function is invoked synchronously only, so a dead-letter queue would stay empty
   */
  readonly asynchronousFailureHandling?: string;
}

/**
 * A handler from `lambdas/<name>/handler.ts` with the app's defaults: the newest Node.js
 * runtime on arm64, bundled by the local esbuild as minified ESM with source maps, its own
 * log group with a retention period, and its own role whose only permissions are those
 * granted through this construct (written to one customer-managed policy, so no inline or
 * AWS-managed policy is involved).
 */
export class PortalFunction extends Construct {
  readonly function: lambda.Function;
  readonly role: iam.Role;
  readonly policy: iam.ManagedPolicy;
  readonly logGroup: logs.LogGroup;
  /** The handler folder's name, also its Powertools service name (the `service` metric dimension). */
  readonly serviceName: string;

  constructor(scope: Construct, id: string, props: PortalFunctionProps) {
    super(scope, id);
    this.serviceName = props.name;
    const entry = `${projectRoot}lambdas/${props.name}/handler.ts`;
    if (!existsSync(entry)) {
      throw new Error(`PortalFunction ${id}: no handler at lambdas/${props.name}/handler.ts`);
    }

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: props.retainLogs ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs the ${props.name} function`,
    });
    this.policy = new iam.ManagedPolicy(this, 'Policy', {
      description: `Permissions of the ${props.name} function`,
      roles: [this.role],
      statements: [
        new iam.PolicyStatement({
          sid: 'WriteOwnLogs',
          actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          resources: [this.logGroup.logGroupArn],
        }),
      ],
    });

    this.function = new lambda.Function(this, 'Function', {
      code: lambda.Code.fromAsset(projectRoot, {
        assetHashType: AssetHashType.OUTPUT,
        bundling: {
          // Bundled on this machine only; the image is never pulled.
          image: DockerImage.fromRegistry('dummy'),
          // Part of the asset's cache key: without it every function would share the first bundle.
          command: ['esbuild', `lambdas/${props.name}/handler.ts`],
          local: {
            tryBundle: (outputDir) => {
              bundleHandlerSync(props.name, entry, outputDir);
              return true;
            },
          },
        },
      }),
      handler: 'index.handler',
      description: props.description,
      runtime: FUNCTION_RUNTIME,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? 256,
      timeout: props.timeout ?? Duration.seconds(10),
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      // No NODE_OPTIONS=--enable-source-maps: Node would read and parse the map of every module
      // as it loads it, at start and on the first request. The logger maps a logged error's stack
      // itself, reading only the maps that stack names (lambdas/shared/source-mapped-stack.ts).
      environment: {
        POWERTOOLS_SERVICE_NAME: props.name,
        [METRICS_NAMESPACE_ENV]: metricsNamespace(this),
        [ENV.logLevel]: 'INFO',
        ...props.environment,
      },
    });

    acknowledge(this.function, {
      ...FUNCTION_ACKNOWLEDGEMENTS,
      [DEAD_LETTER_FINDING]: props.asynchronousFailureHandling ?? SYNCHRONOUS_ONLY,
    });
    acknowledge(this.logGroup, LOG_GROUP_ACKNOWLEDGEMENTS);
  }

  /** Every PortalFunction under a scope (the stack: to trace and alarm on each of them). */
  static allIn(scope: IConstruct): PortalFunction[] {
    return scope.node.findAll().filter((child): child is PortalFunction => child instanceof PortalFunction);
  }

  /**
   * Active X-Ray tracing: the Lambda service samples requests and sends their segments with
   * the function's role, so the grant goes into the function's own policy. Set on the
   * CloudFormation resource because the higher-level option would add it to an inline policy.
   */
  enableActiveTracing(): void {
    (this.function.node.defaultChild as lambda.CfnFunction).tracingConfig = { mode: lambda.Tracing.ACTIVE };
    this.allow(
      new iam.PolicyStatement({
        sid: 'WriteTraces',
        actions: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'],
        resources: ['*'],
      }),
    );
    acknowledge(this.policy, { 'AwsSolutions-IAM5[Resource::*]': TRACING_ACKNOWLEDGEMENT });
  }

  /**
   * Declares calls that the handler's bundle contains but that this function never makes, so
   * they are deliberately not granted (the compliance report lists them with the reason
   * instead of as ungranted uses). Shared code brings them along: the daily check bundles
   * the mending code of the admin action and runs it never. Recorded as metadata of the role.
   */
  withholdCodePaths(actions: readonly string[], reason: string): void {
    if (actions.length === 0 || reason.trim().length === 0)
      throw new Error(`PortalFunction ${this.node.id}: withheld code paths need actions and a reason`);
    const role = this.role.node.defaultChild as CfnResource;
    const entries = (role.getMetadata(WITHHELD_METADATA) as WithheldCodePaths[] | undefined) ?? [];
    role.addMetadata(WITHHELD_METADATA, [...entries, { actions: [...actions], reason }]);
  }

  /** Adds a statement to this function's policy. */
  allow(statement: iam.PolicyStatement): void {
    this.policy.addStatements(statement);
  }

  addEnvironment(name: string, value: string): void {
    this.function.addEnvironment(name, value);
  }

  /**
   * Hands the function a table: sets the table's environment variable and allows exactly the
   * given actions. Item actions are authorized on the table (DynamoDB ignores an index ARN for
   * them); Query and Scan where the function reads: the table itself, or its indexes for a table
   * read only through them (PortalTable.readThroughIndexes), all of them unless `indexes` names
   * the ones the function reads.
   */
  bindTable(table: PortalTable, actions: readonly TableAction[], options: BindTableOptions = {}): void {
    const { id, globalSecondaryIndexes } = table.definition;
    const known = globalSecondaryIndexes.map((index) => index.indexName);
    const unknown = (options.indexes ?? []).filter((name) => !known.includes(name));
    if (unknown.length > 0)
      throw new Error(`PortalFunction ${this.node.id}: table ${id} has no index ${unknown.join(', ')}`);
    const reads = actions.filter((action) => READ_ACTIONS.includes(action));
    if (options.indexes !== undefined && (reads.length === 0 || options.indexes.length === 0))
      throw new Error(`PortalFunction ${this.node.id}: indexes of table ${id} are named for a Query or Scan only`);
    const throughIndexes = options.indexes !== undefined || table.readThroughIndexes;
    const onTable = actions.filter((action) => !throughIndexes || !reads.includes(action));
    this.addEnvironment(table.definition.envVar, table.table.tableName);
    if (onTable.length > 0)
      this.allow(new iam.PolicyStatement({ sid: `Table${id}`, actions: onTable, resources: [table.table.tableArn] }));
    if (throughIndexes && reads.length > 0) {
      this.allow(
        new iam.PolicyStatement({
          sid: `Table${id}Indexes`,
          actions: reads,
          resources: (options.indexes ?? known).map((name) => `${table.table.tableArn}/index/${name}`),
        }),
      );
    }
  }
}
