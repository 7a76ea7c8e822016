import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, type PortalConfig } from '#lib/config.ts';
import { LOCAL_CONTEXT } from '#clients/local-stack.ts';

/**
 * The deployment configuration as the CDK app reads it: cdk.json's context, then
 * cdk.context.json (the CLI's cached look-ups), then `-c key=value` from the command line,
 * validated by the same schema (lib/config-schema.ts), so the tools check what a deploy would use.
 */

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

function contextOf(file: string, key?: string): Record<string, unknown> {
  const path = join(projectRoot, file);
  if (!existsSync(path)) return {};
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  const context = key ? parsed[key] : parsed;
  return context && typeof context === 'object' ? (context as Record<string, unknown>) : {};
}

/** The configuration `npm run deploy -- -c ...` would deploy. */
export function deploymentConfig(commandLine: Readonly<Record<string, string>>): PortalConfig {
  const context = { ...contextOf('cdk.json', 'context'), ...contextOf('cdk.context.json'), ...commandLine };
  return loadConfig((key) => context[key]);
}

/** The configuration local mode runs (its own addresses and account over cdk.json's defaults). */
export function localConfig(): PortalConfig {
  const context: Record<string, unknown> = { ...contextOf('cdk.json', 'context'), ...LOCAL_CONTEXT };
  return loadConfig((key) => context[key]);
}
