import { describe, expect, it } from 'vitest';
import { cloudTrailCheck, type CloudTrailModule } from '../../tools/support/checks-trail.ts';

/** A stand-in for the CloudTrail client answering DescribeTrails and GetTrailStatus with the given trails. */
function fakeCloudTrail(trails: { Name: string; IsMultiRegionTrail: boolean; LogFileValidationEnabled: boolean; logging: boolean }[]): CloudTrailModule {
  class DescribeTrailsCommand {
    constructor(readonly input: unknown) {}
  }
  class GetTrailStatusCommand {
    constructor(readonly input: { Name: string }) {}
  }
  class CloudTrailClient {
    async send(command: unknown) {
      if (command instanceof DescribeTrailsCommand) return { trailList: trails.map(({ logging: _logging, ...trail }) => ({ ...trail, TrailARN: `arn:aws:cloudtrail:eu-west-1:123456789012:trail/${trail.Name}` })) };
      if (command instanceof GetTrailStatusCommand) return { IsLogging: trails.find((t) => command.input.Name.endsWith(`/${t.Name}`))?.logging ?? false };
      throw new Error('unexpected command');
    }
    destroy() {}
  }
  return { CloudTrailClient, DescribeTrailsCommand, GetTrailStatusCommand };
}

describe('doctor: the account trail the evidence pack relies on', () => {
  it('says the check needs @aws-sdk/client-cloudtrail when it is not installed, instead of installing it', async () => {
    const missing = Object.assign(new Error("Cannot find package '@aws-sdk/client-cloudtrail'"), { code: 'ERR_MODULE_NOT_FOUND' });
    const result = await cloudTrailCheck({ region: 'eu-west-1' }, () => Promise.reject(missing));
    expect(result).toMatchObject({ status: 'warn', detail: expect.stringMatching(/needs the package @aws-sdk\/client-cloudtrail, which is not installed/) });
    expect(result.fix).toMatch(/^npm install --save-dev @aws-sdk\/client-cloudtrail/);
  });

  it('passes on a multi-Region trail with log file validation that is logging, and warns otherwise', async () => {
    const good = { Name: 'org-trail', IsMultiRegionTrail: true, LogFileValidationEnabled: true, logging: true };
    await expect(cloudTrailCheck({ region: 'eu-west-1' }, async () => fakeCloudTrail([good]))).resolves.toMatchObject({ status: 'pass', detail: expect.stringMatching(/^org-trail is logging/) });
    await expect(cloudTrailCheck({ region: 'eu-west-1' }, async () => fakeCloudTrail([]))).resolves.toMatchObject({ status: 'warn', detail: 'no trail records API activity in eu-west-1' });
    await expect(cloudTrailCheck({ region: 'eu-west-1' }, async () => fakeCloudTrail([{ ...good, logging: false }]))).resolves.toMatchObject({ status: 'warn', detail: '1 trail(s), none logging' });
    await expect(cloudTrailCheck({ region: 'eu-west-1' }, async () => fakeCloudTrail([{ ...good, LogFileValidationEnabled: false }]))).resolves.toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/log file validation off/),
    });
  });
});
