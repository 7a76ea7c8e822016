import { spawn } from 'node:child_process';
import { defaultProvider } from '@aws-sdk/credential-provider-node';

/**
 * `npm run conformance` runs the conformance suite against local mode (as `npm test` does);
 * `npm run conformance -- --aws` runs the same tests against the AWS account of the current
 * credentials (AWS_PROFILE, environment variables, SSO...). The AWS run creates its own
 * scratch resources and deletes them; it is never part of `npm test`.
 */
const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== '--aws');
if (unknown.length > 0) {
  console.error(`Unknown argument(s): ${unknown.join(' ')}. Usage: npm run conformance [-- --aws]`);
  process.exit(2);
}
const aws = args.includes('--aws');

if (aws) {
  try {
    const credentials = await defaultProvider()();
    if (!credentials.accessKeyId) throw new Error('the provider chain returned no access key');
  } catch (error) {
    console.error(
      'No AWS credentials found, so the conformance suite cannot run against AWS.\n' +
        'Set AWS_PROFILE (e.g. an IAM Identity Center profile after `aws sso login`) or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, and AWS_REGION.\n' +
        `(${error instanceof Error ? error.message : String(error)})`,
    );
    process.exit(1);
  }
  if (!process.env.AWS_REGION && !process.env.AWS_DEFAULT_REGION) {
    console.error('Set AWS_REGION to the region to test in (e.g. AWS_REGION=us-east-2).');
    process.exit(1);
  }
}

const child = spawn('npx', ['vitest', 'run', '--project', 'conformance'], {
  stdio: 'inherit',
  env: { ...process.env, CONFORMANCE_TARGET: aws ? 'aws' : 'local' },
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
