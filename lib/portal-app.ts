import type { App } from 'aws-cdk-lib';
import { addCompliancePacks } from './compliance.ts';
import type { PortalConfig } from './config.ts';
import { PortalStack } from './portal-stack.ts';
import { EdgeAlarmsStack } from './edge-alarms.ts';
import { CLOUDFRONT_METRICS_REGION } from './stack-names.ts';
import { PortalNames } from './resource-names.ts';

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
export { isDeploying, placeholderProblems } from './config-placeholders.ts';

/** Adds the portal stack to an app and the compliance packs every synth runs. */
export function addPortal(app: App, options: PortalAppOptions): PortalStack {
  const { config } = options;
  const names = new PortalNames(config);
  const label = `${config.productName}${config.environment ? ` (${config.environment})` : ''}`;
  const edgeAlarms = config.operations && config.region !== CLOUDFRONT_METRICS_REGION;
  const stack = new PortalStack(app, names.stack, {
    description: `${label} analytics portal: Cognito, AppSync, DynamoDB, Lambda function URLs, CloudFront site`,
    env: { account: options.account, region: config.region },
    // The edge-alarms stack reads the distribution id from this stack's outputs (Fn::GetStackOutput).
    crossRegionReferences: edgeAlarms,
    config,
    webAssetDirectory: options.webAssetDirectory,
  });
  if (edgeAlarms) {
    // Deployed after the portal stack: the reference to the distribution makes it depend on it.
    new EdgeAlarmsStack(app, names.edgeAlarmsStack, {
      description: `${label} analytics portal in ${config.region}: the site's CloudFront alarm, which only us-east-1 can hold`,
      env: { account: options.account, region: CLOUDFRONT_METRICS_REGION },
      distribution: stack.site.distribution,
      alarmEmail: config.alarmEmail,
    });
  }
  if (options.compliance ?? true) addCompliancePacks(app);
  return stack;
}
