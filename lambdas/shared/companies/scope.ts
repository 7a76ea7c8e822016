import { DescribeDashboardCommand, DescribeDataSetCommand } from '@aws-sdk/client-quicksight';
import { type DashboardScope, rulesAttachmentProblem, tagRulesProblem } from '#contracts/companies.ts';
import { isAwsError } from '../aws/config.ts';
import { quicksight } from '../aws/quicksight.ts';
import { quicksightSettings } from '../quicksight.ts';
import { rulesDataSetArn } from './rules.ts';

/**
 * Whether a dashboard is company-scoped: every dataset behind it (DescribeDashboard's
 * Version.DataSetArns) applies the portal's rules dataset in the format the portal writes
 * (DescribeDataSet's RowLevelPermissionDataSet with that ARN, GRANT_ACCESS, ENABLED and
 * FormatVersion VERSION_2: contracts/companies.ts, rulesAttachmentProblem, which `npm run
 * doctor` asks too). One dataset without them makes the whole dashboard show every company's
 * rows, or reads the rules' columns otherwise than the portal writes them.
 */

export interface ScopeVerdict {
  readonly scope: DashboardScope;
  readonly detail: string;
  /**
   * For a company-scoped dashboard, why its datasets' tag rules would not limit an emailed file
   * to the subscriber's companies (contracts/companies.ts tagRulesProblem); undefined when they would.
   */
  readonly tagRules?: string;
}

const dataSetIdOf = (arn: string): string => arn.slice(arn.lastIndexOf('/') + 1);

export const dashboardScope = async (dashboardId: string): Promise<ScopeVerdict> => {
  const account = quicksightSettings().accountId;
  let dataSetArns: string[];
  try {
    const described = await quicksight.send(
      new DescribeDashboardCommand({ AwsAccountId: account, DashboardId: dashboardId }),
    );
    dataSetArns = described.Dashboard?.Version?.DataSetArns ?? [];
  } catch (error) {
    if (isAwsError(error, 'ResourceNotFoundException'))
      return { scope: 'unknown', detail: `QuickSight has no dashboard ${dashboardId}` };
    return {
      scope: 'unknown',
      detail: `QuickSight could not describe the dashboard (${error instanceof Error ? error.name : 'error'})`,
    };
  }
  if (dataSetArns.length === 0)
    return { scope: 'unknown', detail: 'QuickSight lists no dataset behind this dashboard' };
  const rulesArn = rulesDataSetArn();
  const problems: string[] = [];
  const tagProblems: string[] = [];
  for (const arn of dataSetArns) {
    const id = dataSetIdOf(arn);
    try {
      const described = await quicksight.send(new DescribeDataSetCommand({ AwsAccountId: account, DataSetId: id }));
      const problem = rulesAttachmentProblem(described.DataSet?.RowLevelPermissionDataSet, rulesArn);
      if (problem) problems.push(`dataset ${described.DataSet?.Name ?? id}: ${problem}`);
      const tagProblem = tagRulesProblem(described.DataSet?.RowLevelPermissionTagConfiguration);
      if (tagProblem) tagProblems.push(`dataset ${described.DataSet?.Name ?? id}: ${tagProblem}`);
    } catch (error) {
      return {
        scope: 'unknown',
        detail: `QuickSight could not describe dataset ${id} (${error instanceof Error ? error.name : 'error'})`,
      };
    }
  }
  if (problems.length > 0) return { scope: 'not-scoped', detail: problems.join('; ') };
  return {
    scope: 'company-scoped',
    detail: `${dataSetArns.length === 1 ? 'Its dataset applies' : `All ${dataSetArns.length} datasets apply`} the portal's company rules`,
    ...(tagProblems.length > 0 && { tagRules: tagProblems.join('; ') }),
  };
};
