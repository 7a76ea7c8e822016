import type { PortalConfig } from './config.ts';

/**
 * The placeholder addresses a fresh checkout is configured with: synth accepts them, a deployment
 * cannot use them (SES and CloudFormation refuse them minutes into it), so each is named with its fix.
 */

/** Placeholder addresses that let `cdk synth` run without context; a deployment needs real ones. */
export const PLACEHOLDER_SENDER = 'no-reply@example.com';
export const PLACEHOLDER_SUPPORT_RECIPIENT = 'support@example.com';

/** A setting still at its placeholder, which synth accepts but a deployment cannot use. */
export interface PlaceholderSetting {
  readonly setting: 'sesSenderAddress' | 'supportRecipientAddress';
  readonly placeholder: string;
  /** What to do about it. */
  readonly fix: string;
}

/**
 * What a deployment cannot go ahead with: the placeholder addresses, which synth accepts but
 * SES and CloudFormation refuse minutes into the deployment.
 */
export function placeholderSettings(
  config: Pick<PortalConfig, 'sesSenderAddress' | 'supportRecipientAddress'>,
): PlaceholderSetting[] {
  const settings: PlaceholderSetting[] = [];
  if (config.sesSenderAddress === PLACEHOLDER_SENDER) {
    settings.push({
      setting: 'sesSenderAddress',
      placeholder: PLACEHOLDER_SENDER,
      fix: 'set an address verified in SES, e.g. -c sesSenderAddress=no-reply@yourcompany.com',
    });
  }
  if (config.supportRecipientAddress === PLACEHOLDER_SUPPORT_RECIPIENT) {
    settings.push({
      setting: 'supportRecipientAddress',
      placeholder: PLACEHOLDER_SUPPORT_RECIPIENT,
      fix: 'set where support requests go, e.g. -c supportRecipientAddress=support@yourcompany.com',
    });
  }
  return settings;
}

/** The placeholder settings as messages naming each setting. */
export function placeholderProblems(
  config: Pick<PortalConfig, 'sesSenderAddress' | 'supportRecipientAddress'>,
): string[] {
  return placeholderSettings(config).map(
    ({ setting, placeholder, fix }) => `${setting} is the placeholder ${placeholder}: ${fix}`,
  );
}

/**
 * Context key `npm run deploy` sets (`-c deploying=true`). The CDK CLI runs the app the same
 * way for synth and deploy (2.1148 passes neither the command nor a context value that
 * differs), so a deployment says so itself.
 */
const DEPLOYING_CONTEXT_KEY = 'deploying';

export function isDeploying(readContext: (key: string) => unknown): boolean {
  const value = readContext(DEPLOYING_CONTEXT_KEY);
  return value === true || value === 'true';
}
