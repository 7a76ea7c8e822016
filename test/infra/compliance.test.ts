import { App } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks, NIST80053R5Checks } from 'cdk-nag';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '#contracts/env.ts';
import { prebundleHandlers } from '#lib/bundling/handler-bundle.ts';
import { buildPortal, type PortalBuild } from './support/portal-build.ts';
import { dependencies, findCycle } from './support/template-graph.ts';

type Template = {
  Resources: Record<
    string,
    { DependsOn?: string | string[]; Properties?: unknown; Metadata?: Record<string, unknown> }
  >;
};

/** Violations the two compliance packs find in an app (acknowledged ones are not reported). */
function nagFindings(app: App): string[] {
  return [new AwsSolutionsChecks(), new NIST80053R5Checks()].flatMap((pack) =>
    pack
      .validateScope(app)
      .violations.flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} at ${r.constructPath}`)),
  );
}

describe('compliance of the synthesized app (handlers bundled as in `cdk synth`)', () => {
  let build: PortalBuild;
  let template: Template;
  beforeAll(async () => {
    // The bundles local mode made of the same sources, or all of them at once: the synthesis copies them.
    await prebundleHandlers();
    build = buildPortal({ bundle: true });
    template = build.template.toJSON() as Template;
  });
  afterAll(() => build.dispose());

  it('leaves no unacknowledged AwsSolutions or NIST 800-53 rev 5 finding', () => {
    expect(nagFindings(build.app)).toEqual([]);
  });

  it('passes the CloudFormation validator that runs in synth without errors', () => {
    const reportFile = join(build.outdir, 'validation-report.json');
    const report = existsSync(reportFile)
      ? (JSON.parse(readFileSync(reportFile, 'utf8')) as {
          pluginReports: { pluginName: string; violations: { severity: string; ruleName: string }[] }[];
        })
      : { pluginReports: [] };
    const errors = report.pluginReports.flatMap((p) =>
      p.violations.filter((v) => v.severity === 'error').map((v) => `${p.pluginName}: ${v.ruleName}`),
    );
    expect(errors).toEqual([]);
  });

  it('records each acknowledgement with its reason next to the resource in the template', () => {
    const acknowledged = Object.values(template.Resources).flatMap(
      (resource) =>
        (resource.Metadata?.cdk_nag as { rules_to_suppress?: { id: string; reason: string }[] } | undefined)
          ?.rules_to_suppress ?? [],
    );
    expect(acknowledged.map((rule) => rule.id)).toEqual(
      expect.arrayContaining([
        'AwsSolutions-COG8',
        'NIST.800.53.R5-LambdaFunctionPublicAccessProhibited',
        'AwsSolutions-CFR4',
      ]),
    );
    for (const rule of acknowledged) expect(rule.reason.length, rule.id).toBeGreaterThan(120);
  });

  it('has no dependency cycle between resources', () => {
    expect(findCycle(dependencies(template))).toBeUndefined();
  });

  it('bundles each handler as minified ESM with a source map', () => {
    const handlers = Object.values(template.Resources).filter(
      (r) =>
        (r as { Type?: string }).Type === 'AWS::Lambda::Function' &&
        !String(r.Metadata?.['aws:cdk:path']).includes('Custom::CDKBucketDeployment'),
    );
    expect(handlers).toHaveLength(10);
    for (const handler of handlers) {
      const objectKey = (handler.Properties as { Code: { S3Key: string } }).Code.S3Key;
      const assetDirectory = join(build.outdir, `asset.${objectKey.replace(/\.zip$/, '')}`);
      // The entry and the chunks it loads with import(), each with its source map and nothing else.
      const files = readdirSync(assetDirectory).sort();
      const modules = files.filter((file) => file.endsWith('.mjs'));
      expect(modules).toContain('index.mjs');
      expect(files).toEqual([...modules, ...modules.map((file) => `${file}.map`)].sort());
      let lines = 0;
      let length = 0;
      for (const module of modules) {
        const code = readFileSync(join(assetDirectory, module), 'utf8');
        // ESM with the require() shim banner, with a linked source map.
        expect(code.startsWith("import { createRequire as __createRequire } from 'node:module';")).toBe(true);
        expect(code.endsWith(`//# sourceMappingURL=${module}.map\n`)).toBe(true);
        lines += code.split('\n').length;
        length += code.length;
      }
      // Minified: long lines (a small chunk has a few lines of its own, so the modules count together).
      expect(lines).toBeLessThan(Math.max(5 * modules.length, length / 500));
    }
  });
});

