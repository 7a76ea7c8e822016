import type { CheckResult } from './report.ts';

/**
 * Whether the account records AWS API activity: a CloudTrail trail that is logging. The
 * portal's stacks create no trail (an organization trail belongs to the account); the
 * evidence pack says so and this check confirms the account provides one. It uses the AWS
 * SDK's CloudTrail client when the project has it installed, and says how to get it otherwise.
 */

const PACKAGE = '@aws-sdk/client-cloudtrail';
const TITLE = 'CloudTrail trail (API activity log the evidence pack relies on)';

interface Trail {
  readonly Name?: string;
  readonly TrailARN?: string;
  readonly IsMultiRegionTrail?: boolean;
  readonly IsOrganizationTrail?: boolean;
  readonly LogFileValidationEnabled?: boolean;
}

/** The few parts of the CloudTrail client the check uses. */
export interface CloudTrailModule {
  readonly CloudTrailClient: new (config: { region: string; profile?: string }) => { send(command: unknown): Promise<unknown>; destroy(): void };
  readonly DescribeTrailsCommand: new (input: { includeShadowTrails?: boolean }) => unknown;
  readonly GetTrailStatusCommand: new (input: { Name: string }) => unknown;
}

// A variable specifier: the package is optional, and the type checker must not require it.
const loadCloudTrail = async (): Promise<CloudTrailModule> => (await import(/* @vite-ignore */ PACKAGE as string)) as CloudTrailModule;

export async function cloudTrailCheck(
  clientConfig: { region: string; profile?: string },
  load: () => Promise<CloudTrailModule> = loadCloudTrail,
): Promise<CheckResult> {
  let sdk: CloudTrailModule;
  try {
    sdk = await load();
  } catch {
    return {
      title: TITLE,
      status: 'warn',
      detail: `not checked: the check needs the package ${PACKAGE}, which is not installed`,
      fix: `npm install --save-dev ${PACKAGE}, then run npm run doctor again; meanwhile: aws cloudtrail describe-trails --include-shadow-trails and aws cloudtrail get-trail-status --name <trail ARN>`,
    };
  }
  const client = new sdk.CloudTrailClient(clientConfig);
  try {
    const { trailList = [] } = (await client.send(new sdk.DescribeTrailsCommand({ includeShadowTrails: true }))) as { trailList?: Trail[] };
    const logging: Trail[] = [];
    for (const trail of trailList) {
      const status = (await client.send(new sdk.GetTrailStatusCommand({ Name: trail.TrailARN ?? trail.Name ?? '' }))) as { IsLogging?: boolean };
      if (status.IsLogging) logging.push(trail);
    }
    if (logging.length === 0) {
      return {
        title: TITLE,
        status: 'warn',
        detail: trailList.length === 0 ? `no trail records API activity in ${clientConfig.region}` : `${trailList.length} trail(s), none logging`,
        fix: 'Ask the organization to apply its organization trail to this account, or create a multi-Region trail with log file validation (CloudTrail console, Trails, Create trail).',
      };
    }
    const best = logging.find((t) => t.IsMultiRegionTrail && t.LogFileValidationEnabled) ?? logging[0]!;
    const complete = best.IsMultiRegionTrail === true && best.LogFileValidationEnabled === true;
    return {
      title: TITLE,
      status: complete ? 'pass' : 'warn',
      detail: `${best.Name ?? best.TrailARN} is logging (${best.IsOrganizationTrail ? 'organization trail' : 'account trail'}, ${best.IsMultiRegionTrail ? 'all Regions' : 'one Region'}, log file validation ${best.LogFileValidationEnabled ? 'on' : 'off'})`,
      ...(!complete && { fix: 'Make the trail multi-Region with log file validation on (CloudTrail console, the trail, General details, Edit).' }),
    };
  } catch (error) {
    return { title: TITLE, status: 'warn', detail: `could not read the trails: ${error instanceof Error ? error.message : String(error)}`, fix: 'Allow cloudtrail:DescribeTrails and cloudtrail:GetTrailStatus to the identity running doctor.' };
  } finally {
    client.destroy();
  }
}
