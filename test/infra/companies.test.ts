import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '#contracts/env.ts';
import { CHECK_WITHHELD_ACTIONS } from '#lib/company-access.ts';
import { actionsOf } from '#compliance/code-usage.ts';
import { asList, sharedPortalBuild, logicalIdAt, policyStatements, type PortalBuild } from './support/portal-build.ts';

/** A template resource as the CDK assertions hand it out. */
type Resource = ReturnType<Template['findResources']>[string];

interface ReportPrincipal {
  name: string;
  kind: string;
  rows: { action: string; usedBy: string[] }[];
  unusedGrants: string[];
  ungrantedUses: { action: string }[];
  withheldUses?: { action: string; usedBy: string[]; reason: string }[];
}

/**
 * Companies as QuickSight sees them (lib/company-access.ts): the rules bucket, the role
 * QuickSight reads it with, the grants of the QuickSight management function and the daily,
 * read-only company-access check.
 */
describe('company access', () => {
  let build: PortalBuild;
  let resources: Record<string, Resource>;
  let bucketId: string;
  let readRoleId: string;
  const functionAt = (path: string) =>
    resources[logicalIdAt(build.template, 'AWS::Lambda::Function', `${path}Function/`)]!;
  const statementsOf = (path: string) => {
    const policyId = logicalIdAt(build.template, 'AWS::IAM::ManagedPolicy', `${path}Policy/`);
    return policyStatements(build.template)
      .filter(({ resource }) => resource === policyId)
      .map(({ statement }) => statement);
  };
  const stackName = () => build.stack.stackName;

  beforeAll(() => {
    build = sharedPortalBuild();
    resources = build.template.toJSON().Resources as Record<string, Resource>;
    bucketId = logicalIdAt(build.template, 'AWS::S3::Bucket', '/Companies/RulesBucket/');
    readRoleId = logicalIdAt(build.template, 'AWS::IAM::Role', '/Companies/QuickSightReadRole/');
  });
  afterAll(() => build.dispose());

  it('keeps the rules file in a private, encrypted, versioned bucket that refuses requests without TLS and logs access', () => {
    const bucket = resources[bucketId]!;
    expect(bucket.Properties).toMatchObject({
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      VersioningConfiguration: { Status: 'Enabled' },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      LoggingConfiguration: { LogFilePrefix: 's3-company-rules/' },
    });
    expect(bucket.DeletionPolicy).toBe('Retain');
    const policy = Object.values(build.template.findResources('AWS::S3::BucketPolicy')).find(
      (p) => JSON.stringify(p.Properties.Bucket) === JSON.stringify({ Ref: bucketId }),
    );
    expect(JSON.stringify(policy?.Properties.PolicyDocument)).toContain('"aws:SecureTransport":"false"');
  });

  it('lets QuickSight, and only QuickSight, read the rules file and its manifest with its own role, as the user guide’s S3 example grants', () => {
    const role = resources[readRoleId]!;
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      expect.objectContaining({
        Effect: 'Allow',
        Action: 'sts:AssumeRole',
        Principal: { Service: 'quicksight.amazonaws.com' },
      }),
    ]);
    const grants = policyStatements(build.template).filter(({ resource }) => {
      const roles = asList(resources[resource]?.Properties?.Roles as unknown[]);
      return roles.some((ref) => JSON.stringify(ref) === JSON.stringify({ Ref: readRoleId }));
    });
    // The user guide's "Attaching additional policies"
    // (https://docs.aws.amazon.com/quicksight/latest/user/security-create-iam-role-athena-s3.html): s3:ListBucket on
    // the bucket, s3:GetObject and s3:GetObjectVersion on the objects; here the rules bucket and its two keys.
    const object = (key: string) => ({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, `/${key}`]] });
    expect(grants.map(({ statement }) => [statement.Action, statement.Resource])).toEqual([
      [['s3:GetBucketLocation', 's3:ListBucket'], { 'Fn::GetAtt': [bucketId, 'Arn'] }],
      [
        ['s3:GetObject', 's3:GetObjectVersion'],
        [object('company-rules/manifest.json'), object('company-rules/rules.csv')],
      ],
    ]);
    expect(grants.every(({ statement }) => statement.Effect === 'Allow' && statement.Condition === undefined)).toBe(
      true,
    );
  });

  it('hands the QuickSight management function and the check the rules settings, named after the stack', () => {
    for (const path of ['/Functions/QuickSightAdmin/', '/Companies/Check/']) {
      expect(functionAt(path).Properties.Environment.Variables, path).toMatchObject({
        [ENV.companyRulesBucket]: { Ref: bucketId },
        [ENV.companyRulesDataSourceId]: `${stackName()}-company-rules`,
        [ENV.companyRulesDataSetId]: `${stackName()}-company-rules`,
        [ENV.companyRulesRoleArn]: { 'Fn::GetAtt': [readRoleId, 'Arn'] },
        [ENV.companyGroupPrefix]: `${stackName()}-company-`,
        [ENV.quicksightNamespace]: 'default',
      });
    }
    // The check reads no Cognito directory and names no user pool.
    expect(functionAt('/Companies/Check/').Properties.Environment.Variables[ENV.userPoolId]).toBeUndefined();
  });

  it('confines the management function’s S3 and group grants to the rules prefix and the deployment’s group prefix', () => {
    const statements = statementsOf('/Functions/QuickSightAdmin/');
    const bySid = (sid: string) => statements.find((statement) => statement.Sid === sid);
    expect(bySid('WriteCompanyRules')).toMatchObject({
      Action: ['s3:GetObject', 's3:PutObject'],
      Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/company-rules/*']] },
    });
    expect(bySid('TellMissingRules')).toMatchObject({
      Action: 's3:ListBucket',
      Resource: { 'Fn::GetAtt': [bucketId, 'Arn'] },
    });
    expect(JSON.stringify(bySid('ManageCompanyGroups')?.Resource)).toContain(`:group/default/${stackName()}-company-*`);
    expect(JSON.stringify(bySid('LoadRules')?.Resource)).toContain(`:dataset/${stackName()}-company-rules/ingestion/*`);
    // The rules data source and dataset only: described, granted to the author, a failed source deleted.
    expect(bySid('UseRulesDataSource')).toMatchObject({
      Action: [
        'quicksight:DeleteDataSource',
        'quicksight:DescribeDataSource',
        'quicksight:DescribeDataSourcePermissions',
        'quicksight:PassDataSource',
        'quicksight:UpdateDataSourcePermissions',
      ],
    });
    expect(JSON.stringify(bySid('UseRulesDataSource')?.Resource)).toMatch(/:datasource\/[\w-]+-company-rules"/);
    expect(bySid('GrantRulesDataSet')).toMatchObject({
      Action: ['quicksight:DescribeDataSetPermissions', 'quicksight:UpdateDataSetPermissions'],
    });
    expect(JSON.stringify(bySid('GrantRulesDataSet')?.Resource)).toMatch(/:dataset\/[\w-]+-company-rules"/);
    expect(bySid('PassRulesRole')).toMatchObject({
      Action: 'iam:PassRole',
      Resource: { 'Fn::GetAtt': [readRoleId, 'Arn'] },
      Condition: { StringEquals: { 'iam:PassedToService': 'quicksight.amazonaws.com' } },
    });
  });

  it('keeps the check read-only: no write action on QuickSight, S3 or IAM, and no Cognito access', () => {
    const actions = statementsOf('/Companies/Check/').flatMap((statement) =>
      asList(statement.Action as string | string[]),
    );
    for (const withheld of CHECK_WITHHELD_ACTIONS) expect(actions).not.toContain(withheld);
    expect(actions.filter((action) => action.startsWith('cognito-idp:'))).toEqual([]);
    expect(actions.filter((action) => /^(quicksight|s3):(Create|Delete|Put|Update|Register)/.test(action))).toEqual([]);
  });

  it('outputs the rules bucket, the rules dataset id and the check function', () => {
    const outputs = build.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs.CompanyRulesBucketName?.Value).toEqual({ Ref: bucketId });
    expect(outputs.CompanyRulesDataSetId?.Value).toBe(`${stackName()}-company-rules`);
    expect(outputs.CompanyCheckFunctionName?.Value).toEqual({
      Ref: logicalIdAt(build.template, 'AWS::Lambda::Function', '/Companies/Check/Function/'),
    });
  });

  it('maps the calls that need more than their own action: PassDataSource, PassRole, and ListBucket to tell a missing key', () => {
    expect(actionsOf('@aws-sdk/client-quicksight', 'CreateDataSetCommand').actions).toEqual([
      'quicksight:CreateDataSet',
      'quicksight:PassDataSource',
    ]);
    expect(actionsOf('@aws-sdk/client-quicksight', 'CreateDataSourceCommand').actions).toEqual([
      'quicksight:CreateDataSource',
      'iam:PassRole',
    ]);
    expect(actionsOf('@aws-sdk/client-quicksight', 'CreateIngestionCommand').actions).toEqual([
      'quicksight:CreateIngestion',
    ]);
    expect(actionsOf('@aws-sdk/client-s3', 'GetObjectCommand').actions).toEqual(['s3:GetObject', 's3:ListBucket']);
    expect(actionsOf('@aws-sdk/client-s3', 'PutObjectCommand').actions).toEqual(['s3:PutObject']);
  });

  describe('in the compliance report', () => {
    let principals: ReportPrincipal[];
    beforeAll(() => {
      const report = JSON.parse(readFileSync(join(build.outdir, 'compliance', 'report.json'), 'utf8')) as {
        access: { principals: ReportPrincipal[] }[];
      };
      principals = report.access.flatMap((stack) => stack.principals);
    });
    const principal = (prefix: string) => {
      const found = principals.find((p) => p.name.startsWith(prefix));
      if (!found) throw new Error(`No principal ${prefix} in the report`);
      return found;
    };

    it('lists the mending calls the check bundles as withheld, with the reason, and nothing else as ungranted', () => {
      const check = principal('Companies/Check/Role');
      expect(check.kind).toBe('function role');
      expect(check.ungrantedUses).toEqual([]);
      expect(check.unusedGrants).toEqual([]);
      expect((check.withheldUses ?? []).map((use) => use.action).sort()).toEqual([...CHECK_WITHHELD_ACTIONS].sort());
      for (const use of check.withheldUses ?? []) {
        expect(use.usedBy.join(' ')).toMatch(/lambdas\/shared\/companies\/(groups|rules|rules-dataset)\.ts/);
        expect(use.reason).toContain('fix: false');
      }
    });

    it('treats the QuickSight read role as a service role used by QuickSight, not by the functions that carry its ARN', () => {
      const role = principal('Companies/QuickSightReadRole');
      expect(role.kind).toBe('service role');
      expect(role.ungrantedUses).toEqual([]);
      expect(role.rows.map((row) => row.action).sort()).toEqual(
        ['s3:GetBucketLocation', 's3:GetObject', 's3:GetObjectVersion', 's3:ListBucket'].sort(),
      );
      for (const row of role.rows) {
        expect(row.usedBy.join(' '), row.action).toContain('QuickSight reading an S3 data source');
        expect(row.usedBy.join(' '), row.action).toContain('Functions/QuickSightAdmin/Function');
      }
    });
  });
});
