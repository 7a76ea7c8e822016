import type {
  IPolicyValidationContext,
  IPolicyValidationPlugin,
  PolicyValidationPluginReport,
  PolicyViolation,
} from 'aws-cdk-lib';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { bundledPackages, cycloneDx } from './sbom.ts';
import { resourcesOfType, type StackTemplate } from './template.ts';
import type { NagResultLog } from './nag-results.ts';
import { complianceDirectory, writePack } from './pack-writer.ts';
import { buildReport } from './report.ts';
import { readStackTemplate } from './pack-writer.ts';

export interface ComplianceReportOptions {
  readonly product: string;
  /** Project folder holding `lambdas/` and the git checkout. */
  readonly root: string;
  /** Cloud assembly directory the pack is written into (`<outdir>/compliance/`). */
  readonly outdir: string;
  /** Whether to write the SBOM of the function bundles and the SPA (`compliance/sbom.cdx.json`). */
  readonly sbom?: boolean;
}

const ACKNOWLEDGEMENT_WITHOUT_REASON = 'AcknowledgementWithoutReason';
const GRANT_BEYOND_CODE_USE = 'GrantBeyondCodeUse';

/**
 * The CDK validation plugin that writes the evidence pack. Registered after the cdk-nag
 * packs, it runs once they have recorded their results, in every synth (`cdk synth`,
 * `cdk deploy`, tests), and writes the pack even when a finding is about to fail synth.
 * It fails synth itself on an acknowledgement that gives no reason.
 */
export class ComplianceReportPlugin implements IPolicyValidationPlugin {
  readonly name = 'ComplianceReport';

  constructor(
    private readonly log: NagResultLog,
    private readonly options: ComplianceReportOptions,
  ) {}

  /** The SBOM of the bundles the stacks deploy: each function's handler (its Powertools service name) and the SPA. */
  private writeSbom(stacks: readonly StackTemplate[]): { file: string; packages: number } {
    const handlers = [
      ...new Set(
        stacks.flatMap((stack) =>
          resourcesOfType(stack.template, 'AWS::Lambda::Function').flatMap(([, fn]) => {
            const name = (fn.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables
              ?.POWERTOOLS_SERVICE_NAME;
            return typeof name === 'string' ? [name] : [];
          }),
        ),
      ),
    ];
    const input = { root: this.options.root, handlers, product: this.options.product };
    const packages = bundledPackages(input);
    const file = join(complianceDirectory(this.options.outdir), 'sbom.cdx.json');
    mkdirSync(complianceDirectory(this.options.outdir), { recursive: true });
    writeFileSync(file, cycloneDx(input, packages));
    return { file: 'sbom.cdx.json', packages: packages.length };
  }

  validate(context: IPolicyValidationContext): PolicyValidationPluginReport {
    const stacks = context.stackTemplates.map((stack) => ({
      ...readStackTemplate(
        stack.templatePath,
        stack.region ? { 'AWS::Region': stack.region } : undefined,
        stack.stackConstructPath,
      ),
      region: stack.region,
      account: stack.accountId,
      templateFile: basename(stack.templatePath),
      sha256: createHash('sha256').update(readFileSync(stack.templatePath)).digest('hex'),
    }));
    const built = buildReport({
      product: this.options.product,
      environment: stacks
        .map((s) => `${s.stackName} (aws://${s.account ?? 'unknown-account'}/${s.region ?? 'unknown-region'})`)
        .join(', '),
      stacks,
      results: this.log.results,
      packs: this.log.packNames,
      root: this.options.root,
      synthTime: new Date(),
    });
    const report = this.options.sbom ? { ...built, sbom: this.writeSbom(stacks) } : built;
    writePack(this.options.outdir, report);
    const unexplained = this.log.results.filter((r) => r.outcome === 'acknowledged' && !r.reason?.trim());
    const violations: PolicyViolation[] = unexplained.map((r) => ({
      ruleName: ACKNOWLEDGEMENT_WITHOUT_REASON,
      description: `${r.ruleId} is acknowledged without a reason: an auditor needs to read why the finding is accepted.`,
      severity: 'error',
      violatingResources: [
        { constructPath: r.constructPath, resourceLogicalId: r.logicalId, templatePath: '', locations: ['Metadata'] },
      ],
    }));
    for (const { stack, principals } of report.access) {
      for (const principal of principals) {
        for (const grant of principal.overGrants ?? []) {
          violations.push({
            ruleName: GRANT_BEYOND_CODE_USE,
            description: `${principal.name.split(':')[0]} is granted ${grant.action} on ${grant.resource} (${grant.source}), but no code path of ${principal.code.join(', ')} calls ${grant.action} on that resource (it calls it on ${grant.usedOn.join(', ')}). Remove the grant or name the resource the code uses.`,
            severity: 'error',
            violatingResources: [
              {
                constructPath: `${stack}/${principal.name.split(':')[0]}`,
                resourceLogicalId: principal.id,
                templatePath: '',
                locations: ['Policies'],
              },
            ],
          });
        }
      }
    }
    return { success: violations.length === 0, violations };
  }
}
