import {
  CreateDataSetCommand,
  CreateDataSourceCommand,
  DeleteDataSourceCommand,
  DescribeDataSetCommand,
  DescribeDataSetPermissionsCommand,
  DescribeDataSourceCommand,
  DescribeDataSourcePermissionsCommand,
  UpdateDataSetPermissionsCommand,
  UpdateDataSourcePermissionsCommand,
  type DataSource,
  type ResourcePermission,
} from '@aws-sdk/client-quicksight';
import {
  AUTHOR_DATA_SET_ACTIONS,
  AUTHOR_DATA_SOURCE_ACTIONS,
  MANIFEST_KEY,
  RULES_COLUMNS,
  dataSourceStatusText,
  isDataSourceFailed,
  isDataSourceReady,
} from '#contracts/company-rules.ts';
import { ENV } from '#contracts/env.ts';
import { isAwsError } from '../aws/config.ts';
import { quicksight } from '../aws/quicksight.ts';
import { optionalEnv, region, requireEnv } from '../env.ts';
import { UpstreamError } from '../errors.ts';
import { quicksightFailure, quicksightSettings } from '../quicksight.ts';

/**
 * The S3 data source and the SPICE dataset QuickSight reads the rules through, created on first
 * use. A data source is created asynchronously: CreateDataSource answers CREATION_IN_PROGRESS
 * (API reference, https://docs.aws.amazon.com/quicksight/latest/APIReference/API_CreateDataSource.html)
 * and the source may be used only once DescribeDataSource reports CREATION_SUCCESSFUL or
 * UPDATE_SUCCESSFUL (DataSource.Status; its ErrorInfo says why it failed). Both are created
 * with Permissions for the configured author, and an author missing from existing ones is
 * granted on the next change, so the rules dataset is there to choose in the console.
 */

const PHYSICAL_TABLE_ID = 'company-rules';
const NAME = 'Portal company rules';

/** Delays between DescribeDataSource calls while a data source is being created: about 16 s in all. */
export const DATA_SOURCE_WAIT_MS: readonly number[] = [200, 400, 800, 1600, 3200, 3200, 3200, 3200];

export const rulesBucket = () => requireEnv(ENV.companyRulesBucket);
export const rulesDataSetId = () => requireEnv(ENV.companyRulesDataSetId);
export const rulesDataSourceId = () => requireEnv(ENV.companyRulesDataSourceId);
const authorArn = () => optionalEnv(ENV.companyRulesAuthorArn);
const account = () => quicksightSettings().accountId;

