import * as iam from 'aws-cdk-lib/aws-iam';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditTrailIntegrity } from '#compliance/audit-trail.ts';
import { codeUsesOf } from '#compliance/code-usage.ts';
import { inventoryOf } from '#compliance/inventory.ts';
import type { ComplianceReport } from '#compliance/report.ts';
import type { CfnTemplate } from '#compliance/template.ts';
import { securityHeaders } from '#contracts/security-headers.ts';
import { VIEWS_BY_USER_INDEX } from '#contracts/tables.ts';
import type { PortalData } from '#lib/data.ts';
import { cspSourcesForRegion } from '#lib/site.ts';
import { embedScratch, type ScratchApp } from './compliance-fixture.ts';
import { sharedPortalBuild, type PortalBuild } from './support/portal-build.ts';

/** Project folders holding handler code of their own, removed after the file. */
const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

/** A project folder with one handler, `lambdas/<name>/handler.ts`. */
function projectWith(name: string, handler: string): string {
  const root = mkdtempSync(join(tmpdir(), 'evidence-'));
  roots.push(root);
  mkdirSync(join(root, 'lambdas', name), { recursive: true });
  writeFileSync(join(root, 'lambdas', name, 'handler.ts'), handler);
  return root;
}

/** Code that names tables as the product's does: a definition with the variable holding the name. */
const TABLE_HELPERS = `
const tableName = (table: { envVar: string }) => process.env[table.envVar] ?? '';
const client = { send: async (command: unknown) => command };
`;

describe('the evidence pack of the portal', () => {
  let build: PortalBuild;
  let report: ComplianceReport;
  beforeAll(() => {
    build = sharedPortalBuild();
    report = JSON.parse(readFileSync(join(build.outdir, 'compliance', 'report.json'), 'utf8')) as ComplianceReport;
  });

  it('says who may write the activity trail, that no write replaces an entry and that no role may change one', () => {
    const trail = report
      .evidence!.flatMap((entry) => entry.logIntegrity)
      .find((item) => item.topic.includes('Data/Audit'))!;
    const writeLine =
      readFileSync(new URL('../../lambdas/shared/data/audit.ts', import.meta.url), 'utf8')
        .split('\n')
        .findIndex((line) => line.includes('new PutCommand(')) + 1;
    expect(trail.stack).toContain(
      'Written by Functions/QuickSightAdmin/Role dynamodb:PutItem, Functions/UserAdmin/Role dynamodb:PutItem, Deliveries/Function/Role dynamodb:PutItem, GraphQL/Resolver/Role dynamodb:PutItem;',
    );
    expect(trail.stack).toContain(
      `every put in their code is conditioned on attribute_not_exists(pk), so it never replaces an entry (lambdas/shared/data/audit.ts:${writeLine} writeAuditEntry())`,
    );
    expect(trail.stack).toContain('IAM cannot require that condition');
    expect(trail.stack).toMatch(/no role of the stack is granted an action that changes or deletes an entry/);
  });

  it('lists every header the site sends in the security headers column, Permissions-Policy and Cross-Origin-Opener-Policy included', () => {
    const distribution = report.inventory
      .flatMap((entry) => entry.entryPoints)
      .find((item) => item.kind === 'CloudFront distribution')!;
    const column = distribution.settings['security headers']!.split(' · ');
    // What local mode's web server sends too (contracts/security-headers.ts), with the regional addresses.
    const sent = Object.entries(securityHeaders(cspSourcesForRegion(build.config.region))).map(
      ([header, value]) => `${header}: ${value}`,
    );
    expect(column.map((entry) => entry.split(':')[0])).toContain('Permissions-Policy');
    expect(column.map((entry) => entry.split(':')[0])).toContain('Cross-Origin-Opener-Policy');
    expect([...column].sort()).toEqual([...sent].sort());
  });
});

describe('the security headers column', () => {
  it('shows X-XSS-Protection and every custom header a response headers policy sets', () => {
    const template: CfnTemplate = {
      Resources: {
        Headers: {
          Type: 'AWS::CloudFront::ResponseHeadersPolicy',
          Properties: {
            ResponseHeadersPolicyConfig: {
              SecurityHeadersConfig: { XSSProtection: { Protection: true, ModeBlock: true, Override: true } },
              CustomHeadersConfig: { Items: [{ Header: 'X-Custom', Value: 'on', Override: true }] },
            },
          },
        },
        Site: {
          Type: 'AWS::CloudFront::Distribution',
          Properties: { DistributionConfig: { DefaultCacheBehavior: { ResponseHeadersPolicyId: { Ref: 'Headers' } } } },
        },
      },
    };
    const [site] = inventoryOf({ stackName: 'App', template }).entryPoints;
    expect(site!.settings['security headers']).toBe('X-XSS-Protection: 1; mode=block · X-Custom: on');
  });
});

