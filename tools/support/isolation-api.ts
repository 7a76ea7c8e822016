import { DescribeDashboardCommand, DescribeDataSetCommand, QuickSightClient } from '@aws-sdk/client-quicksight';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import {
  COMPANY_COLUMN,
  DIFFERENCE_KINDS,
  rulesAttachmentProblem,
  tagRulesProblem,
  type AccessCheck,
  type DifferenceKind,
} from '#contracts/companies.ts';
import { LOCAL_CREDENTIALS } from '#clients/local-stack.ts';
import { companyRulesNames, portalStackName } from '#lib/stack-names.ts';
import { describeError, type TargetOptions } from './cli.ts';
import { awsClientConfig, type PortalTarget } from './target.ts';

/**
 * What QuickSight's API shows of the isolation, where the rows a frame draws cannot be read:
 * the company groups and their members equal the portal's records, the rules file and its
 * dataset (the portal's own comparison, CHECK_COMPANY_ACCESS), and every dataset behind a
 * company-scoped dashboard applying the rules (attached, GRANT_ACCESS, ENABLED, VERSION_2) over
 * a `company` column (DescribeDashboard, DescribeDataSet).
 */

/**
 * Differences of the company-access check that let a user see another company's rows, or none of
 * their own: every kind the check knows but a dashboard left unscoped, which is the catalogue's
 * concern (a dashboard shared by companies on purpose; the proof checks each company-scoped
 * dashboard's datasets itself), and a dashboard without tag rules, whose files are never made.
 */
const ISOLATION_DIFFERENCES: ReadonlySet<DifferenceKind> = new Set(
  DIFFERENCE_KINDS.filter((kind) => kind !== 'dashboard-not-scoped' && kind !== 'dashboard-no-tag-rules'),
);

/** One line per difference that breaks isolation: a membership planted in QuickSight shows as member-unexpected. */
export function isolationDifferences(check: AccessCheck): string[] {
  return check.differences
    .filter((difference) => ISOLATION_DIFFERENCES.has(difference.kind))
    .map(
      (difference) =>
        `${difference.kind}${difference.company ? ` (${difference.company})` : ''}${difference.subject ? ` ${difference.subject}` : ''}: expected ${difference.expected}, found ${difference.found}`,
    );
}

export interface QuickSightReader {
  readonly client: QuickSightClient;
  readonly accountId: string;
  readonly rulesArn: string;
  close(): void;
}

/** A QuickSight client for the target: the local stack's API, or the account of the credentials. */
export async function quicksightReader(target: PortalTarget, options: TargetOptions): Promise<QuickSightReader> {
  const rulesId = companyRulesNames(portalStackName(target.config.productName, target.config.environment)).dataSetId;
  if (target.local) {
    const client = new QuickSightClient({
      endpoint: target.local.quicksight.endpoint,
      region: target.region,
      credentials: LOCAL_CREDENTIALS,
    });
    const accountId = target.local.quicksight.accountId;
    return {
      client,
      accountId,
      rulesArn: `arn:aws:quicksight:${target.region}:${accountId}:dataset/${rulesId}`,
      close: () => client.destroy(),
    };
  }
  let accountId = target.config.quicksightAccountId;
  if (accountId === undefined) {
    const sts = new STSClient(awsClientConfig(options, target.region));
    try {
      accountId = (await sts.send(new GetCallerIdentityCommand({}))).Account ?? '';
    } finally {
      sts.destroy();
    }
  }
  const client = new QuickSightClient(awsClientConfig(options, target.region));
  return {
    client,
    accountId,
    rulesArn: `arn:aws:quicksight:${target.region}:${accountId}:dataset/${rulesId}`,
    close: () => client.destroy(),
  };
}

/**
 * Why each dataset behind the dashboards does not restrict rows by company (none: every one does),
 * and, per dashboard whose files cannot be limited to companies, why (tagRulesProblem): such a
 * dashboard is not deliverable, so no file of it is ever made.
 */
export async function scopedDataSetProblems(
  reader: QuickSightReader,
  dashboardIds: readonly string[],
): Promise<{ dataSets: number; problems: string[]; notDeliverable: Map<string, string> }> {
  const problems: string[] = [];
  const notDeliverable = new Map<string, string>();
  const tagProblems = new Map<string, string | undefined>();
  const seen = new Set<string>();
  for (const dashboardId of dashboardIds) {
    try {
      const { Dashboard } = await reader.client.send(
        new DescribeDashboardCommand({ AwsAccountId: reader.accountId, DashboardId: dashboardId }),
      );
      const dataSetIds = (Dashboard?.Version?.DataSetArns ?? []).map((arn) => arn.split('/').at(-1)!);
      if (dataSetIds.length === 0) problems.push(`${dashboardId}: QuickSight names no dataset behind it`);
      for (const dataSetId of dataSetIds) {
        if (!seen.has(dataSetId)) {
          seen.add(dataSetId);
          const { DataSet } = await reader.client.send(
            new DescribeDataSetCommand({ AwsAccountId: reader.accountId, DataSetId: dataSetId }),
          );
          const because = rulesAttachmentProblem(DataSet?.RowLevelPermissionDataSet, reader.rulesArn);
          if (because) problems.push(`${dashboardId}, dataset ${dataSetId}: ${because}`);
          if (!(DataSet?.OutputColumns ?? []).some((column) => column.Name === COMPANY_COLUMN))
            problems.push(`${dashboardId}, dataset ${dataSetId}: no ${COMPANY_COLUMN} column`);
          tagProblems.set(dataSetId, tagRulesProblem(DataSet?.RowLevelPermissionTagConfiguration));
        }
        const tagProblem = tagProblems.get(dataSetId);
        if (tagProblem) {
          const before = notDeliverable.get(dashboardId);
          notDeliverable.set(dashboardId, `${before ? `${before}; ` : ''}dataset ${dataSetId}: ${tagProblem}`);
        }
      }
    } catch (error) {
      problems.push(`${dashboardId}: ${describeError(error)}`);
    }
  }
  return { dataSets: seen.size, problems, notDeliverable };
}
