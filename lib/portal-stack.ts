import { Annotations, CfnOutput, CfnRule, Duration, Fn, Stack, type StackProps } from 'aws-cdk-lib';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { RuntimeConfig } from '#contracts/config.ts';
import { ApiFunctions } from './api-functions.ts';
import { CompanyAccess } from './company-access.ts';
import { Deliveries } from './deliveries.ts';
import { PortalAuth } from './auth.ts';
import { placeholderSettings } from './config-placeholders.ts';
import type { PortalConfig } from './config.ts';
import { PortalData } from './data.ts';
import { PortalGraphqlApi } from './graphql-api.ts';
import { PortalOperations } from './operations.ts';
import { PortalFunction } from './portal-function.ts';
import { SiteDeployment } from './site-deployment.ts';
import { PortalNames } from './resource-names.ts';
import { cspSourcesForRegion, PortalSite } from './site.ts';

export interface PortalStackProps extends StackProps {
  readonly config: PortalConfig;
  /** Directory of the built SPA (`web/dist`). */
  readonly webAssetDirectory: string;
}

/** The whole portal in one stack: identity, data, APIs, functions and the site. */
export class PortalStack extends Stack {
  readonly auth: PortalAuth;
  readonly data: PortalData;
  readonly site: PortalSite;
  readonly functions: ApiFunctions;
  readonly graphql: PortalGraphqlApi;
  readonly companies: CompanyAccess;
  readonly deliveries: Deliveries;

  constructor(scope: Construct, id: string, props: PortalStackProps) {
    super(scope, id, props);
    const { config } = props;
    const logRetention = config.logRetentionDays as logs.RetentionDays;
    const retainLogs = config.deletionProtection;
    const names = new PortalNames(config);
    for (const deprecation of config.deprecations ?? [])
      Annotations.of(this).addWarningV2('portal:deprecated-setting', deprecation);

    this.site = new PortalSite(this, 'Site', {
      csp: cspSourcesForRegion(this.region),
      domainName: config.domainName,
      certificateArn: config.certificateArn,
      webAclArn: config.webAclArn,
      logRetentionDays: config.logRetentionDays,
      responseHeadersPolicyName: names.responseHeadersPolicy,
      originAccessControlName: names.originAccessControl,
    });
    const allowedOrigins = [this.site.origin, ...config.allowedOrigins];

    this.data = new PortalData(this, 'Data', { deletionProtection: config.deletionProtection });

    this.auth = new PortalAuth(this, 'Auth', {
      productName: config.productName,
      userPoolName: names.userPool,
      userPoolClientName: names.userPoolClient,
      portalUrl: this.site.origin,
      senderAddress: config.sesSenderAddress,
      sesIdentity: config.sesIdentity,
      accessTokenValidity: Duration.minutes(config.accessTokenMinutes),
      idTokenValidity: Duration.minutes(config.idTokenMinutes),
      refreshTokenValidity: Duration.days(config.refreshTokenDays),
      selfSignUp: config.selfSignUp,
      rememberDevices: config.rememberDevices,
      threatProtection: config.threatProtection,
      passwordMinLength: config.passwordMinLength,
      // The site's domain: passkeys are bound to it. Without a custom domain it is the distribution's
      // domain name, which the pool already waits for (its emails name the portal's address).
      ...(config.passkeys && { passkeys: { relyingPartyId: this.site.domainName } }),
      domainPrefix: config.cognitoDomainPrefix ?? names.cognitoDomainPrefix(this),
      deletionProtection: config.deletionProtection,
      logRetention,
      data: this.data,
    });

    const quicksight = {
      accountId: config.quicksightAccountId ?? this.account,
      namespace: config.quicksightNamespace,
      identityRegion: config.quicksightIdentityRegion,
      dashboardRegion: this.region,
    };
    this.functions = new ApiFunctions(this, 'Functions', {
      auth: this.auth,
      data: this.data,
      quicksight,
      allowedOrigins,
      embedSessionMinutes: config.embedSessionMinutes,
      embedDashboardFeatures: config.dashboardFeatures,
      usageRetentionDays: config.usageRetentionDays,
      absoluteSessionMinutes: config.absoluteSessionMinutes,
      supportFromAddress: config.sesSenderAddress,
      supportToAddress: config.supportRecipientAddress,
      sesIdentity: config.sesIdentity,
      logRetention,
      retainLogs,
    });

    this.companies = new CompanyAccess(this, 'Companies', {
      data: this.data,
      quicksight,
      manager: this.functions.functions.quicksightAdmin,
      accessLogBucket: this.site.logBucket,
      logRetention,
      retainLogs,
      rulesAuthorArn: config.quicksightAuthorArn,
    });

    this.deliveries = new Deliveries(this, 'Deliveries', {
      auth: this.auth,
      data: this.data,
      quicksight,
      companyRulesDataSetId: this.companies.dataSetId,
      allowedOrigins,
      senderAddress: config.sesSenderAddress,
      sesIdentity: config.sesIdentity,
      logRetention,
      retainLogs,
    });

    this.graphql = new PortalGraphqlApi(this, 'GraphQL', {
      apiName: names.graphqlApi,
      quicksight,
      companyRulesDataSetId: this.companies.dataSetId,
      absoluteSessionMinutes: config.absoluteSessionMinutes,
      auth: this.auth,
      data: this.data,
      logRetention,
      retainLogs,
    });

    const { urls } = this.functions;
    const runtimeConfig: RuntimeConfig = {
      productName: config.productName,
      region: this.region,
      userPoolId: this.auth.userPool.userPoolId,
      userPoolClientId: this.auth.client.userPoolClientId,
      graphqlUrl: this.graphql.api.graphqlUrl,
      functions: {
        embed: urls.embed.url,
        quicksightAdmin: urls.quicksightAdmin.url,
        userAdmin: urls.userAdmin.url,
        mfa: urls.mfa.url,
        contact: urls.contact.url,
      },
      ...(config.marketingSiteUrl ? { marketingSiteUrl: config.marketingSiteUrl } : {}),
      session: { idleTimeoutMinutes: config.idleTimeoutMinutes, absoluteSessionMinutes: config.absoluteSessionMinutes },
      rememberDevices: config.rememberDevices,
      passkeys: config.passkeys,
    };
    new SiteDeployment(this, 'SiteDeployment', {
      site: this.site,
      assetDirectory: props.webAssetDirectory,
      runtimeConfig,
      logRetention,
    });

    this.addOutputs(runtimeConfig);
    this.addOperations(config);
    this.refusePlaceholders(config);
  }

