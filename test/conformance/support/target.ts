/**
 * Where the conformance suite runs. `npm test` runs it against local mode's emulators;
 * `npm run conformance -- --aws` runs the same files unchanged against the AWS account of
 * the current credentials (CONFORMANCE_TARGET=aws). Each service's target helper
 * (`<service>-target.ts` beside this file) gives the tests clients and scratch resources
 * for either target, and deletes what it created when the tests end.
 */
type ConformanceTargetKind = 'local' | 'aws';

const TARGET: ConformanceTargetKind = process.env.CONFORMANCE_TARGET === 'aws' ? 'aws' : 'local';

export const onAws = TARGET === 'aws';

/** Region of the scratch resources in AWS (the credentials' region), us-east-2 locally. */
export const REGION = onAws ? (process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-2') : 'us-east-2';

/**
 * A setting the AWS run needs from whoever runs it (e.g. a verified SES sender): read from
 * the environment, with a message that names the variable when it is missing.
 */
export function awsSetting(name: string, what: string): string {
  const value = process.env[name]?.trim();
  if (!value) throw new Error(`The conformance run against AWS needs ${name}: ${what}`);
  return value;
}

/** A name unique to this run, for scratch resources (pools, users, identities). */
export const scratchName = (prefix: string): string =>
  `${prefix}-conformance-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
