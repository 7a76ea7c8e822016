import {
  CreateDataSetCommand,
  CreateDataSourceCommand,
  CreateIngestionCommand,
  DescribeDataSetCommand,
  DescribeDataSourceCommand,
  ListIngestionsCommand,
} from '@aws-sdk/client-quicksight';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { COMPANY_COLUMN } from '#contracts/companies.ts';
import { ENV } from '#contracts/env.ts';
import { isAwsError } from '../aws/config.ts';
import { quicksight } from '../aws/quicksight.ts';
import { s3 } from '../aws/s3.ts';
import { region, requireEnv } from '../env.ts';
import { quicksightFailure, quicksightSettings } from '../quicksight.ts';
import { TooManyRequestsError, UpstreamError } from '../errors.ts';

/**
 * The row-level-security rules: one SPICE dataset whose rows map a company's QuickSight group
 * to the company's name (`GroupArn`, `company`), in the format QuickSight calls VERSION_2
 * (QuickSight user guide, "Using row-level security with user-based rules"). An owner's
 * portfolio is group membership, not extra rules, so the rules change only with companies.
 *
 * The rules are a CSV file in the stack's private bucket, read through an S3 data source
 * with a manifest (QuickSight user guide, "Supported formats for Amazon S3 manifest files");
 * after each change the file is written again and a SPICE ingestion (CreateIngestion)
 * loads it. The data source and the dataset are created on first use, so a deployment works
 * before anyone opens QuickSight's console.
 */

export const RULES_PREFIX = 'company-rules/';
export const RULES_LOAD_LIMIT_MESSAGE =
  'QuickSight has loaded the company rules 32 times in the last 24 hours, its limit for one dataset: company changes can be made again later';
export const RULES_KEY = `${RULES_PREFIX}rules.csv`;
export const MANIFEST_KEY = `${RULES_PREFIX}manifest.json`;
const PHYSICAL_TABLE_ID = 'company-rules';

export interface CompanyRule {
  readonly groupArn: string;
  readonly company: string;
}

const bucket = () => requireEnv(ENV.companyRulesBucket);
const dataSetId = () => requireEnv(ENV.companyRulesDataSetId);
const dataSourceId = () => requireEnv(ENV.companyRulesDataSourceId);

export const rulesDataSetArn = (): string =>
  `arn:aws:quicksight:${region()}:${quicksightSettings().accountId}:dataset/${dataSetId()}`;

const dataSourceArn = (): string =>
  `arn:aws:quicksight:${region()}:${quicksightSettings().accountId}:datasource/${dataSourceId()}`;

/** RFC 4180 quoting: a field with a comma, quote or line break is quoted, quotes doubled. */
const csvField = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** The rules file: a header, then one rule per company, sorted so that equal rules give equal files. */
export const rulesCsv = (rules: readonly CompanyRule[]): string =>
  [
    `GroupArn,${COMPANY_COLUMN}`,
    ...[...rules]
      .sort((a, b) => a.groupArn.localeCompare(b.groupArn))
      .map((rule) => `${csvField(rule.groupArn)},${csvField(rule.company)}`),
  ].join('\n') + '\n';

const manifest = () =>
  JSON.stringify({
    fileLocations: [{ URIs: [`s3://${bucket()}/${RULES_KEY}`] }],
    globalUploadSettings: { format: 'CSV', delimiter: ',', textqualifier: '"', containsHeader: 'true' },
  });

const putObject = async (key: string, body: string, contentType: string) => {
  try {
    await s3.send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: body, ContentType: contentType }));
  } catch (error) {
    throw new UpstreamError('Failed to write the row-level-security rules', {
      reason: error instanceof Error ? `${error.name}: ${error.message}` : 'Unknown error',
    });
  }
};

/** The rules file as it is in the bucket; undefined when there is none yet. */
export const readRulesFile = async (): Promise<string | undefined> => {
  try {
    const result = await s3.send(new GetObjectCommand({ Bucket: bucket(), Key: RULES_KEY }));
    return (await result.Body?.transformToString('utf-8')) ?? '';
  } catch (error) {
    if (isAwsError(error, 'NoSuchKey', 'NotFound')) return undefined;
    throw new UpstreamError('Failed to read the row-level-security rules', {
      reason: error instanceof Error ? `${error.name}: ${error.message}` : 'Unknown error',
    });
  }
};

const exists = async (describe: () => Promise<unknown>, step: string): Promise<boolean> => {
  try {
    await describe();
    return true;
  } catch (error) {
    if (isAwsError(error, 'ResourceNotFoundException')) return false;
    throw quicksightFailure(step, error);
  }
};

const createIgnoringExisting = async (create: () => Promise<unknown>, step: string): Promise<void> => {
  try {
    await create();
  } catch (error) {
    if (!isAwsError(error, 'ResourceExistsException')) throw quicksightFailure(step, error);
  }
};

