import type { App } from 'aws-cdk-lib';
import { addCompliancePacks } from './compliance.ts';
import type { PortalConfig } from './config.ts';
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
export { placeholderProblems } from './config.ts';

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
