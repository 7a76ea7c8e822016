/**
 * `npm run deploy [-- <cdk deploy options>]`: checks that AWS credentials are there and valid
 * (STS GetCallerIdentity, which needs no permission) before anything is built or synthesized,
 * then builds the web app and runs `cdk deploy --all -c deploying=true` with the options given.
 * Without usable credentials it stops at once, exit code 1, saying how to sign in, instead of
 * building, synthesizing and failing in CDK's account look-up.
 */
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** STS answers in well under a second; a stalled network must not hold the deployment for long. */
const IDENTITY_TIMEOUT_MS = 15_000;

export interface DeployArguments {
  /** `--profile NAME` as the CDK CLI takes it; passed on to cdk too. */
  readonly profile?: string;
  /** `-c key=value` / `--context key=value` pairs. */
  readonly context: Readonly<Record<string, string>>;
}

/** The options of `cdk deploy` this script reads (everything is passed on unchanged). */
export function readDeployArguments(args: readonly string[]): DeployArguments {
  const context: Record<string, string> = {};
  let profile: string | undefined;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    const inline = /^(--context|--profile)=(.*)$/.exec(arg);
    const name = inline ? inline[1] : arg;
    const value = inline ? inline[2] : args[index + 1];
    if (name === '-c' || name === '--context') {
      if (!inline) index += 1;
      const pair = /^([^=]+)=(.*)$/.exec(value ?? '');
      if (pair) context[pair[1]!] = pair[2]!;
    } else if (name === '--profile') {
      if (!inline) index += 1;
      if (value) profile = value;
    }
  }
  return { ...(profile !== undefined && { profile }), context };
}

export type Identity =
  | { readonly ok: true; readonly account: string; readonly arn: string }
  | { readonly ok: false; readonly reason: string };

/**
 * The region the deployment targets (-c region=..., else cdk.json's), whose STS endpoint is
 * as good as any. Read without loading the CDK app's configuration module, so the check
 * answers at once; the app validates the configuration once credentials are there.
 */
function stsRegion(context: Readonly<Record<string, string>>): string {
  if (context.region) return context.region;
  try {
    const cdkJson = JSON.parse(readFileSync(join(projectRoot, 'cdk.json'), 'utf8')) as {
      context?: { region?: unknown };
    };
    if (typeof cdkJson.context?.region === 'string' && cdkJson.context.region !== '') return cdkJson.context.region;
  } catch {
    // No readable cdk.json: the app reports that itself.
  }
  return process.env.AWS_REGION ?? 'us-east-1';
}

/** Who the credentials of the default chain (or `profile`) are, or why there are none. */
export async function callerIdentity(options: DeployArguments): Promise<Identity> {
  const sts = new STSClient({
    region: stsRegion(options.context),
    maxAttempts: 1,
    ...(options.profile !== undefined && { profile: options.profile }),
  });
  try {
    const answer = await sts.send(new GetCallerIdentityCommand({}), {
      abortSignal: AbortSignal.timeout(IDENTITY_TIMEOUT_MS),
    });
    return { ok: true, account: answer.Account ?? 'unknown', arn: answer.Arn ?? 'unknown' };
  } catch (error) {
    const name = error instanceof Error ? error.name : 'Error';
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: `${name}: ${message.split('\n')[0]}` };
  }
}

/** What to do when there are no usable credentials. */
export function signInAdvice(reason: string, profile: string | undefined): string {
  const named = profile ?? '<profile>';
  return [
    `Not deploying: no usable AWS credentials (${reason}).`,
    'Nothing was built or synthesized. Sign in, then run npm run deploy again:',
    `  - IAM Identity Center (SSO): aws sso login --profile ${named}, then export AWS_PROFILE=${named} (or npm run deploy -- --profile ${named})`,
    `  - a named profile from ~/.aws/config or ~/.aws/credentials: export AWS_PROFILE=${named}`,
    '  - access keys: export AWS_ACCESS_KEY_ID=... AWS_SECRET_ACCESS_KEY=... (and AWS_SESSION_TOKEN=... for temporary keys)',
    '`aws sts get-caller-identity` shows whether the credentials work (docs/deploy.md, "Deploy").',
  ].join('\n');
}

export type Runner = (command: string, args: readonly string[]) => Promise<number>;

const runCommand: Runner = (command, args) =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: projectRoot, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

/** Checks the credentials, then builds the web app and deploys every stack; answers the exit code. */
export async function deploy(
  args: readonly string[],
  io: { readonly run?: Runner; readonly out?: (line: string) => void; readonly err?: (line: string) => void } = {},
): Promise<number> {
  const run = io.run ?? runCommand;
  const out = io.out ?? ((line) => console.log(line));
  const err = io.err ?? ((line) => console.error(line));
  const options = readDeployArguments(args);
  const identity = await callerIdentity(options);
  if (!identity.ok) {
    err(signInAdvice(identity.reason, options.profile));
    return 1;
  }
  out(`Deploying as ${identity.arn} (account ${identity.account}).`);
  const built = await run('npm', ['run', 'build:web']);
  if (built !== 0) return built;
  return run(join(projectRoot, 'node_modules', '.bin', 'cdk'), ['deploy', '--all', '-c', 'deploying=true', ...args]);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  deploy(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exitCode = 1;
    },
  );
}
