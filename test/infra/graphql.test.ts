import { Capture, Match } from 'aws-cdk-lib/assertions';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUERY_DEPTH_LIMIT, RESOLVER_COUNT_LIMIT } from '#contracts/graphql-limits.ts';
import { rootFields, SCHEMA_FILE } from '#lib/graphql-api.ts';
import { sharedPortalBuild, logicalIdAt, policyStatements, type PortalBuild } from './support/portal-build.ts';

describe('GraphQL API (AppSync)', () => {
  let build: PortalBuild;
  const schema = readFileSync(SCHEMA_FILE, 'utf8');
  beforeAll(() => {
    build = sharedPortalBuild();
  });
  afterAll(() => build.dispose());

  it('serves contracts/schema.graphql unchanged', () => {
    build.template.hasResourceProperties('AWS::AppSync::GraphQLSchema', { Definition: schema });
  });

  it('authorizes with the user pool and the portal app client only, with X-Ray and ERROR field logs', () => {
    const poolId = logicalIdAt(build.template, 'AWS::Cognito::UserPool', '/Auth/UserPool/');
    const clientId = logicalIdAt(build.template, 'AWS::Cognito::UserPoolClient', '/Auth/UserPool/WebClient/');
    const loggingRole = new Capture();
    build.template.hasResourceProperties('AWS::AppSync::GraphQLApi', {
      AuthenticationType: 'AMAZON_COGNITO_USER_POOLS',
      AdditionalAuthenticationProviders: Match.absent(),
      UserPoolConfig: {
        UserPoolId: { Ref: poolId },
        AppIdClientRegex: { 'Fn::Join': ['', ['^', { Ref: clientId }, '$']] },
        AwsRegion: 'us-east-2',
        DefaultAction: 'ALLOW',
      },
      XrayEnabled: true,
      LogConfig: {
        FieldLogLevel: 'ERROR',
        ExcludeVerboseContent: false,
        CloudWatchLogsRoleArn: { 'Fn::GetAtt': [loggingRole, 'Arn'] },
      },
      IntrospectionConfig: 'DISABLED',
    });
    const roles = build.template.toJSON().Resources;
    expect(roles[loggingRole.asString()].Properties.AssumeRolePolicyDocument.Statement[0].Principal).toEqual({
      Service: 'appsync.amazonaws.com',
    });
  });

  it(`caps a request at ${QUERY_DEPTH_LIMIT} levels and ${RESOLVER_COUNT_LIMIT} resolver calls, the numbers local mode enforces`, () => {
    build.template.hasResourceProperties('AWS::AppSync::GraphQLApi', {
      QueryDepthLimit: QUERY_DEPTH_LIMIT,
      ResolverCountLimit: RESOLVER_COUNT_LIMIT,
    });
    expect([QUERY_DEPTH_LIMIT, RESOLVER_COUNT_LIMIT]).toEqual([8, 10]);
  });

  it('keeps the API logs in a log group with retention, written only by the logging role', () => {
    const apiId = logicalIdAt(build.template, 'AWS::AppSync::GraphQLApi', '/GraphQL/Api/');
    build.template.hasResourceProperties('AWS::Logs::LogGroup', {
      LogGroupName: { 'Fn::Join': ['', ['/aws/appsync/apis/', { 'Fn::GetAtt': [apiId, 'ApiId'] }]] },
      RetentionInDays: 365,
    });
    build.template.resourceCountIs('Custom::LogRetention', 0);
  });

  it('resolves every Query and Mutation field through the Lambda data source', () => {
    const fields = rootFields(schema);
    expect(fields.map((f) => `${f.typeName}.${f.fieldName}`)).toEqual(
      expect.arrayContaining([
        'Query.listTableauViews',
        'Query.getTableauView',
        'Mutation.createTableauView',
        'Mutation.deleteDashboardMetadata',
        'Query.listMySubscriptions',
        'Mutation.createSubscription',
        'Mutation.setSubscriptionPaused',
        'Mutation.deleteSubscription',
      ]),
    );
    const dataSourceName = new Capture();
    build.template.hasResourceProperties('AWS::AppSync::DataSource', {
      Type: 'AWS_LAMBDA',
      Name: dataSourceName,
      LambdaConfig: {
        LambdaFunctionArn: {
          'Fn::GetAtt': [logicalIdAt(build.template, 'AWS::Lambda::Function', '/GraphQL/Resolver/Function/'), 'Arn'],
        },
      },
    });
    const resolvers = Object.values(build.template.findResources('AWS::AppSync::Resolver')).map((r) => r.Properties);
    expect(resolvers.map((r) => `${r.TypeName}.${r.FieldName}`).sort()).toEqual(
      fields.map((f) => `${f.typeName}.${f.fieldName}`).sort(),
    );
    expect(resolvers.map((r) => `${r.TypeName}.${r.FieldName}`)).toEqual(
      expect.arrayContaining([
        'Query.listMySubscriptions',
        'Mutation.createSubscription',
        'Mutation.setSubscriptionPaused',
        'Mutation.deleteSubscription',
      ]),
    );
    for (const resolver of resolvers) {
      expect(resolver).toMatchObject({ DataSourceName: dataSourceName.asString(), Kind: 'UNIT' });
      // Direct Lambda resolvers: no mapping templates.
      expect(resolver.RequestMappingTemplate).toBeUndefined();
    }
  });

  it('lets AppSync invoke the resolver function and nothing else', () => {
    const resolverArn = {
      'Fn::GetAtt': [logicalIdAt(build.template, 'AWS::Lambda::Function', '/GraphQL/Resolver/Function/'), 'Arn'],
    };
    const invoke = policyStatements(build.template).filter(({ statement }) =>
      JSON.stringify(statement.Action).includes('lambda:InvokeFunction'),
    );
    expect(invoke.map(({ statement }) => statement)).toEqual([
      expect.objectContaining({ Action: 'lambda:InvokeFunction', Resource: resolverArn }),
    ]);
  });
});
