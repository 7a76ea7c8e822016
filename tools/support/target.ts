import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { auditTable, usageTable } from '#contracts/tables.ts';
import type { PortalConfig } from '#lib/config.ts';
import { portalStackName } from '#lib/stack-names.ts';
import {
  localTableName,
  LOCAL_CREDENTIALS,
  readStackInfo,
  stackFilePath,
  type StackInfo,
} from '#clients/local-stack.ts';
import { ToolError, describeError, type TargetOptions } from './cli.ts';
import { deploymentConfig, localConfig } from './config.ts';
import type { VerificationRecords } from './verify-records.ts';

/**
 * A deployed portal as the tools see it: the addresses of its parts (from the CloudFormation
 * stack's outputs, or the local stack's stack.json) and an administrator's Cognito client
 * (the current AWS credentials, or local mode's administrator).
 */
export interface PortalTarget {
  readonly kind: 'aws' | 'local';
  /** For messages: the stack name and region, or the local stack's address. */
  readonly description: string;
  readonly config: PortalConfig;
  readonly region: string;
  readonly siteUrl: string;
  readonly userPoolId: string;
  readonly clientId: string;
  /** Cognito's endpoint for the sign-in library (regional endpoint on AWS). */
  readonly cognitoEndpoint: string;
  readonly graphqlUrl: string;
  readonly functions: StackInfo['functions'];
  readonly cognito: CognitoIdentityProviderClient;
  /** The running local stack (local only). */
  readonly local?: StackInfo;
  /** The Audit and Usage tables, for what verify-deployment leaves (absent for a stack without their outputs). */
  readonly records?: VerificationRecords;
  close(): void;
}

/** Settings of every AWS SDK client a tool makes: the region, and the profile when given. */
export function awsClientConfig(options: TargetOptions, region: string) {
  return { region, ...(options.profile !== undefined && { profile: options.profile }) };
}

/** The local stack's stack.json, or a message saying how to start one. */
export async function requireLocalStack(dataDir: string): Promise<StackInfo> {
  const info = await readStackInfo(dataDir);
  if (!info) {
    throw new ToolError(
      `No local stack is running with the data directory ${dataDir} (${stackFilePath(dataDir)} is missing). Start one with \`npm start\`${
        dataDir === '.local' ? '' : ` -- --data-dir ${dataDir}`
      }, or give its --data-dir.`,
    );
  }
  return info;
}

const OUTPUTS = {
  siteUrl: 'PortalUrl',
  userPoolId: 'UserPoolId',
  clientId: 'UserPoolClientId',
  graphqlUrl: 'GraphqlUrl',
  embed: 'EmbedFunctionUrl',
  quicksightAdmin: 'QuickSightAdminFunctionUrl',
  userAdmin: 'UserAdminFunctionUrl',
  mfa: 'MfaFunctionUrl',
  contact: 'ContactFunctionUrl',
} as const;

/** Outputs of the tables verify-deployment reads and cleans (PortalStack: `<table id>TableName`). */
const TABLE_OUTPUTS = { audit: 'AuditTableName', usage: 'UsageTableName' } as const;

const documentClient = (client: DynamoDBClient) =>
  DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });

async function stackOutputs(
  options: TargetOptions,
  stackName: string,
  region: string,
): Promise<Record<string, string>> {
  const cloudFormation = new CloudFormationClient(awsClientConfig(options, region));
  try {
    const { Stacks } = await cloudFormation.send(new DescribeStacksCommand({ StackName: stackName }));
    return Object.fromEntries(
      (Stacks?.[0]?.Outputs ?? []).map((output) => [output.OutputKey ?? '', output.OutputValue ?? '']),
    );
  } catch (error) {
    if (error instanceof Error && /does not exist/.test(error.message)) {
      throw new ToolError(
        `Stack ${stackName} does not exist in ${region}. Deploy it first (\`npm run deploy\`), or give the productName and region it was deployed with (-c productName=... -c region=...).`,
      );
    }
    if (error instanceof ToolError) throw error;
    throw new ToolError(`Could not read the outputs of stack ${stackName} in ${region}: ${describeError(error)}`);
  } finally {
    cloudFormation.destroy();
  }
}

