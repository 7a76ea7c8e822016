import { DescribeDashboardCommand, DescribeDataSetCommand, type DataSet } from '@aws-sdk/client-quicksight';
import type { DashboardScope } from '#contracts/companies.ts';
import { isAwsError } from '../aws/config.ts';
import { quicksight } from '../aws/quicksight.ts';
import { quicksightSettings } from '../quicksight.ts';
import { rulesDataSetArn } from './rules.ts';

/**
 * Whether a dashboard is company-scoped: every dataset behind it (DescribeDashboard's
 * Version.DataSetArns) applies the portal's rules dataset (DescribeDataSet's
 * RowLevelPermissionDataSet with that ARN, GRANT_ACCESS and Status ENABLED; QuickSight treats
 * a missing Status as ENABLED). One dataset without them makes the whole dashboard show
 * every company's rows.
 */

export interface ScopeVerdict {
  readonly scope: DashboardScope;
  readonly detail: string;
}

const dataSetIdOf = (arn: string): string => arn.slice(arn.lastIndexOf('/') + 1);

const appliesPortalRules = (dataSet: DataSet | undefined, rulesArn: string): string | undefined => {
  const rls = dataSet?.RowLevelPermissionDataSet;
  if (rls === undefined) return 'applies no row-level security';
  if (rls.Arn !== rulesArn) return `applies other rules (${rls.Arn ?? 'no ARN'})`;
  if (rls.Status === 'DISABLED') return 'has row-level security turned off';
  if (rls.PermissionPolicy !== 'GRANT_ACCESS')
    return `uses ${rls.PermissionPolicy ?? 'no'} permission policy instead of GRANT_ACCESS`;
  return undefined;
};

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
  for (const arn of dataSetArns) {
    const id = dataSetIdOf(arn);
    try {
      const described = await quicksight.send(new DescribeDataSetCommand({ AwsAccountId: account, DataSetId: id }));
      const problem = appliesPortalRules(described.DataSet, rulesArn);
      if (problem) problems.push(`dataset ${described.DataSet?.Name ?? id} ${problem}`);
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
  };
};
