/**
 * The checks of `npm run doctor` (tools/doctor.ts), for an AWS account and for the local stack;
 * loaded only once the command line is read, so a usage error or --help answers at once.
 */
import { ListGroupsCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { QuickSightClient } from '@aws-sdk/client-quicksight';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { LOCAL_CREDENTIALS, localTableName } from '#clients/local-stack.ts';
import { describeError, type TargetOptions } from './cli.ts';
import { embedOrigins, quicksightNamespace, quicksightSubscription, sesChecks } from './checks-services.ts';
import { deploymentConfig, localConfig } from './config.ts';
import { formatCheck, type CheckResult } from './report.ts';
import { awsClientConfig, deployedStackOutputs, requireLocalStack } from './target.ts';
import { dashboardScopeCheck, rulesDataSetCheck, type CompanyScopeTarget } from './checks-companies.ts';
import { companyNamesCheck, type CompanyNamesTarget } from './checks-company-names.ts';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { dashboardsTable, stateTable } from '#contracts/tables.ts';
import { CLOUDFRONT_METRICS_REGION, companyRulesNames, portalStackName } from '#lib/stack-names.ts';
import { cloudTrailCheck } from './checks-trail.ts';
import type { PortalConfig } from '#lib/config.ts';
import {
  rulesAuthorCheck,
  rulesDataSourceCheck,
  spiceCapacityCheck,
  type RulesAccessTarget,
} from './checks-rules-access.ts';

const notLocal = (title: string, why: string): CheckResult => ({
  title,
  status: 'n/a',
  detail: `not applicable in local mode (${why})`,
});

export async function awsChecklist(options: TargetOptions, write: (line: string) => void): Promise<CheckResult[]> {
  // A configuration the app would refuse is refused before anything else loads.
  const config = deploymentConfig(options.context);
  // The account checks build the app's sign-in construct (the CDK library): loaded only for an AWS target.
  const { bootstrap, certificate, cognitoDomain, credentials, webAcl } = await import('./checks-aws.ts');
  write(
    `Checking the deployment of ${config.productName} to ${config.region}${options.profile ? ` with profile ${options.profile}` : ''}...`,
  );
  const results: CheckResult[] = [];
  const report = (result: CheckResult) => {
    results.push(result);
    write(formatCheck(result));
  };

  const { result, caller } = await credentials(options, config.region);
  report(result);
  if (!caller) {
    write('The other checks need credentials; fix those first.');
    return results;
  }
  report(await bootstrap(options, caller.account, config.region));
  // The companion stack with the site's CloudFront alarm deploys to us-east-1 (lib/edge-alarms.ts).
  if (config.operations && config.region !== CLOUDFRONT_METRICS_REGION)
    report(await bootstrap(options, caller.account, CLOUDFRONT_METRICS_REGION));

  const accountId = config.quicksightAccountId ?? caller.account;
  const quicksight = new QuickSightClient(awsClientConfig(options, config.quicksightIdentityRegion));
  const quicksightData = new QuickSightClient(awsClientConfig(options, config.region));
  const ses = new SESv2Client(awsClientConfig(options, config.region));
  try {
    report(await quicksightSubscription(quicksight, accountId));
    report(await quicksightNamespace(quicksight, accountId, config));
    report(await rulesAuthorCheck(quicksight, accountId, config.quicksightAuthorArn));
    report(await spiceCapacityCheck(rulesAccess(quicksightData, accountId, config)));
    for (const check of await sesChecks(ses, config, config.region)) report(check);
  } finally {
    quicksight.destroy();
    quicksightData.destroy();
    ses.destroy();
  }
  report(await cognitoDomain(options, config, caller.account));
  report(await certificate(options, config));
  report(await webAcl(options, config));
  report(embedOrigins(undefined, config));
  for (const check of await deployedCompanyChecks(options, config, accountId)) report(check);
  report(await cloudTrailCheck(awsClientConfig(options, config.region)));
  return results;
}

const RLS_TITLES = [
  'Row-level-security rules dataset',
  'Row-level-security rules data source',
  'Company scope of catalogue dashboards',
  'Company names',
];

/** The rules data source and dataset of the configured stack, and the author they are granted to. */
function rulesAccess(
  quicksight: QuickSightClient,
  accountId: string,
  config: Pick<PortalConfig, 'productName' | 'environment' | 'quicksightAuthorArn'>,
): RulesAccessTarget {
  const names = companyRulesNames(portalStackName(config.productName, config.environment));
  return {
    quicksight,
    accountId,
    rulesDataSourceId: names.dataSourceId,
    rulesDataSetId: names.dataSetId,
    authorArn: config.quicksightAuthorArn,
  };
}

async function companyChecks(
  target: CompanyScopeTarget & CompanyNamesTarget & RulesAccessTarget,
): Promise<CheckResult[]> {
  return [
    await rulesDataSetCheck(target),
    await rulesDataSourceCheck(target),
    await dashboardScopeCheck(target),
    await companyNamesCheck(target),
  ];
}

/** Row-level security of the deployed stack, from its outputs; not applicable before the first deployment. */
async function deployedCompanyChecks(
  options: TargetOptions,
  config: ReturnType<typeof deploymentConfig>,
  accountId: string,
): Promise<CheckResult[]> {
  let outputs: Record<string, string> | undefined;
  try {
    outputs = await deployedStackOutputs(options, config);
  } catch (error) {
    return RLS_TITLES.map((title) => ({
      title,
      status: 'fail',
      detail: describeError(error),
      fix: 'Check that the credentials may call cloudformation:DescribeStacks',
    }));
  }
  const rulesDataSetId = outputs?.CompanyRulesDataSetId;
  const catalogueTable = outputs?.DashboardsTableName;
  const stateTableName = outputs?.StateTableName;
  if (!outputs || !rulesDataSetId || !catalogueTable || !stateTableName) {
    const why = outputs
      ? 'the deployed stack predates company access; deploy this version'
      : 'the stack is not deployed yet';
    return RLS_TITLES.map((title) => ({ title, status: 'n/a', detail: `not applicable: ${why}` }));
  }
  const quicksight = new QuickSightClient(awsClientConfig(options, config.region));
  const dynamodb = new DynamoDBClient(awsClientConfig(options, config.region));
  try {
    return await companyChecks({
      ...rulesAccess(quicksight, accountId, config),
      dynamodb,
      region: config.region,
      catalogueTable,
      rulesDataSetId,
      stateTable: stateTableName,
    });
  } finally {
    quicksight.destroy();
    dynamodb.destroy();
  }
}

export async function localChecklist(options: TargetOptions, write: (line: string) => void): Promise<CheckResult[]> {
  const info = await requireLocalStack(options.dataDir);
  const config = localConfig();
  write(`Checking the local stack at ${info.webUrl} (${options.dataDir})...`);
  const results: CheckResult[] = [];
  const report = (result: CheckResult) => {
    results.push(result);
    write(formatCheck(result));
  };
  const local = { region: info.region, credentials: LOCAL_CREDENTIALS };
  const cognito = new CognitoIdentityProviderClient({ ...local, endpoint: info.cognito.endpoint });
  const quicksight = new QuickSightClient({ ...local, endpoint: info.quicksight.endpoint });
  const ses = new SESv2Client({ ...local, endpoint: new URL(info.mail.inboxUrl).origin });
  try {
    // A signed administrator call through the IAM gate stands for the credentials check.
    try {
      await cognito.send(new ListGroupsCommand({ UserPoolId: info.cognito.userPoolId }));
      report({
        title: 'Credentials',
        status: 'pass',
        detail: `local administrator, account ${info.quicksight.accountId}, user pool ${info.cognito.userPoolId}`,
      });
    } catch (error) {
      report({
        title: 'Credentials',
        status: 'fail',
        detail: describeError(error),
        fix: 'Restart the local stack: npm start',
      });
    }
    report(notLocal('CDK bootstrap', 'nothing is deployed'));
    report(await quicksightSubscription(quicksight, info.quicksight.accountId));
    report(
      await quicksightNamespace(quicksight, info.quicksight.accountId, {
        ...config,
        quicksightNamespace: info.quicksight.namespace,
      }),
    );
    report(await rulesAuthorCheck(quicksight, info.quicksight.accountId, config.quicksightAuthorArn));
    report(notLocal('SPICE capacity', 'local QuickSight keeps SPICE data without a capacity limit'));
    for (const check of await sesChecks(ses, config, info.region)) report(check);
    report(notLocal('Cognito domain prefix', 'the emulator serves the confirmation links itself'));
    report(notLocal('Certificate (us-east-1)', 'the site is served on localhost'));
    report(notLocal('WAF web ACL', 'no CloudFront distribution'));
    report(embedOrigins(new URL(info.webUrl).origin, config));
    // The local stack is the synthesized app with local mode's configuration: same stack name, same rules dataset id.
    const dynamodb = new DynamoDBClient({ ...local, endpoint: info.dynamodb.endpoint });
    try {
      const target = {
        ...rulesAccess(quicksight, info.quicksight.accountId, config),
        dynamodb,
        region: info.region,
        catalogueTable: localTableName(dashboardsTable),
        stateTable: localTableName(stateTable),
      };
      for (const check of await companyChecks(target)) report(check);
    } finally {
      dynamodb.destroy();
    }
  } finally {
    cognito.destroy();
    quicksight.destroy();
    ses.destroy();
  }
  return results;
}
