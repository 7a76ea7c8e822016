import type { App } from 'aws-cdk-lib';
import { addCompliancePacks } from './compliance.ts';
import type { PortalConfig } from './config.ts';
import { PortalStack } from './portal-stack.ts';

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

/** CloudFormation stack name: `<product>-portal`. */
export function portalStackName(productName: string): string {
  return `${productName.replace(/[^A-Za-z0-9-]+/g, '-')}-portal`;
}

/** Adds the portal stack to an app and the compliance packs every synth runs. */
export function addPortal(app: App, options: PortalAppOptions): PortalStack {
  const stack = new PortalStack(app, portalStackName(options.config.productName), {
    description: `${options.config.productName} analytics portal: Cognito, AppSync, DynamoDB, Lambda function URLs, CloudFront site`,
    env: { account: options.account, region: options.config.region },
    config: options.config,
    webAssetDirectory: options.webAssetDirectory,
  });
  if (options.compliance ?? true) addCompliancePacks(app);
  return stack;
}