  /**
   * `npm run deploy` stops before CloudFormation when an address is still a placeholder (see
   * bin/app.ts). A deployment started another way (`npx cdk deploy`, a pipeline) is stopped by
   * CloudFormation itself: template rules are evaluated when the change set is created, before
   * any resource is touched, and a failed assertion fails it with its description.
   * https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/rules-section-structure.html
   */
  private refusePlaceholders(config: PortalConfig): void {
    const checks = placeholderSettings(config);
    if (checks.length === 0) return;
    new CfnRule(this, 'NoPlaceholderAddresses', {
      assertions: checks.map((check) => ({
        assert: Fn.conditionNot(Fn.conditionEquals(config[check.setting], check.placeholder)),
        assertDescription: `${check.setting} is the placeholder ${check.placeholder}: set it in cdk.json or with -c ${check.setting}=... before deploying (docs/deploy.md).`,
      })),
    });
    Annotations.of(this).addInfo(
      `Placeholder ${checks.map((check) => check.setting).join(' and ')}: fine for synth; a deployment of this template is refused (docs/deploy.md).`,
    );
  }

  /** Tracing and the operations pack cover every function of the stack, wherever it is defined. */
  private addOperations(config: PortalConfig): void {
    const functions = PortalFunction.allIn(this);
    if (config.tracing) for (const fn of functions) fn.enableActiveTracing();
    if (!config.operations) return;
    new PortalOperations(this, 'Operations', {
      functions,
      embedFunction: this.functions.functions.embed,
      companyCheckFunction: this.companies.check,
      deliveriesFunction: this.deliveries.function,
      graphqlApi: this.graphql.api,
      distribution: this.site.distribution,
      userPool: this.auth.userPool,
      userPoolClient: this.auth.client,
      alarmEmail: config.alarmEmail,
    });
  }

  private addOutputs(runtimeConfig: RuntimeConfig): void {
    const output = (id: string, value: string, description: string) => new CfnOutput(this, id, { value, description });
    output('PortalUrl', this.site.origin, 'Address of the portal');
    output('DistributionId', this.site.distribution.distributionId, 'CloudFront distribution serving the portal');
    output(
      'DistributionDomainName',
      this.site.distribution.distributionDomainName,
      'Target of the DNS record of a custom domain',
    );
    output('UserPoolId', runtimeConfig.userPoolId, 'Cognito user pool (create the first administrator here)');
    output('UserPoolClientId', runtimeConfig.userPoolClientId, 'App client of the portal');
    output('GraphqlUrl', runtimeConfig.graphqlUrl, 'AppSync GraphQL endpoint');
    output('EmbedFunctionUrl', runtimeConfig.functions.embed, 'Embed URL function');
    output('QuickSightAdminFunctionUrl', runtimeConfig.functions.quicksightAdmin, 'QuickSight management function');
    output('UserAdminFunctionUrl', runtimeConfig.functions.userAdmin, 'User management function');
    output('MfaFunctionUrl', runtimeConfig.functions.mfa, 'MFA management function');
    output('ContactFunctionUrl', runtimeConfig.functions.contact, 'Contact email function');
    output(
      'CompanyRulesBucketName',
      this.companies.bucket.bucketName,
      'Private bucket of the row-level-security rules file',
    );
    output(
      'CompanyRulesDataSetId',
      this.companies.dataSetId,
      'QuickSight rules dataset every company-scoped dataset applies (RowLevelPermissionDataSet)',
    );
    output(
      'CompanyCheckFunctionName',
      this.companies.check.function.functionName,
      'Daily company-access check (invoke it to run the check now)',
    );
    for (const table of this.data.tables.values()) {
      output(`${table.definition.id}TableName`, table.table.tableName, `DynamoDB table ${table.definition.id}`);
    }
  }
}