/**
 * The outputs of the configuration's deployed stack, or undefined when it is not deployed (the
 * doctor runs before the first deployment too).
 */
export async function deployedStackOutputs(
  options: TargetOptions,
  config: PortalConfig,
): Promise<Record<string, string> | undefined> {
  const stackName = portalStackName(config.productName, config.environment);
  try {
    return await stackOutputs(options, stackName, config.region);
  } catch (error) {
    if (error instanceof ToolError && error.message.startsWith(`Stack ${stackName} does not exist`)) return undefined;
    throw error;
  }
}

/** Resolves the portal the tool acts on: the deployed stack of the configuration, or the local stack. */
export async function resolveTarget(options: TargetOptions): Promise<PortalTarget> {
  if (options.local) {
    const info = await requireLocalStack(options.dataDir);
    const cognito = new CognitoIdentityProviderClient({
      endpoint: info.cognito.endpoint,
      region: info.region,
      credentials: LOCAL_CREDENTIALS,
    });
    const dynamodb = new DynamoDBClient({
      endpoint: info.dynamodb.endpoint,
      region: info.region,
      credentials: LOCAL_CREDENTIALS,
    });
    return {
      kind: 'local',
      description: `the local stack at ${info.webUrl}`,
      config: localConfig(),
      region: info.region,
      siteUrl: info.webUrl.replace(/\/+$/, ''),
      userPoolId: info.cognito.userPoolId,
      clientId: info.cognito.clientId,
      cognitoEndpoint: info.cognito.endpoint,
      graphqlUrl: info.graphqlUrl,
      functions: info.functions,
      cognito,
      local: info,
      records: {
        dynamo: documentClient(dynamodb),
        auditTable: localTableName(auditTable),
        usageTable: localTableName(usageTable),
      },
      close: () => {
        cognito.destroy();
        dynamodb.destroy();
      },
    };
  }
  const config = deploymentConfig(options.context);
  const stackName = portalStackName(config.productName, config.environment);
  const outputs = await stackOutputs(options, stackName, config.region);
  const missing = Object.values(OUTPUTS).filter((key) => !outputs[key]);
  if (missing.length > 0) {
    throw new ToolError(
      `Stack ${stackName} in ${config.region} lacks the output${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: wait for its deployment to finish, or deploy this version of the portal.`,
    );
  }
  const cognito = new CognitoIdentityProviderClient(awsClientConfig(options, config.region));
  const output = (key: keyof typeof OUTPUTS) => outputs[OUTPUTS[key]]!;
  const tables = { audit: outputs[TABLE_OUTPUTS.audit], usage: outputs[TABLE_OUTPUTS.usage] };
  const dynamodb =
    tables.audit && tables.usage ? new DynamoDBClient(awsClientConfig(options, config.region)) : undefined;
  return {
    kind: 'aws',
    description: `stack ${stackName} in ${config.region}`,
    config,
    region: config.region,
    siteUrl: output('siteUrl').replace(/\/+$/, ''),
    userPoolId: output('userPoolId'),
    clientId: output('clientId'),
    cognitoEndpoint: `https://cognito-idp.${config.region}.amazonaws.com/`,
    graphqlUrl: output('graphqlUrl'),
    functions: {
      embed: output('embed'),
      quicksightAdmin: output('quicksightAdmin'),
      userAdmin: output('userAdmin'),
      mfa: output('mfa'),
      contact: output('contact'),
    },
    cognito,
    ...(dynamodb && {
      records: { dynamo: documentClient(dynamodb), auditTable: tables.audit!, usageTable: tables.usage! },
    }),
    close: () => {
      cognito.destroy();
      dynamodb?.destroy();
    },
  };
}
