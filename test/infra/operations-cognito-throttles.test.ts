import { GetUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { cognito as CognitoClient } from '#lambdas/shared/aws/cognito.ts';

/**
 * The metric the Cognito throttle alarm watches (test/infra/operations.test.ts): the functions'
 * Cognito client writes one embedded-metric-format line per call Cognito refused with
 * TooManyRequestsException. The document follows
 * https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html
 * (an empty DimensionSet is allowed: the metric without dimensions, which the alarm reads).
 */
describe('CognitoThrottles metric of the functions', () => {
  let cognito: typeof CognitoClient;
  /** What the next Cognito call fails with, before anything leaves the process. */
  let failure: Error;

  beforeAll(async () => {
    vi.stubEnv('AWS_REGION', 'us-east-2');
    vi.stubEnv('POWERTOOLS_METRICS_NAMESPACE', 'TVIQ-portal');
    vi.stubEnv('POWERTOOLS_SERVICE_NAME', 'embed');
    ({ cognito } = await import('#lambdas/shared/aws/cognito.ts'));
    // In the build step: after the counting middleware, before retries, signing and the network.
    cognito.middlewareStack.add(
      () => async () => {
        throw failure;
      },
      { step: 'build', name: 'failForTest' },
    );
  });
  afterEach(() => vi.restoreAllMocks());

  const emfLines = (write: ReturnType<typeof vi.spyOn>) =>
    write.mock.calls.map(([chunk]: unknown[]) => String(chunk)).filter((line: string) => line.includes('"_aws"'));

  it('writes one EMF line (metric CognitoThrottles, count 1, no dimension and per function) when Cognito throttles a call', async () => {
    failure = Object.assign(new Error('Rate exceeded'), { name: 'TooManyRequestsException', $metadata: {} });
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    await expect(cognito.send(new GetUserCommand({ AccessToken: 'token' }))).rejects.toMatchObject({
      name: 'TooManyRequestsException',
    });
    const lines = emfLines(write);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith('\n')).toBe(true);
    const document = JSON.parse(lines[0]!) as Record<string, unknown> & {
      _aws: { Timestamp: number; CloudWatchMetrics: unknown[] };
    };
    expect(document._aws.CloudWatchMetrics).toEqual([
      {
        Namespace: 'TVIQ-portal',
        Dimensions: [[], ['service']],
        Metrics: [{ Name: 'CognitoThrottles', Unit: 'Count' }],
      },
    ]);
    expect(document).toMatchObject({ CognitoThrottles: 1, service: 'embed', operation: 'GetUser' });
    expect(Math.abs(document._aws.Timestamp - Date.now())).toBeLessThan(60_000);
  });

  it.each(['NotAuthorizedException', 'LimitExceededException', 'InternalErrorException'])(
    'writes nothing for %s, and the error reaches the caller unchanged',
    async (name) => {
      failure = Object.assign(new Error(name), { name, $metadata: {} });
      const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
      await expect(cognito.send(new GetUserCommand({ AccessToken: 'token' }))).rejects.toBe(failure);
      expect(emfLines(write)).toEqual([]);
    },
  );

  it('is a module of its own that the client loads only when a call is throttled', async () => {
    const source = await import('node:fs/promises').then((fs) =>
      fs.readFile(new URL('../../lambdas/shared/aws/cognito.ts', import.meta.url), 'utf8'),
    );
    expect(source).not.toMatch(/^import .*cognito-throttles/m);
    expect(source).toContain("await import('../cognito-throttles.ts')");
  });
});
