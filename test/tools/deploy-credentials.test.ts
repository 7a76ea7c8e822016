import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { deploy, readDeployArguments } from '#tools/deploy.ts';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Runs `npm run deploy -- <args>` as npm does (tsx on tools/deploy.ts), with no AWS credentials anywhere. */
function runDeployWithoutCredentials(
  args: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('AWS_') || name.startsWith('VITEST')) delete env[name];
  Object.assign(env, {
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_CONFIG_FILE: '/dev/null',
    AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
  });
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'tools/deploy.ts', ...args],
      { cwd: projectRoot, env, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
          stdout,
          stderr,
          ms: Date.now() - started,
        }),
    );
  });
}

describe('npm run deploy without AWS credentials', () => {
  it('exits 1 before building or synthesizing, saying how to sign in', async () => {
    const { code, stdout, stderr, ms } = await runDeployWithoutCredentials([
      '-c',
      'sesSenderAddress=no-reply@corp.example',
      '--require-approval',
      'never',
    ]);
    expect(code).toBe(1);
    expect(stderr).toContain('Not deploying: no usable AWS credentials');
    expect(stderr).toContain('Nothing was built or synthesized');
    expect(stderr).toContain('aws sso login --profile <profile>');
    expect(stderr).toContain('export AWS_PROFILE=<profile>');
    expect(stderr).toContain('AWS_ACCESS_KEY_ID');
    // Neither the web build (vite) nor the CDK CLI ran.
    expect(stdout).not.toContain('build:web');
    expect(stdout + stderr).not.toMatch(/vite|Synthesis time|Unable to resolve AWS account/);
    // "At once": well below a web build and synth (about a minute on this machine).
    expect(ms).toBeLessThan(30_000);
  });

  it('names the profile it was given in the sign-in command', async () => {
    vi.stubEnv('AWS_EC2_METADATA_DISABLED', 'true');
    vi.stubEnv('AWS_CONFIG_FILE', '/dev/null');
    vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', '/dev/null');
    const run = vi.fn(async () => 0);
    const errors: string[] = [];
    try {
      expect(
        await deploy(['--profile', 'portal-admin'], { run, out: () => undefined, err: (line) => errors.push(line) }),
      ).toBe(1);
    } finally {
      vi.unstubAllEnvs();
    }
    expect(run).not.toHaveBeenCalled();
    expect(errors.join('\n')).toContain('aws sso login --profile portal-admin');
    expect(errors.join('\n')).toContain('export AWS_PROFILE=portal-admin');
  });
});

describe('npm run deploy with credentials', () => {
  // STS answers GetCallerIdentity (Query protocol, XML):
  // https://docs.aws.amazon.com/STS/latest/APIReference/API_GetCallerIdentity.html
  let server: Server;
  let answer: { status: number; body: string };
  const requests: string[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        requests.push(body);
        response.writeHead(answer.status, { 'content-type': 'text/xml' }).end(answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    vi.stubEnv('AWS_ENDPOINT_URL_STS', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIAEXAMPLEDEPLOY');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'example-secret');
    vi.stubEnv('AWS_PROFILE', '');
  });
  afterEach(() => (requests.length = 0));
  afterAll(async () => {
    vi.unstubAllEnvs();
    await new Promise((resolve) => server.close(resolve));
  });

  it('asks STS who the caller is, then builds the web app and deploys every stack with the options given', async () => {
    answer = {
      status: 200,
      body: '<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult><Arn>arn:aws:iam::111122223333:user/deployer</Arn><UserId>AIDAEXAMPLE</UserId><Account>111122223333</Account></GetCallerIdentityResult><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></GetCallerIdentityResponse>',
    };
    const calls: string[][] = [];
    const out: string[] = [];
    const code = await deploy(['-c', 'region=eu-west-1', '--require-approval', 'never'], {
      run: async (command, args) => (calls.push([command.split('/').pop()!, ...args]), 0),
      out: (line) => out.push(line),
      err: (line) => out.push(line),
    });
    expect(code).toBe(0);
    expect(requests).toEqual([expect.stringContaining('Action=GetCallerIdentity')]);
    expect(out).toEqual(['Deploying as arn:aws:iam::111122223333:user/deployer (account 111122223333).']);
    expect(calls).toEqual([
      ['npm', 'run', 'build:web'],
      ['cdk', 'deploy', '--all', '-c', 'deploying=true', '-c', 'region=eu-west-1', '--require-approval', 'never'],
    ]);
  });

  it('stops with the sign-in advice when STS refuses the credentials, running nothing', async () => {
    answer = {
      status: 403,
      body: '<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>ExpiredToken</Code><Message>The security token included in the request is expired</Message></Error><RequestId>2</RequestId></ErrorResponse>',
    };
    const run = vi.fn(async () => 0);
    const errors: string[] = [];
    const code = await deploy([], { run, out: () => undefined, err: (line) => errors.push(line) });
    expect(code).toBe(1);
    expect(run).not.toHaveBeenCalled();
    expect(errors.join('\n')).toContain(
      'Not deploying: no usable AWS credentials (ExpiredToken: The security token included in the request is expired)',
    );
  });

  it('stops when the web build fails, before cdk', async () => {
    answer = {
      status: 200,
      body: '<GetCallerIdentityResponse><GetCallerIdentityResult><Arn>arn:aws:iam::111122223333:user/deployer</Arn><Account>111122223333</Account></GetCallerIdentityResult></GetCallerIdentityResponse>',
    };
    const run = vi.fn(async () => 2);
    expect(await deploy([], { run, out: () => undefined, err: () => undefined })).toBe(2);
    expect(run).toHaveBeenCalledTimes(1);
  });
});

describe('the deploy options it reads', () => {
  it('takes -c/--context pairs and --profile in both spellings, ignoring the rest', () => {
    expect(
      readDeployArguments([
        '-c',
        'region=eu-west-1',
        '--context=environment=prod',
        '--profile',
        'admin',
        '--require-approval',
        'never',
      ]),
    ).toEqual({
      profile: 'admin',
      context: { region: 'eu-west-1', environment: 'prod' },
    });
    expect(readDeployArguments(['--profile=ops', '--context', 'a=b=c'])).toEqual({
      profile: 'ops',
      context: { a: 'b=c' },
    });
    expect(readDeployArguments([])).toEqual({ context: {} });
  });
});
