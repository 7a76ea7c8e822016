import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError } from '#lib/config.ts';
import { DEFAULT_DATA_DIR } from '#clients/local-stack.ts';

/**
 * Argument handling shared by the deployment tools. Exit codes: 0 done, 1 a check or step
 * failed, 2 the command line or the configuration is wrong (nothing was called).
 */

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

// The SDK's notice about its future Node 22 floor would bury the tools' own output.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** A wrong command line or configuration; printed with the usage text. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A failure the tool explains itself (no stack found, ...): its message is printed as is. */
export class ToolError extends Error {
  override readonly name = 'ToolError';
}

/** Options every tool accepts: where the portal is and how to reach it. */
export interface TargetOptions {
  /** Against the running local stack instead of AWS. */
  readonly local: boolean;
  /** Local stack's data directory (with --local). */
  readonly dataDir: string;
  /** AWS profile for the credentials (otherwise the default chain: AWS_PROFILE, env, SSO, ...). */
  readonly profile?: string;
  /** `-c key=value` pairs, read on top of cdk.json's context as the CDK CLI does. */
  readonly context: Readonly<Record<string, string>>;
}

export const TARGET_USAGE = `  --local              the local stack (npm start) instead of AWS
  --data-dir DIR       the local stack's data directory (default ${DEFAULT_DATA_DIR})
  --profile NAME       AWS profile of the credentials (default: the usual AWS chain)
  -c, --context K=V    configuration as for cdk deploy (repeatable; on top of cdk.json);
                       -c environment=NAME finds that environment's stack, as the CDK app names it`;

const TARGET_OPTIONS = {
  local: { type: 'boolean', default: false },
  'data-dir': { type: 'string' },
  profile: { type: 'string' },
  context: { type: 'string', short: 'c', multiple: true },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsConfig['options'];

type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export interface ParsedCommand {
  readonly target: TargetOptions;
  /** The tool's own options, by their long names. */
  readonly values: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;
  readonly positionals: readonly string[];
  readonly help: boolean;
}

function contextPairs(entries: readonly string[] | undefined): Record<string, string> {
  const context: Record<string, string> = {};
  for (const entry of entries ?? []) {
    const match = /^([^=\s]+)=(.*)$/s.exec(entry);
    if (!match) throw new UsageError(`-c expects key=value, got "${entry}"`);
    context[match[1]!] = match[2]!;
  }
  return context;
}

/** Parses the tool's own options plus the target options; unknown options are a UsageError. */
export function parseCommand(args: readonly string[], options: OptionSpec, maxPositionals: number): ParsedCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: { ...options, ...TARGET_OPTIONS },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const values = parsed.values as ParsedCommand['values'] & {
    local: boolean;
    'data-dir'?: string;
    profile?: string;
    context?: string[];
    help: boolean;
  };
  if (parsed.positionals.length > maxPositionals) {
    throw new UsageError(
      `Unexpected argument${parsed.positionals.length - maxPositionals > 1 ? 's' : ''}: ${parsed.positionals.slice(maxPositionals).join(' ')}`,
    );
  }
  if (values.local && values.profile)
    throw new UsageError('--profile is for AWS; --local signs as the local administrator');
  if (values.local && values.context?.length)
    throw new UsageError('-c configures a deployment; --local checks the configuration local mode runs');
  if (!values.local && values['data-dir']) throw new UsageError('--data-dir goes with --local');
  if (values.profile !== undefined && !/^[\w.+@-]{1,128}$/.test(values.profile))
    throw new UsageError(`--profile: "${values.profile}" is not a profile name`);
  return {
    target: {
      local: values.local,
      dataDir: values['data-dir'] ?? DEFAULT_DATA_DIR,
      ...(values.profile !== undefined && { profile: values.profile }),
      context: contextPairs(values.context),
    },
    values,
    positionals: parsed.positionals,
    help: values.help,
  };
}

/** A one-line description of an AWS SDK or other error, for a checklist or a step. */
export function describeError(error: unknown): string {
  if (error instanceof Error)
    return error.name && error.name !== 'Error' && !error.message.startsWith(error.name)
      ? `${error.name}: ${error.message}`
      : error.message;
  return String(error);
}

/**
 * Runs a tool's main function and exits with its code: usage and configuration errors print
 * the problem and the usage and exit 2; anything unexpected prints its message and exits 1.
 */
export function runTool(usage: string, main: (args: readonly string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      if (error instanceof UsageError || error instanceof ConfigError) {
        console.error(`${error.message}\n\n${usage}`);
        process.exitCode = EXIT.usage;
        return;
      }
      console.error(error instanceof ToolError ? error.message : describeError(error));
      process.exitCode = EXIT.failed;
    },
  );
}
