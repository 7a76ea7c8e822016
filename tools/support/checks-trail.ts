import { CloudTrailClient, DescribeTrailsCommand, GetTrailStatusCommand, type Trail } from '@aws-sdk/client-cloudtrail';
import type { CheckResult } from './report.ts';

/**
 * Whether the account records AWS API activity: a CloudTrail trail that is logging. The
 * portal's stacks create no trail (an organization trail belongs to the account); the
 * evidence pack says so and this check confirms the account provides one.
 */

const TITLE = 'CloudTrail trail (API activity log the evidence pack relies on)';

export async function cloudTrailCheck(clientConfig: { region: string; profile?: string }): Promise<CheckResult> {
  const client = new CloudTrailClient(clientConfig);
  try {
    const { trailList = [] } = await client.send(new DescribeTrailsCommand({ includeShadowTrails: true }));
    const logging: Trail[] = [];
    for (const trail of trailList) {
      const status = await client.send(new GetTrailStatusCommand({ Name: trail.TrailARN ?? trail.Name ?? '' }));
      if (status.IsLogging) logging.push(trail);
    }
    if (logging.length === 0) {
      return {
        title: TITLE,
        status: 'warn',
        detail:
          trailList.length === 0
            ? `no trail records API activity in ${clientConfig.region}`
            : `${trailList.length} trail(s), none logging`,
        fix: 'Ask the organization to apply its organization trail to this account, or create a multi-Region trail with log file validation (CloudTrail console, Trails, Create trail).',
      };
    }
    const best = logging.find((t) => t.IsMultiRegionTrail && t.LogFileValidationEnabled) ?? logging[0]!;
    const complete = best.IsMultiRegionTrail === true && best.LogFileValidationEnabled === true;
    return {
      title: TITLE,
      status: complete ? 'pass' : 'warn',
      detail: `${best.Name ?? best.TrailARN} is logging (${best.IsOrganizationTrail ? 'organization trail' : 'account trail'}, ${best.IsMultiRegionTrail ? 'all Regions' : 'one Region'}, log file validation ${best.LogFileValidationEnabled ? 'on' : 'off'})`,
      ...(!complete && {
        fix: 'Make the trail multi-Region with log file validation on (CloudTrail console, the trail, General details, Edit).',
      }),
    };
  } catch (error) {
    return {
      title: TITLE,
      status: 'warn',
      detail: `could not read the trails: ${error instanceof Error ? error.message : String(error)}`,
      fix: 'Allow cloudtrail:DescribeTrails and cloudtrail:GetTrailStatus to the identity running doctor.',
    };
  } finally {
    client.destroy();
  }
}
