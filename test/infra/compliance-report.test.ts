import { Validations } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as iam from 'aws-cdk-lib/aws-iam';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PortalData } from '#lib/data.ts';
import { acknowledge } from '#lib/compliance.ts';
import { securityChanges, synthesisChanges } from '#compliance/changes.ts';
import { bundledPackages, cycloneDx } from '#compliance/sbom.ts';
import { addChangesSince } from '#compliance/cli.ts';
import { actionsOf } from '#compliance/code-usage.ts';
import type { CfnTemplate } from '#compliance/template.ts';
import {
  embedScratch,
  handlerScratch,
  fixtureApp,
  ORDERS_TABLE_ARN,
  templateOf,
  type Fixture,
  type ScratchApp,
} from './compliance-fixture.ts';

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
    expect(report.header).toMatchObject({
      product: 'Fixture product',
      region: 'eu-west-1',
      account: 'not resolved',
      versions: { packs: ['AwsSolutions', 'NIST.800.53.R5', 'Portal'] },
    });
    expect(report.header.versions['cdk-nag']).toMatch(/^3\./);
    const nist = report.packs.find((pack) => pack.name === 'NIST.800.53.R5')!;
    expect(nist.totals.compliant).toBeGreaterThan(0);
    expect(nist.totals.notCompliant).toBe(0);
    const publicAccess = nist.rules.find(
      (rule) => rule.rule === 'NIST.800.53.R5-LambdaFunctionPublicAccessProhibited',
    )!;
    expect(publicAccess.controls).toEqual(expect.arrayContaining(['AC-3', 'SC-7(3)']));
    expect(publicAccess.results).toEqual([
      expect.objectContaining({
        resource: 'Fixture/PublicUrl',
        outcome: 'acknowledged',
        reason: expect.stringMatching(/verifies a bearer token/),
      }),
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
    expect(
      role!.rows.map(({ effect, action, resources, conditions, usedBy }) => ({
        effect,
        action,
        resources,
        conditions,
        usedBy,
      })),
    ).toEqual([
      {
        effect: 'Allow',
        action: 'dynamodb:GetItem',
        resources: [ORDERS_TABLE_ARN],
        conditions: [],
        usedBy: ['lambdas/demo/handler.ts:8 handler()'],
      },
      {
        effect: 'Allow',
        action: 'dynamodb:Scan',
        resources: [ORDERS_TABLE_ARN],
        conditions: ['StringEquals aws:PrincipalTag/team = data'],
        usedBy: [],
      },
      { effect: 'Allow', action: 'lambda:GetFunction', resources: ['DemoFunction.Arn'], conditions: [], usedBy: [] },
    ]);
    expect(role!.rows.map((row) => row.source)).toEqual([
      'DemoPolicy (ReadOrders)',
      'DemoPolicy (ScanOrders)',
      'DemoPolicy (ReadSelf)',
    ]);
    // The unused grants and the ungranted call stand out; the shared delete nobody imports is no use.
    expect(role!.unusedGrants).toEqual(['dynamodb:Scan', 'lambda:GetFunction']);
    expect(role!.ungrantedUses).toEqual([
      { action: 'cognito-idp:AdminGetUser', usedBy: ['lambdas/demo/handler.ts:7 handler()'] },
    ]);
    expect(role!.callsWithoutIam).toEqual(['GetUser at lambdas/demo/handler.ts:6 handler()']);
    expect(publicInvokers).toMatchObject({
      name: 'Public invokers of function URLs (anyone on the internet)',
      rows: [
        {
          effect: 'Allow',
          action: 'lambda:InvokeFunctionUrl',
          resources: ['DemoFunction.Arn'],
          conditions: ['StringEquals lambda:FunctionUrlAuthType = NONE'],
        },
      ],
    });
  });

  it('maps SDK commands to the IAM actions that authorize them', () => {
    expect(actionsOf('@aws-sdk/lib-dynamodb', 'UpdateCommand').actions).toEqual(['dynamodb:UpdateItem']);
    expect(actionsOf('@aws-sdk/client-sesv2', 'SendEmailCommand').actions).toEqual(['ses:SendEmail']);
    expect(actionsOf('@aws-sdk/client-cognito-identity-provider', 'AdminDisableUserCommand').actions).toEqual([
      'cognito-idp:AdminDisableUser',
    ]);
    for (const tokenCall of [
      'GetUserCommand',
      'AssociateSoftwareTokenCommand',
      'VerifySoftwareTokenCommand',
      'SetUserMFAPreferenceCommand',
    ]) {
      expect(actionsOf('@aws-sdk/client-cognito-identity-provider', tokenCall).actions, tokenCall).toEqual([]);
    }
    expect(() => actionsOf('@aws-sdk/lib-dynamodb', 'ExecuteStatementCommand')).toThrow(/No IAM mapping/);
  });

  it('fails synth on a new unacknowledged finding, and the pack shows it as not compliant', () => {
    fixture = fixtureApp();
    new s3.Bucket(fixture.stack, 'UnreviewedBucket');
    expect(() => fixture!.app.synth()).toThrow(/UnreviewedBucket[\s\S]*AwsSolutions-S1/);
    const s1 = fixture
      .report()
      .packs.find((pack) => pack.name === 'AwsSolutions')!
      .rules.find((rule) => rule.rule === 'AwsSolutions-S1')!;
    expect(s1.results).toEqual([
      expect.objectContaining({ resource: 'Fixture/UnreviewedBucket/Resource', outcome: 'not compliant' }),
    ]);
  });

  it('refuses an acknowledgement without a reason', () => {
    fixture = fixtureApp();
    const permission = new lambda.CfnPermission(fixture.stack, 'SecondUrl', {
      action: 'lambda:InvokeFunctionUrl',
      functionName: fixture.fn.attrArn,
      principal: '*',
      functionUrlAuthType: 'NONE',
    });
    expect(() => acknowledge(permission, { 'NIST.800.53.R5-LambdaFunctionPublicAccessProhibited': '  ' })).toThrow(
      /needs a reason/,
    );
    // Acknowledged around the helper: synth refuses it.
    Validations.of(permission).acknowledge({ id: 'NIST.800.53.R5-LambdaFunctionPublicAccessProhibited', reason: '' });
    expect(() => fixture!.app.synth()).toThrow(
      /LambdaFunctionPublicAccessProhibited is acknowledged without a reason[\s\S]*Fixture\/SecondUrl/,
    );
    const report = JSON.parse(readFileSync(join(fixture.outdir, 'validation-report.json'), 'utf8')) as {
      pluginReports: { pluginName: string; violations: { ruleName: string }[] }[];
    };
    const failures = report.pluginReports.flatMap((plugin) =>
      plugin.violations.map((v) => `${plugin.pluginName}: ${v.ruleName}`),
    );
    expect(failures).toEqual(['ComplianceReport: AcknowledgementWithoutReason']);
  });
});