describe('compliance with every optional feature configured', () => {
  it('leaves no unacknowledged finding with a custom domain, a web ACL, the stricter sign-in settings, and the report says so', () => {
    const build = buildPortal({
      context: {
        domainName: 'portal.example.com',
        certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b',
        webAclArn: 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/portal/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b',
        selfSignUp: false,
        threatProtection: true,
        passwordMinLength: 14,
        rememberDevices: true,
        quicksightAccountId: '210987654321',
        quicksightNamespace: 'partners',
        quicksightIdentityRegion: 'us-east-1',
        quicksightAuthorArn: 'arn:aws:quicksight:us-east-1:210987654321:group/default/analytics-authors',
      },
    });
    try {
      expect(nagFindings(build.app)).toEqual([]);
      // The rules' author reaches the QuickSight management function (lambdas/shared/companies/rules-dataset.ts).
      build.template.hasResourceProperties('AWS::Lambda::Function', {
        Environment: {
          Variables: Match.objectLike({
            [ENV.companyRulesAuthorArn]: 'arn:aws:quicksight:us-east-1:210987654321:group/default/analytics-authors',
          }),
        },
      });
      build.template.hasResourceProperties('AWS::Cognito::UserPool', {
        UserPoolTier: 'PLUS',
        UserPoolAddOns: { AdvancedSecurityMode: 'ENFORCED' },
        Policies: { PasswordPolicy: { MinimumLength: 14 } },
        AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      });
      // The pack the synth wrote states the settings as configured here.
      const report = JSON.parse(readFileSync(join(build.outdir, 'compliance', 'report.json'), 'utf8')) as {
        inventory: { identity: { kind: string; settings: Record<string, string> }[] }[];
        evidence: { findings: { finding: string }[] }[];
        packs: { rules: { rule: string; results: { outcome: string }[] }[] }[];
      };
      const pool = report.inventory.flatMap((stack) => stack.identity).find((item) => item.kind === 'User pool')!;
      expect(pool.settings['sign-in statement']).toMatch(/sign-ins from a remembered device need the password only/);
      expect(pool.settings['sign-in statement']).toMatch(/at least 14 characters/);
      expect(pool.settings['sign-in statement']).toMatch(/Self sign-up is off/);
      expect(pool.settings['sign-in statement']).toMatch(/threat protection is on in full-function mode/);
      const cog8 = report.packs.flatMap((pack) => pack.rules).find((rule) => rule.rule === 'AwsSolutions-COG8')!;
      expect(cog8.results.map((result) => result.outcome)).toEqual(['compliant']);
      // With the stricter choices made, only the public function URLs remain to be answered.
      expect(report.evidence.flatMap((stack) => stack.findings.map((finding) => finding.finding))).toEqual([
        'Public function URLs (auth type NONE): 5',
      ]);
    } finally {
      build.dispose();
    }
  });

  it('stops synth on a finding nobody acknowledged', () => {
    const build = buildPortal();
    try {
      // A bucket without access logging or TLS enforcement, added after the fact.
      new s3.Bucket(build.stack, 'UnreviewedBucket');
      expect(nagFindings(build.app)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^AwsSolutions-S1 at .*UnreviewedBucket/),
          expect.stringMatching(/^AwsSolutions-S10 at .*UnreviewedBucket/),
        ]),
      );
      expect(() => build.app.synth({ force: true })).toThrow(/UnreviewedBucket[\s\S]*AwsSolutions-S1/);
    } finally {
      build.dispose();
    }
  });
});
