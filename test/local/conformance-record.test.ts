import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SESv2Client, GetAccountCommand } from '@aws-sdk/client-sesv2';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { recordResponses, redact } from '../conformance/support/evidence.ts';
import { buildRecord, recordFileName } from '../conformance/record.ts';

/**
 * The conformance run's evidence record (`npm run conformance -- --aws`, docs/local-mode.md,
 * "the conformance suite"): each case with its result, its skip reason, and the responses it saw, with
 * no credential in them; and the run's refusal to start without AWS credentials.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the evidence record', () => {
  it('lists each case with its result, the reason it was skipped on AWS, and the responses it saw', () => {
    const record = buildRecord({
      date: new Date('2026-11-26T05:00:00Z'),
      account: { id: '111122223333', alias: 'portal-staging' },
      region: 'us-east-2',
      versions: { node: 'v20' },
      root,
      report: {
        testResults: [
          {
            name: join(root, 'test/conformance/ses.test.ts'),
            assertionResults: [
              { ancestorTitles: ['Verified identities'], title: 'GetEmailIdentity: found', status: 'passed' },
              {
                ancestorTitles: ['Sandbox'],
                title: 'GetAccount in the sandbox (skipped on AWS: depends on the sandbox)',
                status: 'skipped',
              },
              {
                ancestorTitles: ['Sandbox'],
                title: 'SendEmail refused',
                status: 'failed',
                failureMessages: ['AssertionError: expected MessageRejected'],
              },
            ],
          },
        ],
      },
      responses: [
        {
          file: 'test/conformance/ses.test.ts',
          test: 'Verified identities > GetEmailIdentity: found',
          service: 'SESv2',
          operation: 'GetEmailIdentity',
          ok: true,
          status: 200,
          output: { VerifiedForSendingStatus: true },
        },
        {
          file: 'test/conformance/ses.test.ts',
          test: 'Sandbox > SendEmail refused',
          service: 'SESv2',
          operation: 'SendEmail',
          ok: true,
          status: 200,
          output: { MessageId: 'm-1' },
        },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    });
    expect(record).toMatchObject({
      account: { id: '111122223333', alias: 'portal-staging' },
      region: 'us-east-2',
      summary: { passed: 1, failed: 1, skipped: 1 },
    });
    expect(record.cases).toEqual([
      expect.objectContaining({
        name: 'Verified identities > GetEmailIdentity: found',
        result: 'passed',
        responses: [expect.objectContaining({ operation: 'GetEmailIdentity', ok: true })],
      }),
      expect.objectContaining({ result: 'skipped', reason: 'depends on the sandbox', responses: [] }),
      expect.objectContaining({
        result: 'failed',
        failure: 'AssertionError: expected MessageRejected',
        responses: [expect.objectContaining({ output: { MessageId: 'm-1' } })],
      }),
    ]);
    expect(recordFileName(new Date('2026-11-26T05:00:07.123Z'), 'us-east-2')).toBe('2026-11-26T050007Z-us-east-2.json');
  });

  it('keeps tokens, secrets, sessions and embed URLs out of the recorded responses', () => {
    expect(
      redact({
        AuthenticationResult: { AccessToken: 'eyJ' },
        Session: 's',
        SecretCode: 'JBSW',
        EmbedUrl: 'https://x',
        UserStatus: 'CONFIRMED',
        $metadata: { requestId: 'r' },
      }),
    ).toEqual({
      AuthenticationResult: '[redacted]',
      Session: '[redacted]',
      SecretCode: '[redacted]',
      EmbedUrl: '[redacted]',
      UserStatus: 'CONFIRMED',
    });
  });

  it('records the answer or the error an SDK client saw, under the test that made the call', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'conformance-evidence-'));
    const file = join(dir, 'responses.jsonl');
    try {
      // Nothing listens on port 9: the call fails, and the failure is what is recorded.
      const client = recordResponses(
        new SESv2Client({
          endpoint: 'http://127.0.0.1:9',
          region: 'us-east-2',
          credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
          maxAttempts: 1,
        }),
        file,
      );
      await expect(client.send(new GetAccountCommand({}))).rejects.toThrow();
      const [line] = (await readFile(file, 'utf8')).trim().split('\n');
      expect(JSON.parse(line!)).toMatchObject({
        file: 'test/local/conformance-record.test.ts',
        test: 'the evidence record > records the answer or the error an SDK client saw, under the test that made the call',
        operation: 'GetAccount',
        ok: false,
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('npm run conformance -- --aws', () => {
  it('exits 1 without AWS credentials, saying what to set', async () => {
    const home = await mkdtemp(join(tmpdir(), 'conformance-no-credentials-'));
    try {
      const env: Record<string, string> = {
        PATH: process.env.PATH ?? '',
        HOME: home,
        AWS_CONFIG_FILE: join(home, 'config'),
        AWS_SHARED_CREDENTIALS_FILE: join(home, 'credentials'),
        AWS_EC2_METADATA_DISABLED: 'true',
      };
      const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = execFile(
          process.execPath,
          ['--import', 'tsx', join(root, 'test/conformance/run.ts'), '--aws'],
          { cwd: root, env, timeout: 60_000 },
          (_error, _stdout, stderr) => resolve({ code: child.exitCode, stderr }),
        );
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('No AWS credentials found');
      expect(result.stderr).toMatch(/AWS_PROFILE/);
      expect(result.stderr).toMatch(/AWS_REGION/);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
