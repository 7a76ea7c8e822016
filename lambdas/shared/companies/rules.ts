import { CreateIngestionCommand, ListIngestionsCommand } from '@aws-sdk/client-quicksight';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { MANIFEST_KEY, RULES_COLUMNS, RULES_KEY } from '#contracts/company-rules.ts';
import { isAwsError } from '../aws/config.ts';
import { quicksight } from '../aws/quicksight.ts';
import { s3 } from '../aws/s3.ts';
import { quicksightFailure, quicksightSettings } from '../quicksight.ts';
import { TooManyRequestsError, UpstreamError } from '../errors.ts';
import { ensureRulesDataSet, rulesBucket, rulesDataSetId } from './rules-dataset.ts';

export { rulesDataSetArn } from './rules-dataset.ts';

/**
 * The row-level-security rules: one SPICE dataset whose rows map a company's QuickSight group
 * to the company's name, in the form QuickSight reads as FormatVersion VERSION_2: the columns
 * UserARN, GroupARN and company, spelt as the API reference spells them
 * (RowLevelPermissionDataSet, "When FormatVersion is VERSION_2, UserARN and GroupARN are
 * required"), one rule per company with UserARN empty (QuickSight user guide, "Using row-level
 * security with user-based rules to restrict access to a dataset"). An owner's portfolio is
 * group membership, not extra rules, so the rules change only with companies.
 *
 * The rules are a CSV file in the stack's private bucket, read through an S3 data source
 * with a manifest (QuickSight user guide, "Supported formats for Amazon S3 manifest files");
 * after each change the file is written again and a SPICE ingestion (CreateIngestion) loads
 * it. A change QuickSight refuses to load leaves the file as it was.
 */

const RULES_LOAD_LIMIT_MESSAGE =
  'QuickSight has loaded the company rules 32 times in the last 24 hours, its limit for one dataset: company changes can be made again later';

export interface CompanyRule {
  readonly groupArn: string;
  readonly company: string;
}

/** RFC 4180 quoting: a field with a comma, quote or line break is quoted, quotes doubled. */
const csvField = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/**
 * The rules file: the header `UserARN,GroupARN,company`, then one rule per company (UserARN
 * empty: the rule applies to the group), sorted so that equal rules give equal files.
 */
export const rulesCsv = (rules: readonly CompanyRule[]): string =>
  [
    RULES_COLUMNS.join(','),
    ...[...rules]
      .sort((a, b) => a.groupArn.localeCompare(b.groupArn))
      .map((rule) => `,${csvField(rule.groupArn)},${csvField(rule.company)}`),
  ].join('\n') + '\n';

const manifest = () =>
  JSON.stringify({
    fileLocations: [{ URIs: [`s3://${rulesBucket()}/${RULES_KEY}`] }],
    globalUploadSettings: { format: 'CSV', delimiter: ',', textqualifier: '"', containsHeader: 'true' },
  });

const putObject = async (key: string, body: string, contentType: string) => {
  try {
    await s3.send(new PutObjectCommand({ Bucket: rulesBucket(), Key: key, Body: body, ContentType: contentType }));
  } catch (error) {
    throw new UpstreamError('Failed to write the row-level-security rules', {
      reason: error instanceof Error ? `${error.name}: ${error.message}` : 'Unknown error',
    });
  }
};

/** The rules file as it is in the bucket; undefined when there is none yet. */
export const readRulesFile = async (): Promise<string | undefined> => {
  try {
    const result = await s3.send(new GetObjectCommand({ Bucket: rulesBucket(), Key: RULES_KEY }));
    return (await result.Body?.transformToString('utf-8')) ?? '';
  } catch (error) {
    if (isAwsError(error, 'NoSuchKey', 'NotFound')) return undefined;
    throw new UpstreamError('Failed to read the row-level-security rules', {
      reason: error instanceof Error ? `${error.name}: ${error.message}` : 'Unknown error',
    });
  }
};

const loadRules = async (ingestionId: string): Promise<void> => {
  try {
    await quicksight.send(
      new CreateIngestionCommand({
        AwsAccountId: quicksightSettings().accountId,
        DataSetId: rulesDataSetId(),
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
};

export interface PublishOptions {
  /** Create again a data source QuickSight failed to create or update (the access check's Fix). @default false */
  readonly recreateFailedSource?: boolean;
}

/**
 * Writes the rules and loads them into SPICE: the manifest and the file, the data source
 * (waiting until QuickSight has created it) and dataset when missing, then a full-refresh
 * ingestion. When any step fails (QuickSight's daily load limit among them) the file is put
 * back as it was, or as a file of no rules when there was none, so that a refused change
 * leaves no rule behind. Returns the ingestion id.
 */
export const publishRules = async (rules: readonly CompanyRule[], options: PublishOptions = {}): Promise<string> => {
  const before = await readRulesFile();
  await putObject(MANIFEST_KEY, manifest(), 'application/json');
  await putObject(RULES_KEY, rulesCsv(rules), 'text/csv');
  const ingestionId = `rules-${Date.now()}`;
  try {
    await ensureRulesDataSet({ recreateFailedSource: options.recreateFailedSource ?? false });
    await loadRules(ingestionId);
  } catch (error) {
    await putObject(RULES_KEY, before ?? rulesCsv([]), 'text/csv');
    throw error;
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
        DataSetId: rulesDataSetId(),
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