describe('software bill of materials', () => {
  it('lists the packages bundled into a function and the SPA, with the installed versions, as CycloneDX', () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const version = (name: string) =>
      (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
        .version;
    const input = { root, handlers: ['mfa'], product: 'Portal' };
    const packages = bundledPackages(input);
    expect(packages).toEqual(
      expect.arrayContaining([
        { name: '@middy/core', version: version('@middy/core'), bundles: ['function mfa'] },
        { name: 'react', version: version('react'), bundles: ['web app'] },
        {
          name: 'amazon-quicksight-embedding-sdk',
          version: version('amazon-quicksight-embedding-sdk'),
          bundles: ['web app'],
        },
      ]),
    );
    const bom = JSON.parse(cycloneDx(input, packages)) as {
      bomFormat: string;
      specVersion: string;
      components: { name: string; group?: string; version: string; purl: string }[];
    };
    expect(bom).toMatchObject({ bomFormat: 'CycloneDX', specVersion: '1.6' });
    expect(bom.components).toHaveLength(packages.length);
    expect(bom.components).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          group: '@middy',
          name: 'core',
          version: version('@middy/core'),
          purl: `pkg:npm/%40middy/core@${version('@middy/core')}`,
        }),
      ]),
    );
  });
});

describe('least privilege per resource', () => {
  let scratch: ScratchApp | undefined;
  afterEach(() => {
    scratch?.dispose();
    scratch = undefined;
  });
  const embedWith = (statements: (data: PortalData) => iam.PolicyStatement[]) => {
    scratch = embedScratch(statements);
    return scratch.app;
  };

  const usageWrite = (data: PortalData) =>
    new iam.PolicyStatement({
      sid: 'RecordUsage',
      actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem'],
      resources: [data.table('Usage').table.tableArn],
    });

  it('fails synth when the embed function may write the Audit table, naming the grant', () => {
    const app = embedWith((data) => [
      usageWrite(data),
      new iam.PolicyStatement({
        sid: 'WriteAudit',
        actions: ['dynamodb:PutItem'],
        resources: [data.table('Audit').table.tableArn],
      }),
    ]);
    expect(() => app.synth()).toThrow(
      /EmbedRole is granted dynamodb:PutItem on Data\/Audit\.Arn \(EmbedPolicy \(WriteAudit\)\), but no code path of lambdas\/embed\/handler\.ts calls dynamodb:PutItem on that resource \(it calls it on table USAGE_TABLE\)[\s\S]*GrantBeyondCodeUse/,
    );
  });

  it('passes the same function granted only the tables its code writes', () => {
    expect(() => embedWith((data) => [usageWrite(data)]).synth()).not.toThrow();
  });

  // SES authorizes SendEmail on the sender's identity and, in the sandbox, on each recipient's:
  // https://docs.aws.amazon.com/ses/latest/dg/control-user-access.html
  const sendEmail = (identity: string) =>
    new iam.PolicyStatement({
      sid: 'Send',
      actions: ['ses:SendEmail'],
      resources: [`arn:aws:ses:eu-west-1:123456789012:identity/${identity}`],
    });
  const handlerWith = (name: string, statements: iam.PolicyStatement[]) => {
    scratch = handlerScratch(name, () => statements);
    return scratch.app;
  };

  it('fails synth when a function that mails configured addresses may send through every SES identity', () => {
    expect(() => handlerWith('contact', [sendEmail('*')]).synth()).toThrow(
      /ContactRole is granted ses:SendEmail on arn:aws:ses:eu-west-1:123456789012:identity\/\* \(ContactPolicy \(Send\)\), but no code path of lambdas\/contact\/handler\.ts calls ses:SendEmail on that resource \(it calls it on an SES identity\)[\s\S]*GrantBeyondCodeUse/,
    );
  });

  it('passes a named identity for that function, and every identity for the one that mails its subscribers', () => {
    expect(() => handlerWith('contact', [sendEmail('example.com')]).synth()).not.toThrow();
    scratch?.dispose();
    expect(() => handlerWith('deliveries', [sendEmail('*')]).synth()).not.toThrow();
  });
});

