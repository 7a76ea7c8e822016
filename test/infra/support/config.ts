import { ConfigError, loadConfig, type PortalConfig } from '#lib/config.ts';

/** The configuration loaded from a context object, as the CDK app loads it from cdk.json and -c. */
export const fromContext = (context: Record<string, unknown>): PortalConfig => loadConfig((key) => context[key]);

/** The problems a refused configuration reports; fails when the configuration is accepted. */
export function problemsOf(context: Record<string, unknown>): readonly string[] {
  try {
    fromContext(context);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error(`No error for ${JSON.stringify(context)}`);
}
