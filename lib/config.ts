import { deploymentDashboardFeatures } from '#contracts/dashboard-features.ts';
import { blankAsUnset } from './config-values.ts';
import { PLACEHOLDER_SENDER } from './config-placeholders.ts';
import { ConfigError, describe } from './config-error.ts';
import { ENVIRONMENT_NAME, configSchema, type ParsedConfig } from './config-schema.ts';

export { ConfigError } from './config-error.ts';

/**
 * Deployment configuration, read from CDK context (`cdk.json` or `-c key=value`) and
 * checked before any resource is defined, so a bad value stops synth with a message that
 * names it. Values given on the command line arrive as strings; numbers, booleans and
 * lists are parsed from them.
 */

export interface PortalConfig extends Omit<ParsedConfig, 'sesIdentity' | 'quicksightIdentityRegion'> {
  /** The SES identity Cognito and the contact function send through (the address or its domain). */
  readonly sesIdentity: string;
  /** Region of QuickSight user management; defaults to `region`. */
  readonly quicksightIdentityRegion: string;
  /** True while the placeholder sender is configured: fine for synth, not for a deployment. */
  readonly usesPlaceholderSender: boolean;
  /** Settings still read but said another way now, each with what to write instead (warned at synth). */
  readonly deprecations?: readonly string[];
}

/** The warning of a configuration that still sets dashboardStatePersistence. */
const STATE_PERSISTENCE_DEPRECATION =
  'dashboardStatePersistence is deprecated: list the features in dashboardFeatures instead (false is dashboardFeatures without StatePersistence and Bookmarks, which is what this deployment gets).';

/** The context keys this app reads, in the order docs/configuration.md documents them. */
const CONFIG_KEYS = Object.keys(configSchema.shape) as readonly (keyof ParsedConfig)[];

/** Context key of the per-environment values: `"environments": { "staging": { ... } }`. */
const ENVIRONMENTS_CONTEXT_KEY = 'environments';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The context as the selected environment sees it: its entry under `environments` over the
 * top-level values. Every entry's keys are checked, so a misspelt key in another
 * environment's block is found before that environment is deployed.
 */
function contextForEnvironment(readContext: (key: string) => unknown): (key: string) => unknown {
  const environments = readContext(ENVIRONMENTS_CONTEXT_KEY);
  if (environments === undefined) return readContext;
  const where = `${ENVIRONMENTS_CONTEXT_KEY} (cdk.json context)`;
  if (!isPlainObject(environments)) {
    throw new ConfigError([
      `${where}: must be an object of environment names to context values, such as {"staging": {"logRetentionDays": 90}} (got ${describe(environments)})`,
    ]);
  }
  const allowedKeys = CONFIG_KEYS.filter((key) => key !== 'environment') as readonly string[];
  const problems = Object.entries(environments).flatMap(([name, values]) => {
    if (!isPlainObject(values))
      return [
        `${ENVIRONMENTS_CONTEXT_KEY}.${name}: must be an object of context values, such as {"logRetentionDays": 90} (got ${describe(values)})`,
      ];
    return Object.keys(values)
      .filter((key) => !allowedKeys.includes(key))
      .map(
        (key) =>
          `${ENVIRONMENTS_CONTEXT_KEY}.${name}.${key}: is not a configuration key; expected one of ${allowedKeys.join(', ')}`,
      );
  });
  // A malformed name is left to the schema, whose message says what a name looks like.
  const value = blankAsUnset(readContext('environment'));
  const selected = typeof value === 'string' && ENVIRONMENT_NAME.test(value) ? value : undefined;
  if (selected !== undefined && !Object.hasOwn(environments, selected)) {
    const known = Object.keys(environments);
    problems.push(
      `environment: ${describe(selected)} has no entry under ${ENVIRONMENTS_CONTEXT_KEY} in cdk.json; expected one of ${known.length > 0 ? known.join(', ') : '(none listed)'}, or add "${selected}": {} there`,
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  if (selected === undefined) return readContext;
  const overrides = environments[selected] as Record<string, unknown>;
  return (key) => (Object.hasOwn(overrides, key) ? overrides[key] : readContext(key));
}

/**
 * Reads and validates the configuration, with the selected environment's values (see
 * `contextForEnvironment`) over the top-level ones.
 * @param readContext returns the raw context value of a key (e.g. `app.node.tryGetContext`)
 * @throws ConfigError naming every bad value, what was given and what is expected
 */
export function loadConfig(readContext: (key: string) => unknown): PortalConfig {
  const read = contextForEnvironment(readContext);
  const raw = Object.fromEntries(CONFIG_KEYS.map((key) => [key, read(key)]));
  const result = configSchema.safeParse(raw);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => {
        const key = String(issue.path[0] ?? 'configuration');
        return `${key}: ${issue.message} (got ${describe(raw[key])})`;
      }),
    );
  }
  const config = result.data;
  return {
    ...config,
    // One rule (contracts/dashboard-features.ts) makes the features the embed function asks for.
    dashboardFeatures: deploymentDashboardFeatures(config.dashboardFeatures, config.dashboardStatePersistence),
    ...(config.dashboardStatePersistence === undefined ? {} : { deprecations: [STATE_PERSISTENCE_DEPRECATION] }),
    sesIdentity: config.sesIdentity ?? config.sesSenderAddress,
    quicksightIdentityRegion: config.quicksightIdentityRegion ?? config.region,
    usesPlaceholderSender: config.sesSenderAddress === PLACEHOLDER_SENDER,
  };
}