/** Creates the S3 data source and the rules dataset when they are missing. */
const ensureRulesDataSet = async (): Promise<void> => {
  const account = quicksightSettings().accountId;
  const dataSetPresent = await exists(
    () => quicksight.send(new DescribeDataSetCommand({ AwsAccountId: account, DataSetId: dataSetId() })),
    'Failed to look up the rules dataset in QuickSight',
  );
  if (dataSetPresent) return;
  const dataSourcePresent = await exists(
    () => quicksight.send(new DescribeDataSourceCommand({ AwsAccountId: account, DataSourceId: dataSourceId() })),
    'Failed to look up the rules data source in QuickSight',
  );
  if (!dataSourcePresent) {
    await createIgnoringExisting(
      () =>
        quicksight.send(
          new CreateDataSourceCommand({
            AwsAccountId: account,
            DataSourceId: dataSourceId(),
            Name: 'Portal company rules',
            Type: 'S3',
            DataSourceParameters: {
              S3Parameters: {
                ManifestFileLocation: { Bucket: bucket(), Key: MANIFEST_KEY },
                RoleArn: requireEnv(ENV.companyRulesRoleArn),
              },
            },
          }),
        ),
      'Failed to create the rules data source in QuickSight',
    );
  }
  await createIgnoringExisting(
    () =>
      quicksight.send(
        new CreateDataSetCommand({
          AwsAccountId: account,
          DataSetId: dataSetId(),
          Name: 'Portal company rules',
          ImportMode: 'SPICE',
          UseAs: 'RLS_RULES',
          PhysicalTableMap: {
            [PHYSICAL_TABLE_ID]: {
              S3Source: {
                DataSourceArn: dataSourceArn(),
                UploadSettings: { Format: 'CSV', ContainsHeader: true, Delimiter: ',', TextQualifier: 'DOUBLE_QUOTE' },
                InputColumns: [
                  { Name: 'GroupArn', Type: 'STRING' },
                  { Name: COMPANY_COLUMN, Type: 'STRING' },
                ],
              },
            },
          },
        }),
      ),
    'Failed to create the rules dataset in QuickSight',
  );
};

/**
 * Writes the rules and loads them into SPICE: the manifest, the file, the data source and
 * dataset when missing, then a full-refresh ingestion. Returns the ingestion id.
 */
export const publishRules = async (rules: readonly CompanyRule[]): Promise<string> => {
  await putObject(MANIFEST_KEY, manifest(), 'application/json');
  await putObject(RULES_KEY, rulesCsv(rules), 'text/csv');
  await ensureRulesDataSet();
  const ingestionId = `rules-${Date.now()}`;
  try {
    await quicksight.send(
      new CreateIngestionCommand({
        AwsAccountId: quicksightSettings().accountId,
        DataSetId: dataSetId(),
        IngestionId: ingestionId,
        IngestionType: 'FULL_REFRESH',
      }),
    );
  } catch (error) {
    // SPICE refreshes a dataset at most 32 times in 24 hours (QuickSight user guide, "Refreshing SPICE data").
    if (isAwsError(error, 'LimitExceededException')) {
      throw new TooManyRequestsError(RULES_LOAD_LIMIT_MESSAGE, {
        reason: error instanceof Error ? error.message : 'LimitExceededException',
        suggestion: 'Nothing was changed. Try again after the oldest of the last 32 loads is 24 hours old.',
      });
    }
    throw quicksightFailure('Failed to load the row-level-security rules in QuickSight', error);
  }
  return ingestionId;
};

export type RulesLoad =
  | { readonly state: 'missing' }
  | { readonly state: 'loaded' | 'loading' | 'failed'; readonly ingestionId: string; readonly detail: string };

const LOADING = new Set(['INITIALIZED', 'QUEUED', 'RUNNING']);

/** Whether the rules dataset exists and what its newest ingestion did. */
export const rulesLoadState = async (): Promise<RulesLoad> => {
  try {
    const page = await quicksight.send(
      new ListIngestionsCommand({
        AwsAccountId: quicksightSettings().accountId,
        DataSetId: dataSetId(),
        MaxResults: 10,
      }),
    );
    const newest = [...(page.Ingestions ?? [])].sort(
      (a, b) => (b.CreatedTime?.getTime() ?? 0) - (a.CreatedTime?.getTime() ?? 0),
    )[0];
    if (newest === undefined) return { state: 'failed', ingestionId: '', detail: 'no ingestion has run' };
    const status = newest.IngestionStatus ?? 'UNKNOWN';
    const ingestionId = newest.IngestionId ?? '';
    if (status === 'COMPLETED') return { state: 'loaded', ingestionId, detail: `ingestion ${ingestionId} completed` };
    if (LOADING.has(status))
      return { state: 'loading', ingestionId, detail: `ingestion ${ingestionId} ${status.toLowerCase()}` };
    const reason = newest.ErrorInfo?.Message ? `: ${newest.ErrorInfo.Message}` : '';
    return { state: 'failed', ingestionId, detail: `ingestion ${ingestionId} ${status.toLowerCase()}${reason}` };
  } catch (error) {
    if (isAwsError(error, 'ResourceNotFoundException')) return { state: 'missing' };
    throw quicksightFailure('Failed to read the rules ingestions in QuickSight', error);
  }
};
