/**
 * Names the CDK app gives that need nothing of the CDK library to compute: the tools
 * (`npm run doctor`, `create-admin`, `verify-deployment`) find a deployment by them without
 * loading aws-cdk-lib and the app's constructs.
 */

/** The product name as CloudFormation and CloudFront accept it in names. */
export function productSlug(productName: string): string {
  return productName.replace(/[^A-Za-z0-9-]+/g, '-');
}

/** `<product>` or `<product>-<environment>`: the base of the per-account names. */
export function qualified(
  scope: { readonly productName: string; readonly environment?: string },
  separator = '-',
): string {
  return scope.environment ? `${scope.productName}${separator}${scope.environment}` : scope.productName;
}

/** CloudFormation stack name: `<product>-portal`, or `<product>-<environment>-portal`. */
export function portalStackName(productName: string, environment?: string): string {
  return `${productSlug(qualified({ productName, environment }))}-portal`;
}

/** CloudFront publishes its metrics only in us-east-1, and alarms read metrics of their own region. */
export const CLOUDFRONT_METRICS_REGION = 'us-east-1';

/**
 * The QuickSight ids and group prefix of one deployment: derived from the stack name, so environments side by side
 * keep theirs apart.
 */
export function companyRulesNames(stackName: string) {
  return {
    dataSourceId: `${stackName}-company-rules`,
    dataSetId: `${stackName}-company-rules`,
    groupPrefix: `${stackName}-company-`,
  };
}
