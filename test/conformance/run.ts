import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { buildRecord, packageVersions, recordFileName, type VitestJsonReport } from './record.ts';

/**
 * `npm run conformance` runs the conformance suite against local mode (as `npm test` does),
 * through local mode's IAM gate. `npm run conformance -- --aws` runs the same tests against
 * the AWS account of the current credentials (AWS_PROFILE, environment variables, SSO...)
 * and writes the evidence record, conformance-results/<date>-<region>.json: account and
 * alias, region, SDK versions, each case's result and the responses it saw. The AWS run
 * creates its own scratch resources and deletes them; it is never part of `npm test`.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== '--aws');
if (unknown.length > 0) {
  console.error(`Unknown argument(s): ${unknown.join(' ')}. Usage: npm run conformance [-- --aws]`);
  process.exit(2);
}
const aws = args.includes('--aws');
const region = process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? '';

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
  if (!region) {
    console.error('Set AWS_REGION to the region to test in (e.g. AWS_REGION=us-east-2).');
    process.exit(1);
  }
}

/**
 * The account's alias (IAM ListAccountAliases, a query API call signed here), or null when it has none or the caller
 * may not ask.
 */
async function accountAlias(): Promise<string | null> {
  try {
    const body = 'Action=ListAccountAliases&Version=2010-05-08';
    const signer = new SignatureV4({
      credentials: defaultProvider(),
      region: 'us-east-1',
      service: 'iam',
      sha256: Hash.bind(null, 'sha256'),
    });
    const signed = await signer.sign({
      method: 'POST',
      protocol: 'https:',
      hostname: 'iam.amazonaws.com',
      path: '/',
      headers: { host: 'iam.amazonaws.com', 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body,
    });
    const response = await fetch('https://iam.amazonaws.com/', { method: 'POST', headers: signed.headers, body });
    if (!response.ok) return null;
    return /<member>([^<]+)<\/member>/.exec(await response.text())?.[1] ?? null;
  } catch {
    return null;
  }
}

async function accountId(): Promise<string | null> {
  const sts = new STSClient({ region });
  try {
    return (await sts.send(new GetCallerIdentityCommand({}))).Account ?? null;
  } catch {
    return null;
  } finally {
    sts.destroy();
  }
}

const work = aws ? mkdtempSync(join(tmpdir(), 'conformance-evidence-')) : undefined;
const reportFile = work && join(work, 'vitest.json');
const evidenceFile = work && join(work, 'responses.jsonl');
const started = new Date();
const vitestArgs = [
  'vitest',
  'run',
  '--project',
  'conformance',
  ...(reportFile ? ['--reporter=default', '--reporter=json', `--outputFile.json=${reportFile}`] : []),
];
const child = spawn('npx', vitestArgs, {
  stdio: 'inherit',
  env: {
    ...process.env,
    CONFORMANCE_TARGET: aws ? 'aws' : 'local',
    ...(evidenceFile && { CONFORMANCE_EVIDENCE_FILE: evidenceFile }),
  },
});
child.on('exit', (code, signal) => {
  const status = code ?? (signal ? 1 : 0);
  if (!work) process.exit(status);
  void (async () => {
    try {
      const report = JSON.parse(readFileSync(reportFile!, 'utf8')) as VitestJsonReport;
      let responses = '';
      try {
        responses = readFileSync(evidenceFile!, 'utf8');
      } catch {
        // No client answered anything (every case failed before calling AWS).
      }
      const record = buildRecord({
        date: started,
        account: { id: await accountId(), alias: await accountAlias() },
        region,
        versions: packageVersions(root),
        report,
        responses,
        root,
      });
      const directory = join(root, 'conformance-results');
      mkdirSync(directory, { recursive: true });
      const file = join(directory, recordFileName(started, region));
      writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
      const { passed, failed, skipped } = record.summary;
      console.log(
        `Evidence record: ${file} (${passed} passed, ${failed} failed, ${skipped} skipped). Commit it with the change it vouches for.`,
      );
    } catch (error) {
      console.error(`Could not write the evidence record: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    process.exit(status || (process.exitCode ?? 0));
  })();
});
