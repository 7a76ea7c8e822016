import { DynamoDBClient, ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import {
  DescribeDashboardCommand,
  DescribeDataSetCommand,
  ListIngestionsCommand,
  type QuickSightClient,
} from '@aws-sdk/client-quicksight';
import { rulesAttachmentProblem } from '#contracts/companies.ts';
import { describeError } from './cli.ts';
import type { CheckResult } from './report.ts';

/**
 * Row-level security as the portal relies on it (docs/companies.md): the rules
 * dataset the stack keeps (`<stack>-company-rules`) exists and its last SPICE ingestion
 * completed, and every dataset behind every catalogue dashboard applies it
 * (RowLevelPermissionDataSet naming it, GRANT_ACCESS, VERSION_2, ENABLED). Read-only calls:
 * a Scan of the catalogue, DescribeDashboard and DescribeDataSet, ListIngestions.
 */

export interface CompanyScopeTarget {
  readonly quicksight: QuickSightClient;
  readonly dynamodb: DynamoDBClient;
  readonly accountId: string;
  /** Region of the dashboards and datasets (the stack's region). */
  readonly region: string;
  /** The catalogue table (output DashboardsTableName, or local mode's table). */
  readonly catalogueTable: string;
  /** Output CompanyRulesDataSetId. */
  readonly rulesDataSetId: string;
}

const RLS_GUIDE =
  'docs/deploy.md, "Row-level security set-up": QuickSight console > Datasets > <dataset> > Row-level security > User-based rules > the rules dataset';

const errorName = (error: unknown) => (error instanceof Error ? error.name : '');

interface CatalogueEntry {
  readonly dashboardId: string;
  readonly sharedData: boolean;
}

async function catalogue(target: CompanyScopeTarget): Promise<CatalogueEntry[]> {
  const entries: CatalogueEntry[] = [];
  let startKey: Record<string, AttributeValue> | undefined;
  do {
    const page = await target.dynamodb.send(
      new ScanCommand({ TableName: target.catalogueTable, ExclusiveStartKey: startKey }),
    );
    for (const item of page.Items ?? []) {
      const dashboardId = item.dashboardId?.S;
      if (dashboardId) entries.push({ dashboardId, sharedData: item.sharedData?.BOOL === true });
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return entries.sort((a, b) => a.dashboardId.localeCompare(b.dashboardId));
}

/** The rules dataset and its newest ingestion. */
export async function rulesDataSetCheck(target: CompanyScopeTarget): Promise<CheckResult> {
  const title = 'Row-level-security rules dataset';
  const { quicksight, accountId, rulesDataSetId } = target;
  try {
    await quicksight.send(new DescribeDataSetCommand({ AwsAccountId: accountId, DataSetId: rulesDataSetId }));
  } catch (error) {
    if (errorName(error) === 'ResourceNotFoundException') {
      return {
        title,
        status: 'warn',
        detail: `${rulesDataSetId} does not exist yet: the portal creates it on the first company change`,
        fix: 'Add the companies in the admin portal (Companies), or run the company-access check there with "Fix"',
      };
    }
    return {
      title,
      status: 'fail',
      detail: `DescribeDataSet ${rulesDataSetId}: ${describeError(error)}`,
      fix: 'Check that the credentials may call quicksight:DescribeDataSet',
    };
  }
  try {
    const { Ingestions = [] } = await quicksight.send(
      new ListIngestionsCommand({ AwsAccountId: accountId, DataSetId: rulesDataSetId, MaxResults: 10 }),
    );
    const newest = [...Ingestions].sort((a, b) => (b.CreatedTime?.getTime() ?? 0) - (a.CreatedTime?.getTime() ?? 0))[0];
    if (!newest) {
      return {
        title,
        status: 'fail',
        detail: `${rulesDataSetId} has never been loaded into SPICE`,
        fix: 'Run the company-access check in the admin portal (Companies) with "Fix"',
      };
    }
    const when = newest.CreatedTime ? ` (started ${newest.CreatedTime.toISOString()})` : '';
    if (newest.IngestionStatus === 'COMPLETED')
      return {
        title,
        status: 'pass',
        detail: `${rulesDataSetId}: last ingestion ${newest.IngestionId} completed${when}`,
      };
    if (['INITIALIZED', 'QUEUED', 'RUNNING'].includes(newest.IngestionStatus ?? '')) {
      return {
        title,
        status: 'warn',
        detail: `${rulesDataSetId}: ingestion ${newest.IngestionId} is ${newest.IngestionStatus?.toLowerCase()}${when}`,
        fix: 'Run the doctor again in a minute',
      };
    }
    const reason = newest.ErrorInfo?.Message
      ? `: ${newest.ErrorInfo.Type ?? ''} ${newest.ErrorInfo.Message}`.trimEnd()
      : '';
    return {
      title,
      status: 'fail',
      detail: `${rulesDataSetId}: last ingestion ${newest.IngestionId} ${newest.IngestionStatus?.toLowerCase() ?? 'has no status'}${reason}${when}; QuickSight applies the rules of the last completed load`,
      fix: 'Fix the cause shown, then run the company-access check in the admin portal (Companies) with "Fix" to load the rules again',
    };
  } catch (error) {
    return {
      title,
      status: 'fail',
      detail: `ListIngestions ${rulesDataSetId}: ${describeError(error)}`,
      fix: 'Check that the credentials may call quicksight:ListIngestions',
    };
  }
}

/**
 * Whether each catalogue dashboard is company-scoped. A dashboard that is not is a warning,
 * not a blocker: the portal shows it to users of one company only, or after an administrator
 * confirmed it holds shared data; the check names each one and why.
 */
export async function dashboardScopeCheck(target: CompanyScopeTarget): Promise<CheckResult> {
  const title = 'Company scope of catalogue dashboards';
  const { quicksight, accountId } = target;
  const rulesArn = `arn:aws:quicksight:${target.region}:${accountId}:dataset/${target.rulesDataSetId}`;
  let entries: CatalogueEntry[];
  try {
    entries = await catalogue(target);
  } catch (error) {
    return {
      title,
      status: 'fail',
      detail: `reading the catalogue (${target.catalogueTable}): ${describeError(error)}`,
      fix: 'Check that the credentials may call dynamodb:Scan on the catalogue table',
    };
  }
  if (entries.length === 0) return { title, status: 'pass', detail: 'the catalogue has no dashboards yet' };

  const scoped: string[] = [];
  const shared: string[] = [];
  const problems: string[] = [];
  for (const entry of entries) {
    if (entry.sharedData) {
      shared.push(entry.dashboardId);
      continue;
    }
    try {
      const { Dashboard } = await quicksight.send(
        new DescribeDashboardCommand({ AwsAccountId: accountId, DashboardId: entry.dashboardId }),
      );
      const dataSetIds = (Dashboard?.Version?.DataSetArns ?? []).map((arn) => arn.split('/').at(-1)!);
      if (dataSetIds.length === 0) {
        problems.push(`${entry.dashboardId}: QuickSight names no dataset behind it`);
        continue;
      }
      const reasons: string[] = [];
      for (const dataSetId of dataSetIds) {
        const { DataSet } = await quicksight.send(
          new DescribeDataSetCommand({ AwsAccountId: accountId, DataSetId: dataSetId }),
        );
        const because = rulesAttachmentProblem(DataSet?.RowLevelPermissionDataSet, rulesArn);
        if (because) reasons.push(`dataset ${dataSetId}: ${because}`);
      }
      if (reasons.length === 0) scoped.push(entry.dashboardId);
      else problems.push(`${entry.dashboardId}: ${reasons.join('; ')}`);
    } catch (error) {
      problems.push(
        `${entry.dashboardId}: ${errorName(error) === 'ResourceNotFoundException' ? 'not found in QuickSight' : describeError(error)}`,
      );
    }
  }
  const sharedNote = shared.length > 0 ? `; confirmed as shared data: ${shared.join(', ')}` : '';
  if (problems.length === 0) return { title, status: 'pass', detail: `${scoped.length} company-scoped${sharedNote}` };
  return {
    title,
    status: 'warn',
    detail: `${problems.length} of ${entries.length} not company-scoped (users of one company only see them, unless an admin confirms shared data)${sharedNote}:\n       - ${problems.join('\n       - ')}`,
    fix: `Attach the rules dataset ${target.rulesDataSetId} to each dataset named (${RLS_GUIDE}), or confirm the dashboard holds shared data in the admin portal`,
  };
}