export const rulesDataSetArn = (): string => `arn:aws:quicksight:${region()}:${account()}:dataset/${rulesDataSetId()}`;
const rulesDataSourceArn = (): string =>
  `arn:aws:quicksight:${region()}:${account()}:datasource/${rulesDataSourceId()}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The rules data source as QuickSight describes it; undefined when there is none. */
export const describeRulesDataSource = async (): Promise<DataSource | undefined> => {
  try {
    const result = await quicksight.send(
      new DescribeDataSourceCommand({ AwsAccountId: account(), DataSourceId: rulesDataSourceId() }),
    );
    return result.DataSource ?? {};
  } catch (error) {
    if (isAwsError(error, 'ResourceNotFoundException')) return undefined;
    throw quicksightFailure('Failed to look up the rules data source in QuickSight', error);
  }
};

/** The admin's answer for a data source QuickSight could not create or update: its status and ErrorInfo. */
export const dataSourceFailedError = (source: DataSource) =>
  new UpstreamError('The row-level-security rules data source failed in QuickSight', {
    reason: `Data source ${rulesDataSourceId()} is ${dataSourceStatusText(source)}`,
    suggestion:
      'Nothing was changed. Fix the cause QuickSight names (the role it reads the rules with, the rules bucket), then run the company-access check with "Fix": it creates the data source again.',
  });

/** Waits, with growing delays, until the data source is ready; throws when it failed or took too long. */
const waitUntilReady = async (initial: DataSource | undefined): Promise<void> => {
  let source = initial;
  for (const delay of [0, ...DATA_SOURCE_WAIT_MS]) {
    if (delay > 0) {
      await sleep(delay);
      source = await describeRulesDataSource();
    }
    if (source === undefined)
      throw new UpstreamError('The rules data source disappeared from QuickSight while it was created');
    if (isDataSourceReady(source)) return;
    if (isDataSourceFailed(source)) throw dataSourceFailedError(source);
  }
  throw new UpstreamError('QuickSight did not finish creating the rules data source in time', {
    reason: `Data source ${rulesDataSourceId()} is still ${dataSourceStatusText(source ?? {})}`,
    suggestion: 'Nothing was changed. Try again in a minute.',
  });
};

const authorPermissions = (actions: readonly string[]): ResourcePermission[] | undefined => {
  const principal = authorArn();
  return principal === undefined ? undefined : [{ Principal: principal, Actions: [...actions] }];
};

const createDataSource = async (): Promise<void> => {
  const permissions = authorPermissions(AUTHOR_DATA_SOURCE_ACTIONS);
  try {
    await quicksight.send(
      new CreateDataSourceCommand({
        AwsAccountId: account(),
        DataSourceId: rulesDataSourceId(),
        Name: NAME,
        Type: 'S3',
        DataSourceParameters: {
          S3Parameters: {
            ManifestFileLocation: { Bucket: rulesBucket(), Key: MANIFEST_KEY },
            RoleArn: requireEnv(ENV.companyRulesRoleArn),
          },
        },
        ...(permissions && { Permissions: permissions }),
      }),
    );
  } catch (error) {
    // Another change created it meanwhile: wait for that one.
    if (!isAwsError(error, 'ResourceExistsException'))
      throw quicksightFailure('Failed to create the rules data source in QuickSight', error);
  }
};

const deleteDataSource = async (): Promise<void> => {
  try {
    await quicksight.send(new DeleteDataSourceCommand({ AwsAccountId: account(), DataSourceId: rulesDataSourceId() }));
  } catch (error) {
    if (!isAwsError(error, 'ResourceNotFoundException'))
      throw quicksightFailure('Failed to delete the failed rules data source in QuickSight', error);
  }
};

/** Whether the rules dataset exists. */
const rulesDataSetExists = async (): Promise<boolean> => {
  try {
    await quicksight.send(new DescribeDataSetCommand({ AwsAccountId: account(), DataSetId: rulesDataSetId() }));
    return true;
  } catch (error) {
    if (isAwsError(error, 'ResourceNotFoundException')) return false;
    throw quicksightFailure('Failed to look up the rules dataset in QuickSight', error);
  }
};

const createDataSet = async (): Promise<void> => {
  const permissions = authorPermissions(AUTHOR_DATA_SET_ACTIONS);
  try {
    await quicksight.send(
      new CreateDataSetCommand({
        AwsAccountId: account(),
        DataSetId: rulesDataSetId(),
        Name: NAME,
        ImportMode: 'SPICE',
        UseAs: 'RLS_RULES',
        PhysicalTableMap: {
          [PHYSICAL_TABLE_ID]: {
            S3Source: {
              DataSourceArn: rulesDataSourceArn(),
              UploadSettings: { Format: 'CSV', ContainsHeader: true, Delimiter: ',', TextQualifier: 'DOUBLE_QUOTE' },
              InputColumns: RULES_COLUMNS.map((Name) => ({ Name, Type: 'STRING' as const })),
            },
          },
        },
        ...(permissions && { Permissions: permissions }),
      }),
    );
  } catch (error) {
    if (!isAwsError(error, 'ResourceExistsException'))
      throw quicksightFailure('Failed to create the rules dataset in QuickSight', error);
  }
};

/** The author actions a permission list lacks. */
const missingActions = (permissions: readonly ResourcePermission[], principal: string, wanted: readonly string[]) => {
  const held = new Set(permissions.filter((p) => p.Principal === principal).flatMap((p) => p.Actions ?? []));
  return wanted.filter((action) => !held.has(action));
};

/** Grants the configured author what it lacks on the existing data source and dataset. */
const grantAuthor = async (): Promise<void> => {
  const principal = authorArn();
  if (principal === undefined) return;
  const AwsAccountId = account();
  try {
    const source = await quicksight.send(
      new DescribeDataSourcePermissionsCommand({ AwsAccountId, DataSourceId: rulesDataSourceId() }),
    );
    const sourceMissing = missingActions(source.Permissions ?? [], principal, AUTHOR_DATA_SOURCE_ACTIONS);
    if (sourceMissing.length > 0) {
      await quicksight.send(
        new UpdateDataSourcePermissionsCommand({
          AwsAccountId,
          DataSourceId: rulesDataSourceId(),
          GrantPermissions: [{ Principal: principal, Actions: sourceMissing }],
        }),
      );
    }
    const dataSet = await quicksight.send(
      new DescribeDataSetPermissionsCommand({ AwsAccountId, DataSetId: rulesDataSetId() }),
    );
    const dataSetMissing = missingActions(dataSet.Permissions ?? [], principal, AUTHOR_DATA_SET_ACTIONS);
    if (dataSetMissing.length > 0) {
      await quicksight.send(
        new UpdateDataSetPermissionsCommand({
          AwsAccountId,
          DataSetId: rulesDataSetId(),
          GrantPermissions: [{ Principal: principal, Actions: dataSetMissing }],
        }),
      );
    }
  } catch (error) {
    throw quicksightFailure(`Failed to grant ${principal} the rules data source and dataset in QuickSight`, error);
  }
};

export interface EnsureOptions {
  /** Delete a data source QuickSight failed to create or update and create it again (the check's Fix). */
  readonly recreateFailedSource: boolean;
}

/**
 * The data source, ready, and the rules dataset over it, both visible to the configured author.
 * A failed data source is an error naming QuickSight's ErrorInfo, or, with
 * `recreateFailedSource`, deleted and created again.
 */
export const ensureRulesDataSet = async (options: EnsureOptions): Promise<void> => {
  let source = await describeRulesDataSource();
  if (source !== undefined && isDataSourceFailed(source)) {
    if (!options.recreateFailedSource) throw dataSourceFailedError(source);
    await deleteDataSource();
    source = undefined;
  }
  const created = source === undefined;
  if (created) {
    await createDataSource();
    source = await describeRulesDataSource();
  }
  await waitUntilReady(source);
  const dataSetCreated = !(await rulesDataSetExists());
  if (dataSetCreated) await createDataSet();
  // What was just created carries the author's permissions already.
  if (!created || !dataSetCreated) await grantAuthor();
};
