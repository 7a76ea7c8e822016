import { Validations } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { acknowledge } from '../../lib/compliance.ts';
import { securityChanges } from '../../lib/compliance/changes.ts';
import { addChangesSince } from '../../lib/compliance/cli.ts';
import { actionsOf } from '../../lib/compliance/code-usage.ts';
import type { CfnTemplate } from '../../lib/compliance/template.ts';
import { fixtureApp, ORDERS_TABLE_ARN, templateOf, type Fixture } from './compliance-fixture.ts';

let fixture: Fixture | undefined;
afterEach(() => {
  fixture?.dispose();
  fixture = undefined;
});

describe('evidence pack of a synthesized app', () => {
  it('writes report.json, report.md and report.html with every result, compliant ones included', () => {
    fixture = fixtureApp();
    fixture.app.synth();
    const report = fixture.report();
    expect(report.header).toMatchObject({ product: 'Fixture product', region: 'eu-west-1', account: 'not resolved', versions: { packs: ['AwsSolutions', 'NIST.800.53.R5'] } });
    expect(report.header.versions['cdk-nag']).toMatch(/^3\./);
    const nist = report.packs.find((pack) => pack.name === 'NIST.800.53.R5')!;
    expect(nist.totals.compliant).toBeGreaterThan(0);
    expect(nist.totals.notCompliant).toBe(0);
    const publicAccess = nist.rules.find((rule) => rule.rule === 'NIST.800.53.R5-LambdaFunctionPublicAccessProhibited')!;
    expect(publicAccess.controls).toEqual(expect.arrayContaining(['AC-3', 'SC-7(3)']));
    expect(publicAccess.results).toEqual([
      expect.objectContaining({ resource: 'Fixture/PublicUrl', outcome: 'acknowledged', reason: expect.stringMatching(/verifies a bearer token/) }),
    ]);
    expect(report.controlFamilies.map((family) => family.family)).toEqual(expect.arrayContaining(['AC', 'SC']));
    const markdown = readFileSync(join(fixture.outdir, 'compliance', 'report.md'), 'utf8');
    const html = readFileSync(join(fixture.outdir, 'compliance', 'report.html'), 'utf8');
    for (const text of [markdown, html]) {
      expect(text).toContain('NIST.800.53.R5-LambdaFunctionPublicAccessProhibited');
      expect(text).toContain('verifies a bearer token');
      expect(text).toContain('lambdas/demo/handler.ts:8 handler()');
    }
  });

  it('lists exactly the statements of the policies, with the code that uses each action', () => {
    fixture = fixtureApp();
    fixture.app.synth();
    const [role, publicInvokers] = fixture.report().access[0]!.principals;
    expect(role!.rows.map(({ effect, action, resources, conditions, usedBy }) => ({ effect, action, resources, conditions, usedBy }))).toEqual([
      { effect: 'Allow', action: 'dynamodb:GetItem', resources: [ORDERS_TABLE_ARN], conditions: [], usedBy: ['lambdas/demo/handler.ts:8 handler()'] },
      { effect: 'Allow', action: 'dynamodb:Scan', resources: [ORDERS_TABLE_ARN], conditions: ['StringEquals aws:PrincipalTag/team = data'], usedBy: [] },
      { effect: 'Allow', action: 'lambda:GetFunction', resources: ['DemoFunction.Arn'], conditions: [], usedBy: [] },
    ]);
    expect(role!.rows.map((row) => row.source)).toEqual(['DemoPolicy (ReadOrders)', 'DemoPolicy (ScanOrders)', 'DemoPolicy (ReadSelf)']);
    // The unused grants and the ungranted call stand out; the shared delete nobody imports is no use.
    expect(role!.unusedGrants).toEqual(['dynamodb:Scan', 'lambda:GetFunction']);
    expect(role!.ungrantedUses).toEqual([{ action: 'cognito-idp:AdminGetUser', usedBy: ['lambdas/demo/handler.ts:7 handler()'] }]);
    expect(role!.callsWithoutIam).toEqual(['GetUser at lambdas/demo/handler.ts:6 handler()']);
    expect(publicInvokers).toMatchObject({
      name: 'Public invokers of function URLs (anyone on the internet)',
      rows: [{ effect: 'Allow', action: 'lambda:InvokeFunctionUrl', resources: ['DemoFunction.Arn'], conditions: ['StringEquals lambda:FunctionUrlAuthType = NONE'] }],
    });
  });

  it('maps SDK commands to the IAM actions that authorize them', () => {
    expect(actionsOf('@aws-sdk/lib-dynamodb', 'UpdateCommand').actions).toEqual(['dynamodb:UpdateItem']);
    expect(actionsOf('@aws-sdk/client-sesv2', 'SendEmailCommand').actions).toEqual(['ses:SendEmail']);
    expect(actionsOf('@aws-sdk/client-cognito-identity-provider', 'AdminDisableUserCommand').actions).toEqual(['cognito-idp:AdminDisableUser']);
    for (const tokenCall of ['GetUserCommand', 'AssociateSoftwareTokenCommand', 'VerifySoftwareTokenCommand', 'SetUserMFAPreferenceCommand']) {
      expect(actionsOf('@aws-sdk/client-cognito-identity-provider', tokenCall).actions, tokenCall).toEqual([]);
    }
    expect(() => actionsOf('@aws-sdk/lib-dynamodb', 'ExecuteStatementCommand')).toThrow(/No IAM mapping/);
  });

  it('fails synth on a new unacknowledged finding, and the pack shows it as not compliant', () => {
    fixture = fixtureApp();
    new s3.Bucket(fixture.stack, 'UnreviewedBucket');
    expect(() => fixture!.app.synth()).toThrow(/UnreviewedBucket[\s\S]*AwsSolutions-S1/);
    const s1 = fixture.report().packs.find((pack) => pack.name === 'AwsSolutions')!.rules.find((rule) => rule.rule === 'AwsSolutions-S1')!;
    expect(s1.results).toEqual([expect.objectContaining({ resource: 'Fixture/UnreviewedBucket/Resource', outcome: 'not compliant' })]);
  });

  it('refuses an acknowledgement without a reason', () => {
    fixture = fixtureApp();
    const permission = new lambda.CfnPermission(fixture.stack, 'SecondUrl', {
      action: 'lambda:InvokeFunctionUrl',
      functionName: fixture.fn.attrArn,
      principal: '*',
      functionUrlAuthType: 'NONE',
    });
    expect(() => acknowledge(permission, { 'NIST.800.53.R5-LambdaFunctionPublicAccessProhibited': '  ' })).toThrow(/needs a reason/);
    // Acknowledged around the helper: synth refuses it.
    Validations.of(permission).acknowledge({ id: 'NIST.800.53.R5-LambdaFunctionPublicAccessProhibited', reason: '' });
    expect(() => fixture!.app.synth()).toThrow(/LambdaFunctionPublicAccessProhibited is acknowledged without a reason[\s\S]*Fixture\/SecondUrl/);
    const report = JSON.parse(readFileSync(join(fixture.outdir, 'validation-report.json'), 'utf8')) as { pluginReports: { pluginName: string; violations: { ruleName: string }[] }[] };
    const failures = report.pluginReports.flatMap((plugin) => plugin.violations.map((v) => `${plugin.pluginName}: ${v.ruleName}`));
    expect(failures).toEqual(['ComplianceReport: AcknowledgementWithoutReason']);
  });
});

