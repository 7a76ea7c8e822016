import { CfnResource, Stack, Validations, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks, NIST80053R5Checks } from 'cdk-nag';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
import type { IConstruct } from 'constructs';

/**
 * The compliance packs every synth runs. Their findings, and the built-in CloudFormation
 * validator's, land in `cdk.out/validation-report.json`; the acknowledgements below are
 * also written into each resource's template metadata (`cdk_nag.rules_to_suppress`) so an
 * auditor reading a template sees the reason next to the resource.
 */
export function compliancePacks(app: App): [AwsSolutionsChecks, NIST80053R5Checks] {
  return [
    new AwsSolutionsChecks(app, { verbose: true, writeSuppressionsToCloudFormation: true }),
    new NIST80053R5Checks(app, { verbose: true }),
  ];
}

export function addCompliancePacks(app: App): void {
  Validations.of(app).addPlugins(...compliancePacks(app));
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
