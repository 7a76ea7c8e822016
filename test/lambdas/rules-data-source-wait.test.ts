import { DescribeDataSetCommand, DescribeDataSourceCommand, QuickSightClient } from '@aws-sdk/client-quicksight';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ENV } from '#contracts/env.ts';
import { COMPANY_SETTINGS } from './support/harness.ts';

/**
 * How long a company change waits for QuickSight to create the rules data source: DescribeDataSource
 * at growing intervals (about 16 s in all), then an answer saying it is still in progress, never
 * an endless wait inside a function with a 60-second timeout.
 */

const quicksight = mockClient(QuickSightClient);
let rulesDataSet: typeof import('#lambdas/shared/companies/rules-dataset.ts');

beforeAll(async () => {
  Object.assign(process.env, {
    AWS_REGION: 'us-east-2',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    [ENV.quicksightAccountId]: '123456789012',
    [ENV.companyRulesBucket]: COMPANY_SETTINGS.bucket,
    [ENV.companyRulesDataSourceId]: COMPANY_SETTINGS.dataSourceId,
    [ENV.companyRulesDataSetId]: COMPANY_SETTINGS.dataSetId,
    [ENV.companyRulesRoleArn]: COMPANY_SETTINGS.roleArn,
  });
  rulesDataSet = await import('#lambdas/shared/companies/rules-dataset.ts');
});
afterEach(() => {
  vi.useRealTimers();
  quicksight.reset();
});

describe('waiting for the rules data source', () => {
  it('asks again at growing intervals, and gives up with the status after about 16 seconds', async () => {
    const delays = rulesDataSet.DATA_SOURCE_WAIT_MS;
    expect([...delays].sort((a, b) => a - b)).toEqual(delays);
    const total = delays.reduce((sum, delay) => sum + delay, 0);
    expect(total).toBeGreaterThan(10_000);
    expect(total).toBeLessThan(20_000);

    quicksight.on(DescribeDataSourceCommand).resolves({ DataSource: { Status: 'CREATION_IN_PROGRESS' } });
    vi.useFakeTimers();
    const outcome = rulesDataSet.ensureRulesDataSet({ recreateFailedSource: false }).then(
      () => undefined,
      (error: unknown) => error,
    );
    const asked = () => quicksight.commandCalls(DescribeDataSourceCommand).length;
    await vi.advanceTimersByTimeAsync(0);
    expect(asked()).toBe(1);
    let elapsed = 0;
    for (const [index, delay] of delays.entries()) {
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(asked()).toBe(index + 1);
      await vi.advanceTimersByTimeAsync(1);
      elapsed += delay;
      expect(asked()).toBe(index + 2);
    }
    expect(elapsed).toBe(total);
    const error = (await outcome) as Error & { details?: { reason?: string } };
    expect(error.message).toBe('QuickSight did not finish creating the rules data source in time');
    expect(error.details?.reason).toBe(`Data source ${COMPANY_SETTINGS.dataSourceId} is still CREATION_IN_PROGRESS`);
    // The dataset is never looked at while its source is not ready.
    expect(quicksight.commandCalls(DescribeDataSetCommand)).toEqual([]);
  });
});
