import type { App } from 'aws-cdk-lib';
import { addCompliancePacks } from './compliance.ts';
import { PLACEHOLDER_SENDER, PLACEHOLDER_SUPPORT_RECIPIENT, type PortalConfig } from './config.ts';
import { PortalStack } from './portal-stack.ts';
import { portalStackName } from './resource-names.ts';

export interface PortalAppOptions {
  readonly config: PortalConfig;
  /** Directory of the built SPA (`web/dist`). */
  readonly webAssetDirectory: string;
  /**
   * Account to deploy to. Left out, the stack is account-agnostic: synth needs no
   * credentials and looks nothing up; CloudFormation fills the account in at deployment.
   */
  readonly account?: string;
  /**
   * Whether the compliance packs run on synth.
   * @default true (local mode's synthesis, which only reads the template, turns them off)
   */
  readonly compliance?: boolean;
}

// The tools find the stack by this name, as the app gives it.
export { portalStackName } from './resource-names.ts';

/** Adds the portal stack to an app and the compliance packs every synth runs. */
export function addPortal(app: App, options: PortalAppOptions): PortalStack {
  const stack = new PortalStack(app, portalStackName(options.config.productName, options.config.environment), {
    description: `${options.config.productName}${options.config.environment ? ` (${options.config.environment})` : ''} analytics portal: Cognito, AppSync, DynamoDB, Lambda function URLs, CloudFront site`,
    env: { account: options.account, region: options.config.region },
    config: options.config,
    webAssetDirectory: options.webAssetDirectory,
  });
  if (options.compliance ?? true) addCompliancePacks(app);
  return stack;
}

/**
 * Context key `npm run deploy` sets (`-c deploying=true`). The CDK CLI runs the app the same
 * way for synth and deploy (2.1148 passes neither the command nor a context value that
 * differs), so a deployment says so itself.
 */
export const DEPLOYING_CONTEXT_KEY = 'deploying';

export function isDeploying(readContext: (key: string) => unknown): boolean {
  const value = readContext(DEPLOYING_CONTEXT_KEY);
  return value === true || value === 'true';
}

/**
 * What a deployment cannot go ahead with: the placeholder addresses, which synth accepts but
 * SES and CloudFormation refuse minutes into the deployment.
 */
export function placeholderProblems(config: PortalConfig): string[] {
  const problems: string[] = [];
  if (config.sesSenderAddress === PLACEHOLDER_SENDER) {
    problems.push(`sesSenderAddress is the placeholder ${PLACEHOLDER_SENDER}: set an address verified in SES, e.g. -c sesSenderAddress=no-reply@yourcompany.com`);
  }
  if (config.supportRecipientAddress === PLACEHOLDER_SUPPORT_RECIPIENT) {
    problems.push(`supportRecipientAddress is the placeholder ${PLACEHOLDER_SUPPORT_RECIPIENT}: set where support requests go, e.g. -c supportRecipientAddress=support@yourcompany.com`);
  }
  return problems;
}
