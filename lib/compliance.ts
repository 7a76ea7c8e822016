import { CfnResource, Stack, Validations, type App } from 'aws-cdk-lib';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
import { OUTDIR_ENV } from 'aws-cdk-lib/cx-api';
import type { IConstruct } from 'constructs';
import { fileURLToPath } from 'node:url';
import { NagResultLog, RecordingAwsSolutionsChecks, RecordingNist80053R5Checks } from '#compliance/nag-results.ts';
import { ComplianceReportPlugin } from '#compliance/plugin.ts';
import { RecordingPortalChecks } from '#compliance/portal-checks.ts';
import { loadConfig } from './config.ts';

// What the constructs take from the compliance pack: the metadata key of a store's data
// classification and the sign-in statements of the user pool's acknowledgements.
export { DATA_CLASSIFICATION_METADATA } from '#compliance/inventory.ts';
export { signInSettings, threatProtectionReason } from '#compliance/sign-in-claims.ts';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * The compliance packs every synth runs (cdk-nag's AwsSolutions and NIST 800-53 rev 5, and the
 * portal's own rules), recording every result for the evidence pack.
 * Their findings, and the built-in CloudFormation validator's, land in
 * `cdk.out/validation-report.json`; the acknowledgements below are also written into each
 * resource's template metadata (`cdk_nag.rules_to_suppress`) so an auditor reading a
 * template sees the reason next to the resource.
 */
function compliancePacks(
  app: App,
  log = new NagResultLog(),
): [RecordingAwsSolutionsChecks, RecordingNist80053R5Checks, RecordingPortalChecks] {
  return [
    new RecordingAwsSolutionsChecks(log, app, { verbose: true, writeSuppressionsToCloudFormation: true }),
    new RecordingNist80053R5Checks(log, app, { verbose: true }),
    new RecordingPortalChecks(log, app, { verbose: true }),
  ];
}

export interface CompliancePackOptions {
  /**
   * Product named in the evidence pack's header.
   * @default `productName` of the app's configuration, else the first stack's name
   */
  readonly product?: string;
  /**
   * Folder holding `lambdas/` (scanned for the access matrix) and the git checkout.
   * @default this project
   */
  readonly root?: string;
  /**
   * Whether the pack includes the SBOM (CycloneDX) of the function bundles and the SPA, which
   * bundles every handler once more (seconds).
   * @default true when the CDK CLI runs the app (`cdk synth`, `cdk deploy`: CDK_OUTDIR is set), false otherwise (tests)
   */
  readonly sbom?: boolean;
}

/**
 * Runs the packs on every synth, then writes the evidence pack (`<outdir>/compliance/report.{html,md,json}`).
 */
export function addCompliancePacks(app: App, options: CompliancePackOptions = {}): void {
  const log = new NagResultLog();
  const product = options.product ?? configuredProduct(app) ?? firstStackName(app);
  Validations.of(app).addPlugins(
    ...compliancePacks(app, log),
    new ComplianceReportPlugin(log, {
      product,
      root: options.root ?? projectRoot,
      outdir: app.outdir,
      sbom: options.sbom ?? process.env[OUTDIR_ENV] !== undefined,
    }),
  );
}

/** The product name of the portal's configuration, when the app's context is one. */
function configuredProduct(app: App): string | undefined {
  try {
    return loadConfig((key) => app.node.tryGetContext(key)).productName;
  } catch {
    return undefined;
  }
}

function firstStackName(app: App): string {
  return app.node.children.find((child) => Stack.isStack(child))?.node.id ?? 'unnamed app';
}

/**
 * Acknowledges findings (rule id -> reason) on the CloudFormation resource of a construct
 * (the construct itself or its default child), so each reason is recorded on exactly the
 * resource it is about and on nothing else.
 */
export function acknowledge(construct: IConstruct, findings: Readonly<Record<string, string>>): void {
  const resource = CfnResource.isCfnResource(construct) ? construct : construct.node.defaultChild;
  if (!resource || !CfnResource.isCfnResource(resource)) {
    throw new Error(`${construct.node.path} has no CloudFormation resource to acknowledge findings on`);
  }
  for (const [id, reason] of Object.entries(findings)) {
    if (!reason.trim())
      throw new Error(`${construct.node.path}: the acknowledgement of ${id} needs a reason an auditor can read`);
    Validations.of(resource).acknowledge({ id, reason });
  }
}

/**
 * The id cdk-nag gives a wildcard-resource finding (AwsSolutions-IAM5) for an ARN, derived
 * from the ARN itself so the acknowledgement follows configuration changes (namespace,
 * account, region) instead of naming one literal value.
 */
export function wildcardResourceFinding(scope: IConstruct, arn: string): string {
  return `AwsSolutions-IAM5[Resource::${flattenCfnReference(Stack.of(scope).resolve(arn))}]`;
}
