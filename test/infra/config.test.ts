import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { fromContext, problemsOf } from './support/config.ts';

describe('deployment configuration', () => {
  it('has defaults for every value, so synth needs no context', () => {
    expect(fromContext({})).toEqual({
      productName: 'TVIQ',
      environment: undefined,
      region: 'us-east-2',
      quicksightAccountId: undefined,
      quicksightNamespace: 'default',
      quicksightIdentityRegion: 'us-east-2',
      quicksightAuthorArn: undefined,
      sesSenderAddress: 'no-reply@example.com',
      sesIdentity: 'no-reply@example.com',
      supportRecipientAddress: 'support@example.com',
      domainName: undefined,
      certificateArn: undefined,
      webAclArn: undefined,
      cognitoDomainPrefix: undefined,
      idleTimeoutMinutes: 30,
      absoluteSessionMinutes: 720,
      dashboardStatePersistence: undefined,
      dashboardFeatures: ['StatePersistence', 'Bookmarks'],
      embedSessionMinutes: 600,
      usageRetentionDays: 400,
      accessTokenMinutes: 5,
      idTokenMinutes: 60,
      refreshTokenDays: 30,
      selfSignUp: true,
      threatProtection: false,
      passwordMinLength: 8,
      rememberDevices: false,
      passkeys: true,
      deletionProtection: true,
      logRetentionDays: 365,
      allowedOrigins: [],
      marketingSiteUrl: undefined,
      operations: true,
      alarmEmail: undefined,
      tracing: false,
      usesPlaceholderSender: true,
    });
  });

  it('reads command-line strings as numbers, booleans and lists, and blanks as unset', () => {
    const config = fromContext({
      embedSessionMinutes: '120',
      selfSignUp: 'false',
      deletionProtection: 'true',
      allowedOrigins: 'https://a.example.com, http://localhost:5173',
      logRetentionDays: '',
      quicksightIdentityRegion: 'us-east-1',
      sesSenderAddress: 'Portal@Example.org',
    });
    expect(config).toMatchObject({
      embedSessionMinutes: 120,
      selfSignUp: false,
      deletionProtection: true,
      allowedOrigins: ['https://a.example.com', 'http://localhost:5173'],
      logRetentionDays: 365,
      quicksightIdentityRegion: 'us-east-1',
      sesSenderAddress: 'portal@example.org',
      usesPlaceholderSender: false,
    });
  });

  it('reads dashboardFeatures as RegisteredUserDashboardFeatureConfigurations member names and refuses any other name', () => {
    expect(fromContext({ dashboardFeatures: 'Schedules, ThresholdAlerts,Schedules' }).dashboardFeatures).toEqual([
      'Schedules',
      'ThresholdAlerts',
    ]);
    expect(fromContext({ dashboardFeatures: [] }).dashboardFeatures).toEqual([]);
    expect(fromContext({ dashboardFeatures: [] }).deprecations).toBeUndefined();
    // The deprecated dashboardStatePersistence is still read, folded into the list, and warned of.
    const folded = fromContext({
      dashboardFeatures: 'Schedules,Bookmarks,StatePersistence',
      dashboardStatePersistence: 'false',
    });
    expect(folded.dashboardFeatures).toEqual(['Schedules']);
    expect(folded.deprecations).toEqual([expect.stringMatching(/^dashboardStatePersistence is deprecated/)]);
    expect(fromContext({ dashboardStatePersistence: false }).dashboardFeatures).toEqual([]);
    expect(fromContext({ dashboardFeatures: [], dashboardStatePersistence: true }).dashboardFeatures).toEqual([]);
    expect(problemsOf({ dashboardStatePersistence: 'sometimes' })).toEqual([
      expect.stringMatching(/^dashboardStatePersistence: must be true or false/),
    ]);
    expect(problemsOf({ dashboardFeatures: ['Schedules', 'Subscriptions'] })).toEqual([
      expect.stringMatching(
        /^dashboardFeatures: Subscriptions is not a feature of embedded dashboards; known: StatePersistence, Bookmarks, SharedView, Schedules, ThresholdAlerts, RecentSnapshots, DashboardCustomizationSummary, AmazonQInQuickSight/,
      ),
    ]);
  });

  it.each([
    [{ embedSessionMinutes: 5 }, /^embedSessionMinutes: must be at least 15 .*\(got 5\)$/],
    [{ embedSessionMinutes: 601 }, /^embedSessionMinutes: must be at most 600 .*\(got 601\)$/],
    [{ embedSessionMinutes: 'ten' }, /^embedSessionMinutes: must be a whole number from 15 to 600 \(got "ten"\)$/],
    [{ usageRetentionDays: 0 }, /^usageRetentionDays: must be at least 1 .*\(got 0\)$/],
    [{ usageRetentionDays: '1.5' }, /^usageRetentionDays: must be a whole number from 1 to 3650/],
    [
      { accessTokenMinutes: 2 },
      /^accessTokenMinutes: must be 5 \(a token that can change the authenticator must end within the 5 minutes after its sign-in\)/,
    ],
    [{ accessTokenMinutes: 60 }, /^accessTokenMinutes: must be 5 /],
    [{ refreshTokenDays: 0 }, /^refreshTokenDays: must be at least 1/],
    [{ region: 'Ohio' }, /^region: must be an AWS region code .*\(got "Ohio"\)$/],
    [{ quicksightAccountId: '1234' }, /^quicksightAccountId: must be a 12-digit AWS account id \(got "1234"\)$/],
    [{ quicksightNamespace: 'bad namespace' }, /^quicksightNamespace: /],
    [{ sesSenderAddress: 'not-an-address' }, /^sesSenderAddress: must be an email address \(got "not-an-address"\)$/],
    [
      { sesSenderAddress: 'a@b.example.com', sesIdentity: 'other.example.com' },
      /^sesIdentity: must be the verified SES identity .*\(b\.example\.com\)/,
    ],
    [{ domainName: 'portal.example.com' }, /^certificateArn: domainName and certificateArn go together/],
    [
      { certificateArn: 'arn:aws:acm:us-east-2:123456789012:certificate/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b' },
      /^certificateArn: must be the ARN of an ACM certificate in us-east-1/,
    ],
    [{ cognitoDomainPrefix: 'my-cognito-login' }, /^cognitoDomainPrefix: must not contain the reserved words/],
    [{ cognitoDomainPrefix: 'Bad_Prefix' }, /^cognitoDomainPrefix: must be 1-63 lowercase letters/],
    [{ selfSignUp: 'yes' }, /^selfSignUp: must be true or false \(got "yes"\)$/],
    [{ logRetentionDays: 2 }, /^logRetentionDays: must be one of the CloudWatch Logs retention periods/],
    [{ allowedOrigins: ['https://portal.example.com/'] }, /^allowedOrigins: each entry must be an origin/],
    [
      { allowedOrigins: 'http://portal.example.com' },
      /^allowedOrigins: http:\/\/portal\.example\.com is not https; QuickSight embeds over http only for localhost \(got /,
    ],
    [
      { allowedOrigins: 'http://127.0.0.1:5173' },
      /^allowedOrigins: http:\/\/127\.0\.0\.1:5173 is an IP address; QuickSight embeds only in domain names/,
    ],
    [{ allowedOrigins: ['https://203.0.113.7'] }, /^allowedOrigins: https:\/\/203\.0\.113\.7 is an IP address/],
    [
      { allowedOrigins: ['https://[2001:db8::1]:8443'] },
      /^allowedOrigins: https:\/\/\[2001:db8::1\]:8443 is an IP address/,
    ],
    [
      { allowedOrigins: 'https://a.example.com,https://b.example.com,https://c.example.com' },
      /^allowedOrigins: must list at most 2 origins: QuickSight embeds in at most 3 domains, and the site's own origin is one of them \(got "https:\/\/a\.example\.com,https:\/\/b\.example\.com,https:\/\/c\.example\.com"\)$/,
    ],
    [{ marketingSiteUrl: 'http://example.com' }, /^marketingSiteUrl: must be an https URL/],
    [
      { webAclArn: 'arn:aws:wafv2:us-east-2:123456789012:regional/webacl/x/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b' },
      /^webAclArn: must be the ARN of a WAF web ACL with CLOUDFRONT scope/,
    ],
    [{ productName: '9 lives' }, /^productName: must start with a letter/],
    [
      { quicksightAuthorArn: 'arn:aws:iam::123456789012:role/author' },
      /^quicksightAuthorArn: must be the ARN of a QuickSight user or group/,
    ],
    [
      { quicksightAuthorArn: 'arn:aws:quicksight:us-east-2:123456789012:dashboard/sales' },
      /^quicksightAuthorArn: must be the ARN of a QuickSight user or group/,
    ],
    [
      { quicksightAuthorArn: 'arn:aws:quicksight:eu-west-1:123456789012:user/default/author' },
      /^quicksightAuthorArn: names region eu-west-1, but QuickSight users and groups live in the identity region us-east-2/,
    ],
    [
      {
        quicksightAccountId: '210987654321',
        quicksightAuthorArn: 'arn:aws:quicksight:us-east-2:123456789012:group/default/authors',
      },
      /^quicksightAuthorArn: names account 123456789012, not the QuickSight account 210987654321/,
    ],
    [{ refreshTokenDays: 1, idTokenMinutes: 1440 }, /^refreshTokenDays: must outlast the access and ID tokens/],
    [
      { idleTimeoutMinutes: 2 },
      /^idleTimeoutMinutes: must be at least 5 \(the idle sign-out warns a minute ahead; at most a day\) \(got 2\)$/,
    ],
    [
      { idleTimeoutMinutes: 'half an hour' },
      /^idleTimeoutMinutes: must be a whole number from 5 to 1440 \(got "half an hour"\)$/,
    ],
    [{ absoluteSessionMinutes: 43_201 }, /^absoluteSessionMinutes: must be at most 43200 .*\(got 43201\)$/],
    [{ absoluteSessionMinutes: 7.5 }, /^absoluteSessionMinutes: must be a whole number from 15 to 43200 \(got 7\.5\)$/],
    [
      { idleTimeoutMinutes: 60, absoluteSessionMinutes: 60, embedSessionMinutes: 60 },
      /^idleTimeoutMinutes: must be shorter than absoluteSessionMinutes \(60\): a longer idle timeout would never apply \(got 60\)$/,
    ],
    [
      { absoluteSessionMinutes: 480 },
      /^embedSessionMinutes: is 600, more than absoluteSessionMinutes \(480\): the embedded dashboard session must never outlive the portal session \(got nothing\)$/,
    ],
    [
      { absoluteSessionMinutes: '120', embedSessionMinutes: '121' },
      /^embedSessionMinutes: is 121, more than absoluteSessionMinutes \(120\): .* \(got "121"\)$/,
    ],
  ])('rejects %j with a message naming the value', (context, expected) => {
    const problems = problemsOf(context);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(expected);
  });

  it('keeps the default embedded session within the default portal session, and accepts an embed as long as the session', () => {
    const defaults = fromContext({});
    expect(defaults.embedSessionMinutes).toBeLessThanOrEqual(defaults.absoluteSessionMinutes);
    expect(
      fromContext({ absoluteSessionMinutes: '240', embedSessionMinutes: '240', idleTimeoutMinutes: '15' }),
    ).toMatchObject({
      absoluteSessionMinutes: 240,
      embedSessionMinutes: 240,
      idleTimeoutMinutes: 15,
    });
  });

  it('judges the embedded session against the portal session only when both are valid, so one mistake gives one message', () => {
    expect(problemsOf({ absoluteSessionMinutes: 5, embedSessionMinutes: 600 })).toEqual([
      'absoluteSessionMinutes: must be at least 15 (from the shortest embedded dashboard session to 30 days) (got 5)',
    ]);
  });

  it('accepts a QuickSight user or group ARN of the identity region as the rules author', () => {
    const group = 'arn:aws:quicksight:us-east-1:210987654321:group/default/analytics-authors';
    expect(
      fromContext({
        quicksightIdentityRegion: 'us-east-1',
        quicksightAccountId: '210987654321',
        quicksightAuthorArn: group,
      }).quicksightAuthorArn,
    ).toBe(group);
    const user = 'arn:aws:quicksight:us-east-2:123456789012:user/default/author@example.com';
    expect(fromContext({ quicksightAuthorArn: user }).quicksightAuthorArn).toBe(user);
    expect(fromContext({ quicksightAuthorArn: '' }).quicksightAuthorArn).toBeUndefined();
  });

  it('accepts up to 2 extra origins, https or http://localhost on any port', () => {
    expect(
      fromContext({ allowedOrigins: ['https://staging.example.com:8443', 'http://localhost:5173'] }).allowedOrigins,
    ).toEqual(['https://staging.example.com:8443', 'http://localhost:5173']);
  });

  it('turns passkeys off with passkeys false, and refuses a custom domain too long to be their relying party', () => {
    expect(fromContext({ passkeys: 'false' }).passkeys).toBe(false);
    expect(problemsOf({ passkeys: 'no' })).toEqual([expect.stringMatching(/^passkeys: must be true or false/)]);
    const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b';
    const domainName = `${'a'.repeat(60)}.example.com`;
    expect(problemsOf({ domainName, certificateArn })).toEqual([
      expect.stringMatching(/^domainName: has more than 63 characters, too long for the passkey relying party id/),
    ]);
    expect(fromContext({ domainName, certificateArn, passkeys: false }).domainName).toBe(domainName);
  });

  it('reports every bad value at once', () => {
    const problems = problemsOf({ embedSessionMinutes: 0, region: 'moon', selfSignUp: 3 });
    expect(problems.map((p) => p.split(':')[0])).toEqual(['region', 'embedSessionMinutes', 'selfSignUp']);
  });

  it('stops `cdk synth` with the message and writes no template', async () => {
    const outdir = mkdtempSync(join(tmpdir(), 'portal-bad-config-'));
    try {
      const result = await promisify(execFile)('npx', ['tsx', 'bin/app.ts'], {
        cwd: fileURLToPath(new URL('../..', import.meta.url)),
        env: { ...process.env, CDK_OUTDIR: outdir, CDK_CONTEXT_JSON: JSON.stringify({ embedSessionMinutes: 900 }) },
      }).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => error,
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('Invalid deployment configuration');
      expect(result.stderr).toContain(
        'embedSessionMinutes: must be at most 600 (QuickSight embed sessions last 15 to 600 minutes) (got 900)',
      );
      expect(existsSync(join(outdir, 'manifest.json'))).toBe(false);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});