describe('changes since a baseline', () => {
  const bucket = (encrypted: boolean) => ({
    Type: 'AWS::S3::Bucket',
    Properties: encrypted ? { BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms' } }] } } : {},
    Metadata: { 'aws:cdk:path': 'App/Data/Resource' },
  });
  const policy = (actions: string[]) => ({
    Type: 'AWS::IAM::ManagedPolicy',
    Properties: { Roles: [{ Ref: 'Role' }], PolicyDocument: { Statement: [{ Effect: 'Allow', Action: actions, Resource: { 'Fn::GetAtt': ['Data', 'Arn'] } }] } },
  });
  const role = { Type: 'AWS::IAM::Role', Properties: { AssumeRolePolicyDocument: { Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' } }] } } };
  const template = (encrypted: boolean, actions: string[]): CfnTemplate => ({ Resources: { Data: bucket(encrypted), Role: role, Policy: policy(actions) } });

  it('shows an added action and a removed bucket encryption', () => {
    const changes = securityChanges(
      { stackName: 'App', template: template(true, ['s3:GetObject']) },
      { stackName: 'App', template: template(false, ['s3:GetObject', 's3:DeleteObject']) },
      '/nonexistent',
      'release-1.template.json',
    );
    expect(changes.items).toEqual([
      { area: 'IAM', change: 'added', subject: 'Role', detail: 'Allow s3:DeleteObject on Data.Arn' },
      { area: 'Data store', change: 'changed', subject: 'S3 bucket Data', detail: 'encryption: aws:kms → none declared (S3 applies SSE-S3 by default)' },
    ]);
  });

  it('adds the changes to the pack the last synth wrote (npm run compliance -- --since)', () => {
    fixture = fixtureApp();
    fixture.app.synth();
    const baseline = templateOf(fixture) as { Resources: Record<string, { Properties: { PolicyDocument?: { Statement: unknown[] } } }> };
    const policyId = Object.keys(baseline.Resources).find((id) => id.startsWith('DemoPolicy'))!;
    baseline.Resources[policyId]!.Properties.PolicyDocument!.Statement.splice(1, 1);
    const baselineFile = join(fixture.root, 'release-1.template.json');
    writeFileSync(baselineFile, JSON.stringify(baseline));
    const report = addChangesSince(baselineFile, fixture.outdir, fixture.root);
    expect(report.changes?.items).toEqual([expect.objectContaining({ area: 'IAM', change: 'added', detail: expect.stringMatching(/^Allow dynamodb:Scan on/) })]);
    expect(readFileSync(join(fixture.outdir, 'compliance', 'report.md'), 'utf8')).toMatch(/\| IAM \| added \| DemoRole: Runs the demo function \| Allow dynamodb:Scan/);
  });
});

describe('the portal', () => {
  let report: ReturnType<Fixture['report']>;
  beforeAll(async () => {
    const { buildPortal } = await import('./support/portal-build.ts');
    const build = buildPortal();
    report = JSON.parse(readFileSync(join(build.outdir, 'compliance', 'report.json'), 'utf8')) as typeof report;
    build.dispose();
  });

  it("grants each function's role exactly the actions its handler code calls", () => {
    const mismatches = report.access
      .flatMap((stack) => stack.principals)
      .filter((principal) => principal.kind === 'function role')
      .flatMap((principal) => [
        ...principal.unusedGrants.map((action) => `${principal.name}: ${action} is granted but no code path uses it`),
        ...principal.ungrantedUses.map((use) => `${principal.name}: ${use.action} is used at ${use.usedBy.join(', ')} but not granted`),
      ]);
    expect(mismatches).toEqual([]);
  });

  it('says in the inventory that only tokens of a sign-in can call Cognito for the account, as the template configures it', () => {
    const text = JSON.stringify(report);
    expect(text).toContain('tokens of a sign-in only: the pre token generation trigger (V2) suppresses aws.cognito.signin.user.admin in refreshed tokens');
    expect(text).toContain('access 5 minutes');
  });

  it('names the handler function behind each use, also in modules a handler loads on demand', () => {
    const usedBy = report.access
      .flatMap((stack) => stack.principals)
      .flatMap((principal) => principal.rows.flatMap((row) => row.usedBy));
    // embed loads its request work with import(); the call is still credited to embedUrlFor.
    expect(usedBy).toContain('lambdas/embed/embed-url.ts:82 embedUrlFor()');
    expect(usedBy.filter((place) => / init_\w+\(\)$/.test(place))).toEqual([]);
  });

  it('names every principal the issue asks about', () => {
    const names = report.access.flatMap((stack) => stack.principals.map((principal) => principal.name));
    expect(names).toEqual(
      expect.arrayContaining([
        "CloudFront's access to the bucket",
        "Cognito's triggers",
        'Public invokers of function URLs (anyone on the internet)',
        expect.stringMatching(/^GraphQL\/DataSourceRole/),
        expect.stringMatching(/^SiteDeployment\/Role/),
      ]),
    );
  });
});