describe('the activity trail claim, computed from the grants and the writing code', () => {
  /** A stack whose writer function, granted `actions` on the Audit table, runs `handler`. */
  const trailOf = (actions: string[], handler: string) => {
    const root = projectWith('writer', handler);
    const template: CfnTemplate = {
      Resources: {
        AuditTable: {
          Type: 'AWS::DynamoDB::Table',
          Metadata: { 'aws:cdk:path': 'App/Data/Audit/Resource' },
          Properties: {
            KeySchema: [
              { AttributeName: 'pk', KeyType: 'HASH' },
              { AttributeName: 'sk', KeyType: 'RANGE' },
            ],
          },
        },
        WriterRole: {
          Type: 'AWS::IAM::Role',
          Metadata: { 'aws:cdk:path': 'App/Writer/Role/Resource' },
          Properties: {
            AssumeRolePolicyDocument: {
              Statement: [
                { Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' },
              ],
            },
          },
        },
        WriterPolicy: {
          Type: 'AWS::IAM::ManagedPolicy',
          Properties: {
            Roles: [{ Ref: 'WriterRole' }],
            PolicyDocument: {
              Statement: [{ Effect: 'Allow', Action: actions, Resource: { 'Fn::GetAtt': ['AuditTable', 'Arn'] } }],
            },
          },
        },
        Writer: {
          Type: 'AWS::Lambda::Function',
          Properties: {
            Role: { 'Fn::GetAtt': ['WriterRole', 'Arn'] },
            Environment: { Variables: { POWERTOOLS_SERVICE_NAME: 'writer', AUDIT_TABLE: { Ref: 'AuditTable' } } },
          },
        },
      },
    };
    return auditTrailIntegrity({ stackName: 'App', template }, root)!.stack;
  };
  const writer = (condition: string) => `import { PutCommand } from '@aws-sdk/lib-dynamodb';
${TABLE_HELPERS}
const audit = { envVar: 'AUDIT_TABLE' };
export async function handler(entry: Record<string, unknown>) {
  return client.send(new PutCommand({ TableName: tableName(audit), Item: entry${condition} }));
}
`;

  it('says a conditioned put never replaces an entry, and that PutItem alone changes nothing', () => {
    const text = trailOf(['dynamodb:PutItem'], writer(", ConditionExpression: 'attribute_not_exists(pk)'"));
    expect(text).toMatch(/^Written by Writer\/Role dynamodb:PutItem; every put in their code is conditioned/);
    expect(text).toContain('(lambdas/writer/handler.ts:8 handler())');
    expect(text).toContain('no role of the stack is granted an action that changes or deletes an entry');
  });

  it('names a put without that condition as one that can replace an entry', () => {
    for (const condition of ['', ", ConditionExpression: 'attribute_exists(pk)'"]) {
      expect(trailOf(['dynamodb:PutItem'], writer(condition))).toContain(
        'a put that can replace an entry (no condition refusing an existing key) at lambdas/writer/handler.ts:8 handler()',
      );
    }
  });

  it('names a role granted an action that changes or deletes entries', () => {
    const text = trailOf(
      ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:Batch*'],
      writer(", ConditionExpression: 'attribute_not_exists(pk)'"),
    );
    expect(text).toContain('changed or deleted by Writer/Role dynamodb:UpdateItem, Writer/Role dynamodb:Batch*;');
  });
});

describe('Query grants on a table read through its indexes', () => {
  let scratch: ScratchApp | undefined;
  afterEach(() => {
    scratch?.dispose();
    scratch = undefined;
  });
  /** The embed function with its usage writes and Query on the given Views resources. */
  const embedQuerying = (resources: (data: PortalData) => string[]) => {
    scratch = embedScratch((data) => [
      new iam.PolicyStatement({
        actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem'],
        resources: [data.table('Usage').table.tableArn],
      }),
      new iam.PolicyStatement({ sid: 'QueryViews', actions: ['dynamodb:Query'], resources: resources(data) }),
    ]);
    return scratch.app;
  };

  it('fails synth on Query on the Views base table, which the embed code reads only through the user index', () => {
    const app = embedQuerying((data) => [data.table('Views').table.tableArn]);
    expect(() => app.synth()).toThrow(
      /EmbedRole is granted dynamodb:Query on Data\/Views\.Arn \(EmbedPolicy \(QueryViews\)\), but no code path of lambdas\/embed\/handler\.ts calls dynamodb:Query on that resource \(it calls it on table VIEWS_TABLE index byUserEmail\)/,
    );
  });

  it('passes Query on the index the code reads', () => {
    const app = embedQuerying((data) => [`${data.table('Views').table.tableArn}/index/${VIEWS_BY_USER_INDEX}`]);
    expect(() => app.synth()).not.toThrow();
  });
});

describe('the index a query of the code reads', () => {
  it('follows an input passed in as a parameter to every call that builds it', () => {
    const root = projectWith(
      'reader',
      `import { QueryCommand } from '@aws-sdk/lib-dynamodb';
${TABLE_HELPERS}
const views = { envVar: 'VIEWS_TABLE' };
const queryAll = (input: object) => client.send(new QueryCommand({ ...input, TableName: tableName(views) }));
const firstOf = (input: object) => queryAll(input);
const handedOn = (input: object) => client.send(new QueryCommand({ ...input, TableName: tableName(views) }));
export async function handler(run: (query: typeof handedOn) => Promise<unknown>) {
  await firstOf({ IndexName: 'byUser', KeyConditionExpression: 'userEmail = :email' });
  await queryAll({ IndexName: 'byDashboard', KeyConditionExpression: 'dashboardId = :id' });
  await client.send(new QueryCommand({ TableName: tableName(views), KeyConditionExpression: 'id = :id' }));
  return run(handedOn);
}
`,
    );
    const queries = codeUsesOf(root, 'reader').map((use) => ({ symbol: use.symbol, resources: use.resources }));
    const views = { kind: 'table', envVar: 'VIEWS_TABLE' };
    expect(queries).toEqual([
      {
        symbol: 'queryAll',
        resources: [
          { ...views, index: 'byUser' },
          { ...views, index: 'byDashboard' },
        ],
      },
      // A function the code hands on may be called with any input: any index.
      { symbol: 'handedOn', resources: [{ ...views, index: '*' }] },
      { symbol: 'handler', resources: [views] },
    ]);
  });
});
