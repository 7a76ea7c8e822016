import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '#lib/config.ts';
import { isDeploying, placeholderProblems } from '#lib/portal-app.ts';
import { nameCovers } from '#tools/support/checks-aws.ts';
import { embedOrigins } from '#tools/support/checks-services.ts';
import { buildPortal } from '../infra/support/portal-build.ts';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const config = (context: Record<string, unknown>) => loadConfig((key) => context[key]);

/** Runs the CDK app as the CLI does: context in CDK_CONTEXT_JSON, output to CDK_OUTDIR. */
async function runApp(context: Record<string, unknown>): Promise<{ code: number; stderr: string }> {
  const outdir = await mkdtemp(join(tmpdir(), 'portal-guard-'));
  try {
    return await new Promise((resolve) => {
      const env = { ...process.env, CDK_CONTEXT_JSON: JSON.stringify(context), CDK_OUTDIR: outdir };
      execFile(
        process.execPath,
        ['--import', 'tsx', 'bin/app.ts'],
        { cwd: projectRoot, env, timeout: 180_000 },
        (error, _stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stderr }),
      );
    });
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
}

describe('deploy with placeholder addresses', () => {
  it('stops before CloudFormation, naming each placeholder setting', async () => {
    const { code, stderr } = await runApp({ deploying: 'true' });
    expect(code).toBe(1);
    expect(stderr).toContain('Not deploying');
    expect(stderr).toContain('sesSenderAddress is the placeholder no-reply@example.com');
    expect(stderr).toContain('supportRecipientAddress is the placeholder support@example.com');
  });

  it('names only the setting that is still a placeholder', async () => {
    const { code, stderr } = await runApp({ deploying: 'true', sesSenderAddress: 'no-reply@corp.example' });
    expect(code).toBe(1);
    expect(stderr).not.toContain('sesSenderAddress');
    expect(stderr).toContain('supportRecipientAddress is the placeholder');
  });

  it('lets synth (no deploying flag) and a deployment with real addresses through', () => {
    expect(isDeploying(() => undefined)).toBe(false);
    expect(isDeploying((key) => (key === 'deploying' ? 'true' : undefined))).toBe(true);
    expect(
      placeholderProblems(
        config({ sesSenderAddress: 'no-reply@corp.example', supportRecipientAddress: 'help@corp.example' }),
      ),
    ).toEqual([]);
  });
});

describe('a deployment started without npm run deploy', () => {
  // CloudFormation evaluates template rules when it creates the change set, before any resource,
  // and fails with the assertion's description:
  // https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/rules-section-structure.html
  it('carries a template rule that fails on each placeholder, naming the setting', () => {
    const build = buildPortal({ context: { sesSenderAddress: '', supportRecipientAddress: '' } });
    try {
      const rules = build.template.toJSON().Rules as Record<
        string,
        { Assertions: { Assert: unknown; AssertDescription: string }[] }
      >;
      const assertions = rules.NoPlaceholderAddresses?.Assertions ?? [];
      expect(assertions.map((a) => a.AssertDescription.split(' ')[0])).toEqual([
        'sesSenderAddress',
        'supportRecipientAddress',
      ]);
      expect(assertions[0]?.AssertDescription).toContain('is the placeholder no-reply@example.com');
      // The assertion is false for the synthesized value, so CloudFormation refuses the template.
      expect(assertions[0]?.Assert).toEqual({
        'Fn::Not': [{ 'Fn::Equals': ['no-reply@example.com', 'no-reply@example.com'] }],
      });
    } finally {
      build.dispose();
    }
  });

  it('has no such rule once both addresses are set', () => {
    const build = buildPortal({
      context: { sesSenderAddress: 'no-reply@corp.example', supportRecipientAddress: 'help@corp.example' },
    });
    try {
      const rules = (build.template.toJSON().Rules ?? {}) as Record<string, unknown>;
      expect(Object.keys(rules)).not.toContain('NoPlaceholderAddresses');
      expect(Object.keys(rules)).toContain('CheckBootstrapVersion');
    } finally {
      build.dispose();
    }
  });
});

describe('doctor checks that need no account', () => {
  it('matches certificate names as ACM does: exact, or a wildcard for one label', () => {
    expect(nameCovers('portal.corp.example', 'portal.corp.example')).toBe(true);
    expect(nameCovers('*.corp.example', 'portal.corp.example')).toBe(true);
    expect(nameCovers('*.corp.example', 'a.portal.corp.example')).toBe(false);
    expect(nameCovers('*.corp.example', 'corp.example')).toBe(false);
    expect(nameCovers('other.corp.example', 'portal.corp.example')).toBe(false);
  });

  it('counts the site among the three embed origins', () => {
    const result = embedOrigins(
      undefined,
      config({
        domainName: 'portal.corp.example',
        certificateArn: `arn:aws:acm:us-east-1:111122223333:certificate/${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}`,
        allowedOrigins: 'https://a.corp.example,https://b.corp.example',
      }),
    );
    expect(result.status).toBe('pass');
    expect(result.detail).toContain(
      'https://portal.corp.example, https://a.corp.example, https://b.corp.example (3 of the 3',
    );
    expect(embedOrigins('http://127.0.0.1:4400', config({})).status).toBe('fail');
  });
});