describe('changes since a baseline', () => {
  const bucket = (encrypted: boolean) => ({
    Type: 'AWS::S3::Bucket',
    Properties: encrypted
      ? {
          BucketEncryption: {
            ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms' } }],
          },
        }
      : {},
    Metadata: { 'aws:cdk:path': 'App/Data/Resource' },
  });
  const policy = (actions: string[]) => ({
    Type: 'AWS::IAM::ManagedPolicy',
    Properties: {
      Roles: [{ Ref: 'Role' }],
      PolicyDocument: {
        Statement: [{ Effect: 'Allow', Action: actions, Resource: { 'Fn::GetAtt': ['Data', 'Arn'] } }],
      },
    },
  });
  const role = {
    Type: 'AWS::IAM::Role',
    Properties: {
      AssumeRolePolicyDocument: { Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' } }] },
    },
  };
  const template = (encrypted: boolean, actions: string[]): CfnTemplate => ({
    Resources: { Data: bucket(encrypted), Role: role, Policy: policy(actions) },
  });

  it('shows an added action and a removed bucket encryption', () => {
    const changes = securityChanges(
      { stackName: 'App', template: template(true, ['s3:GetObject']) },
      { stackName: 'App', template: template(false, ['s3:GetObject', 's3:DeleteObject']) },
      '/nonexistent',
      'release-1.template.json',
    );
    expect(changes.items).toEqual([
      { area: 'IAM', change: 'added', subject: 'Role', detail: 'Allow s3:DeleteObject on Data.Arn' },
      {
        area: 'Data store',
        change: 'changed',
        subject: 'S3 bucket Data',
        detail: 'encryption: aws:kms → none declared (S3 applies SSE-S3 by default)',
      },
      {
        area: 'Resource',
        change: 'changed',
        subject: 'AWS::S3::Bucket Data (App)',
        detail:
          'Properties.BucketEncryption: {"ServerSideEncryptionConfiguration":[{"ServerSideEncryptionByDefault":{"SSEAlgorithm":"aws:kms"}}]} → (not set)',
      },
      {
        area: 'Resource',
        change: 'changed',
        subject: 'AWS::IAM::ManagedPolicy Policy (App)',
        detail: expect.stringMatching(/^Properties\.PolicyDocument\.Statement: .*s3:DeleteObject/),
      },
    ]);
  });

  it('adds the changes to the pack the last synth wrote (npm run compliance -- --since)', () => {
    fixture = fixtureApp();
    fixture.app.synth();
    const baseline = templateOf(fixture) as {
      Resources: Record<string, { Properties: { PolicyDocument?: { Statement: unknown[] } } }>;
    };
    const policyId = Object.keys(baseline.Resources).find((id) => id.startsWith('DemoPolicy'))!;
    baseline.Resources[policyId]!.Properties.PolicyDocument!.Statement.splice(1, 1);
    const baselineFile = join(fixture.root, 'release-1.template.json');
    writeFileSync(baselineFile, JSON.stringify(baseline));
    const report = addChangesSince(baselineFile, fixture.outdir, fixture.root, 'abc1234');
    expect(report.changes?.items).toEqual([
      expect.objectContaining({
        area: 'IAM',
        change: 'added',
        detail: expect.stringMatching(/^Allow dynamodb:Scan on/),
      }),
      expect.objectContaining({
        area: 'Resource',
        change: 'changed',
        subject: 'AWS::IAM::ManagedPolicy DemoPolicy (Fixture)',
      }),
    ]);
    // Both sides are identified by commit and template hash, the current one as the synth recorded it.
    const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
    expect(report.changes?.baselineIdentity).toEqual({
      source: baselineFile,
      gitCommit: 'abc1234',
      templates: [{ stack: 'Fixture', sha256: sha(baselineFile) }],
    });
    expect(report.changes?.currentIdentity?.templates).toEqual([
      { stack: 'Fixture', sha256: sha(join(fixture.outdir, 'Fixture.template.json')) },
    ]);
    expect(report.header.templateSha256).toEqual({
      'Fixture.template.json': sha(join(fixture.outdir, 'Fixture.template.json')),
    });
    expect(readFileSync(join(fixture.outdir, 'compliance', 'report.md'), 'utf8')).toMatch(
      /\| IAM \| added \| DemoRole: Runs the demo function \| Allow dynamodb:Scan/,
    );
  });
});

const projectRootForChanges = fileURLToPath(new URL('../..', import.meta.url));

/** Statements of every identity and resource policy in a template, counted from the raw JSON (trust policies aside). */
function templateStatements(template: { Resources: Record<string, { Type: string; Properties?: unknown }> }): number {
  let count = 0;
  const walk = (node: unknown, key?: string): void => {
    if ((key === 'PolicyDocument' || key === 'KeyPolicy') && node !== undefined) {
      const document = (typeof node === 'string' ? JSON.parse(node) : node) as { Statement?: unknown };
      count += Array.isArray(document.Statement) ? document.Statement.length : document.Statement ? 1 : 0;
      return;
    }
    if (Array.isArray(node)) node.forEach((item) => walk(item));
    else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(v, k);
  };
  for (const resource of Object.values(template.Resources)) {
    if (resource.Type === 'AWS::Lambda::Permission') count += 1;
    else walk(resource.Properties);
  }
  return count;
}

describe('the portal', () => {
  let report: ReturnType<Fixture['report']>;
  let templates: Record<
    string,
    {
      Resources: Record<
        string,
        { Type: string; Properties?: Record<string, unknown>; Metadata?: Record<string, unknown> }
      >;
    }
  >;
  beforeAll(async () => {
    const { sharedPortalBuild } = await import('./support/portal-build.ts');
    const build = sharedPortalBuild();
    report = JSON.parse(readFileSync(join(build.outdir, 'compliance', 'report.json'), 'utf8')) as typeof report;
    templates = Object.fromEntries(
      readdirSync(build.outdir)
        .filter((file) => file.endsWith('.template.json'))
        .map((file) => [
          file.replace(/\.template\.json$/, ''),
          JSON.parse(readFileSync(join(build.outdir, file), 'utf8')) as (typeof templates)[string],
        ]),
    );
    build.dispose();
  });

  it('holds every statement of every identity and resource policy of every stack, key and topic policies included', () => {
    expect(Object.keys(templates).length).toBeGreaterThanOrEqual(2);
    for (const [stack, template] of Object.entries(templates)) {
      const principals = report.access.find((entry) => entry.stack === stack)?.principals ?? [];
      const statements = new Set(principals.flatMap((principal) => principal.rows.map((row) => row.statement)));
      expect(statements.size, stack).toBe(templateStatements(template));
    }
    const rows = report.access.flatMap((entry) =>
      entry.principals.flatMap((principal) => principal.rows.map((row) => ({ principal: principal.name, ...row }))),
    );
    for (const action of ['kms:Decrypt', 'kms:GenerateDataKey*', 'sns:Publish']) {
      const row = rows.find((r) => r.principal === 'CloudWatch alarms' && r.action === action);
      expect(row?.usedBy, action).toEqual([expect.stringMatching(/CloudWatch/)]);
    }
    expect(rows.filter((r) => r.source.includes('(key policy)') && r.action === 'kms:*')).toHaveLength(
      Object.keys(templates).length,
    );
  });

  it('lists the whole operations pack and its stack when compared with a synthesis without it', () => {
    const stacks = Object.entries(templates).map(([stackName, template]) => ({
      stackName,
      template: template as CfnTemplate,
    }));
    const portal = stacks.find((stack) => !stack.stackName.endsWith('edge-alarms'))!;
    const edge = stacks.find((stack) => stack.stackName.endsWith('edge-alarms'))!;
    // The baseline: the portal stack without anything under Operations/, and no edge-alarms stack.
    const withoutOperations = Object.fromEntries(
      Object.entries(portal.template.Resources).filter(
        ([, resource]) => !String(resource.Metadata?.['aws:cdk:path'] ?? '').includes('/Operations/'),
      ),
    );
    const identity = (source: string) => ({ source, gitCommit: 'c0ffee', templates: [] });
    const changes = synthesisChanges(
      [{ stackName: portal.stackName, template: { Resources: withoutOperations } }],
      stacks,
      projectRootForChanges,
      {
        baseline: identity('release-1'),
        current: identity('cdk.out'),
      },
    );
    const added = changes.items.filter((item) => item.change === 'added');
    expect(added).toEqual(
      expect.arrayContaining([expect.objectContaining({ area: 'Stack', subject: edge.stackName })]),
    );
    for (const stack of [portal.stackName, edge.stackName]) {
      const resources = added
        .filter((item) => item.area === 'Resource' && item.subject.endsWith(`(${stack})`))
        .map((item) => item.subject.split(' ')[0]);
      expect(resources, stack).toEqual(
        expect.arrayContaining(['AWS::KMS::Key', 'AWS::SNS::Topic', 'AWS::SNS::TopicPolicy', 'AWS::CloudWatch::Alarm']),
      );
    }
    const alarms = Object.values(portal.template.Resources).filter(
      (resource) => resource.Type === 'AWS::CloudWatch::Alarm',
    ).length;
    expect(
      added.filter(
        (item) => item.subject.startsWith('AWS::CloudWatch::Alarm ') && item.subject.endsWith(`(${portal.stackName})`),
      ),
    ).toHaveLength(alarms);
    // The key and topic policies' grants to CloudWatch are new IAM statements too.
    expect(added).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          area: 'IAM',
          subject: 'CloudWatch alarms',
          detail: expect.stringMatching(/^Allow sns:Publish/),
        }),
      ]),
    );
  });

  it('lists a CORS header added to a function URL', () => {
    const portal = Object.entries(templates).find(([name]) => !name.endsWith('edge-alarms'))!;
    const after = JSON.parse(JSON.stringify(portal[1])) as CfnTemplate;
    const url = Object.values(after.Resources).find((resource) => resource.Type === 'AWS::Lambda::Url')!;
    (url.Properties!.Cors as { AllowHeaders: string[] }).AllowHeaders.push('x-extra');
    const changes = securityChanges(
      { stackName: portal[0], template: portal[1] as CfnTemplate },
      { stackName: portal[0], template: after },
      projectRootForChanges,
      'release-1',
    );
    expect(changes.items).toEqual([
      expect.objectContaining({
        area: 'Resource',
        change: 'changed',
        detail: expect.stringMatching(/^Properties\.Cors\.AllowHeaders: .* → .*x-extra/),
      }),
    ]);
  });

  it('checks each grant of a table, index or user pool against the resources the code calls it on', () => {
    const principals = report.access.flatMap((entry) => entry.principals);
    expect(principals.flatMap((principal) => principal.overGrants ?? [])).toEqual([]);
  });

  it('declares what personal data each store holds, and the backup reasons say it', () => {
    const stores = report.inventory.flatMap((entry) => entry.dataStores);
    const usage = stores.find((store) => store.name === 'Data/Usage')!;
    expect(usage.settings['personal data']).toMatch(/dashboard views per user \(email address, dashboard, time\)/);
    expect(stores.find((store) => store.name === 'Site/AccessLogs')!.settings['personal data']).toMatch(
      /client IP addresses/,
    );
    expect(stores.find((store) => store.name === 'Companies/RulesBucket')!.settings['personal data']).toBe('none');
    expect(stores.find((store) => store.kind === 'Cognito user pool')!.settings['personal data']).toMatch(
      /email addresses/,
    );
    for (const table of ['Views', 'Dashboards', 'State', 'Audit', 'Usage']) {
      expect(stores.find((store) => store.name === `Data/${table}`)?.settings.classification, table).toMatch(
        /^personal data: /,
      );
    }
    const backup = report.packs
      .flatMap((pack) => pack.rules)
      .find((rule) => rule.rule === 'NIST.800.53.R5-DynamoDBInBackupPlan')!;
    const usageReason = backup.results.find((result) => result.resource.includes('Data/Usage'))!.reason!;
    expect(usageReason).toMatch(/personal data: dashboard views per user/);
    expect(usageReason).not.toMatch(/administrative/);
  });

  it('gives auditors encryption, retention, backups, log integrity and answers per store, from the template', () => {
    const evidence = report.evidence!.find((entry) => !entry.stack.endsWith('edge-alarms'))!;
    const usage = evidence.stores.find((store) => store.store === 'Data/Usage')!;
    expect(usage).toMatchObject({
      kind: 'DynamoDB table',
      inTransit: expect.stringMatching(/^TLS only/),
      backup: expect.stringMatching(/35 days/),
    });
    expect(usage.rpoRto).toMatch(/RPO about 5 minutes/);
    expect(usage.classification).toMatch(/^personal data: dashboard views per user/);
    expect(evidence.stores.find((store) => store.store === 'Site/Content')!.inTransit).toMatch(
      /bucket policy denies every request without TLS/,
    );
    const accessLogs = evidence.logIntegrity.find((item) => item.topic.includes('Site/AccessLogs'))!;
    expect(accessLogs.stack).toMatch(/recoverable for 1 day\(s\) only/);
    expect(accessLogs.stack).toMatch(
      /cdk-nag treats a bucket that is the destination of other buckets' access logs as compliant/,
    );
    expect(evidence.logIntegrity.find((item) => item.topic.includes('CloudTrail'))).toMatchObject({
      stack: expect.stringMatching(/^No trail/),
      account: expect.stringMatching(/organization trail/),
    });
    expect(evidence.logIntegrity.find((item) => item.topic.includes('Data/Audit'))!.stack).toMatch(
      /no role of the stack is granted an action that changes or deletes an entry/,
    );
    expect(evidence.restoreSteps.join(' ')).toMatch(/restore-table-to-point-in-time/);
    expect(evidence.findings.map((finding) => finding.finding)).toEqual([
      'Cognito threat protection off',
      'Self sign-up on',
      'Passwords of 8 characters (checks ask for 14)',
      'Public function URLs (auth type NONE): 5',
    ]);
    expect(evidence.findings[0]!.raisedBy).toMatch(
      /Security Hub Cognito\.1; Prowler cognito_user_pool_advanced_security_enabled/,
    );
    expect(evidence.findings.map((finding) => finding.stricterChoice).slice(0, 3)).toEqual([
      expect.stringMatching(/^threatProtection = true/),
      expect.stringMatching(/^selfSignUp = false/),
      expect.stringMatching(/^passwordMinLength = 14/),
    ]);
    const rules = report.packs.flatMap((pack) => pack.rules);
    expect(rules.find((rule) => rule.rule === 'AwsSolutions-S10')!.equivalents).toBe(
      'Security Hub S3.5; Prowler s3_bucket_secure_transport_policy',
    );
  });

  it('states the sign-in as the default settings configure it', () => {
    const pool = report.inventory.flatMap((entry) => entry.identity).find((item) => item.kind === 'User pool')!;
    expect(pool.settings['remembered devices']).toMatch(/^off/);
    expect(pool.settings['sign-in statement']).toMatch(/Every sign-in with the password asks for the code/);
    const cog8 = report.packs.flatMap((pack) => pack.rules).find((rule) => rule.rule === 'AwsSolutions-COG8')!;
    expect(cog8.results[0]!.reason).toMatch(
      /every sign-in of every account must pass a time-based one-time password \(TOTP\) second factor, or use a passkey that verifies the user/,
    );
  });

  it('reports the passkey settings and judges them by the rule that passkeys count as MFA with user verification', () => {
    const pool = report.inventory.flatMap((entry) => entry.identity).find((item) => item.kind === 'User pool')!;
    expect(pool.settings['first factors']).toBe('PASSWORD, WEB_AUTHN');
    expect(pool.settings.passkeys).toMatch(
      /^first factor; MULTI_FACTOR_WITH_USER_VERIFICATION \(a passkey sign-in counts as MFA\); user verification required; relying party Site\/Distribution.*\.DomainName$/,
    );
    expect(pool.settings['sign-in statement']).toMatch(/Cognito counts such a sign-in as multi-factor/);
    const client = report.inventory.flatMap((entry) => entry.identity).find((item) => item.kind === 'App client')!;
    expect(client.settings['auth flows']).toBe('ALLOW_USER_SRP_AUTH, ALLOW_USER_AUTH, ALLOW_REFRESH_TOKEN_AUTH');
    const rule = report.packs.flatMap((pack) => pack.rules).find((r) => r.rule === 'Portal-CognitoPasskeyMfa')!;
    expect(rule.controls).toEqual(['IA-2(1)', 'IA-2(2)']);
    expect(rule.results).toEqual([
      expect.objectContaining({ resourceType: 'AWS::Cognito::UserPool', outcome: 'compliant' }),
    ]);
  });

  it("grants each function's role exactly the actions its handler code calls", () => {
    const mismatches = report.access
      .flatMap((stack) => stack.principals)
      .filter((principal) => principal.kind === 'function role')
      .flatMap((principal) => [
        ...principal.unusedGrants.map((action) => `${principal.name}: ${action} is granted but no code path uses it`),
        ...principal.ungrantedUses.map(
          (use) => `${principal.name}: ${use.action} is used at ${use.usedBy.join(', ')} but not granted`,
        ),
      ]);
    expect(mismatches).toEqual([]);
  });

  it('says in the inventory that only tokens of a sign-in can call Cognito for the account, as the template configures it', () => {
    const text = JSON.stringify(report);
    expect(text).toContain(
      'tokens of a sign-in only: the pre token generation trigger (V2) suppresses aws.cognito.signin.user.admin in refreshed tokens',
    );
    expect(text).toContain('access 5 minutes');
  });

  it('names the handler function behind each use, also in modules a handler loads on demand', () => {
    const usedBy = report.access
      .flatMap((stack) => stack.principals)
      .flatMap((principal) => principal.rows.flatMap((row) => row.usedBy));
    // embed loads its request work with import(); the call is still credited to embedUrlFor.
    const callLine =
      readFileSync(fileURLToPath(new URL('../../lambdas/embed/embed-url.ts', import.meta.url)), 'utf8')
        .split('\n')
        .findIndex((line) => line.includes('new GenerateEmbedUrlForRegisteredUserCommand(')) + 1;
    expect(callLine).toBeGreaterThan(0);
    expect(usedBy).toContain(`lambdas/embed/embed-url.ts:${callLine} embedUrlFor()`);
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
