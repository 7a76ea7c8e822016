import { CloudTrailClient, DescribeTrailsCommand, GetTrailStatusCommand } from '@aws-sdk/client-cloudtrail';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { cloudTrailCheck } from '#tools/support/checks-trail.ts';

const cloudTrail = mockClient(CloudTrailClient);
const region = { region: 'eu-west-1' };

/** The account's trails as DescribeTrails and GetTrailStatus answer them. */
function answer(
  trails: { Name: string; IsMultiRegionTrail: boolean; LogFileValidationEnabled: boolean; logging: boolean }[],
): void {
  cloudTrail.on(DescribeTrailsCommand).resolves({
    trailList: trails.map(({ logging: _logging, ...trail }) => ({
      ...trail,
      TrailARN: `arn:aws:cloudtrail:eu-west-1:123456789012:trail/${trail.Name}`,
    })),
  });
  for (const trail of trails) {
    cloudTrail
      .on(GetTrailStatusCommand, { Name: `arn:aws:cloudtrail:eu-west-1:123456789012:trail/${trail.Name}` })
      .resolves({ IsLogging: trail.logging });
  }
}

describe('doctor: the account trail the evidence pack relies on', () => {
  afterEach(() => cloudTrail.reset());
  const good = { Name: 'org-trail', IsMultiRegionTrail: true, LogFileValidationEnabled: true, logging: true };

  it('passes on a multi-Region trail with log file validation that is logging, shadow trails included', async () => {
    answer([good]);
    await expect(cloudTrailCheck(region)).resolves.toMatchObject({
      status: 'pass',
      detail: expect.stringMatching(/^org-trail is logging/),
    });
    expect(cloudTrail.commandCalls(DescribeTrailsCommand)[0]?.args[0].input).toEqual({ includeShadowTrails: true });
  });

  it('warns when no trail exists, none is logging, or the logging one lacks log file validation', async () => {
    answer([]);
    await expect(cloudTrailCheck(region)).resolves.toMatchObject({
      status: 'warn',
      detail: 'no trail records API activity in eu-west-1',
    });
    cloudTrail.reset();
    answer([{ ...good, logging: false }]);
    await expect(cloudTrailCheck(region)).resolves.toMatchObject({
      status: 'warn',
      detail: '1 trail(s), none logging',
    });
    cloudTrail.reset();
    answer([{ ...good, LogFileValidationEnabled: false }]);
    await expect(cloudTrailCheck(region)).resolves.toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/log file validation off/),
      fix: expect.stringMatching(/log file validation on/),
    });
  });

  it('warns with the permissions to grant when the trails cannot be read', async () => {
    cloudTrail.on(DescribeTrailsCommand).rejects(
      Object.assign(new Error('User is not authorized to perform: cloudtrail:DescribeTrails'), {
        name: 'AccessDeniedException',
      }),
    );
    await expect(cloudTrailCheck(region)).resolves.toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/^could not read the trails: User is not authorized/),
      fix: expect.stringMatching(/cloudtrail:DescribeTrails and cloudtrail:GetTrailStatus/),
    });
  });
});
