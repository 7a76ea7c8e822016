import {
  DescribeDataSetCommand,
  DescribeDataSetPermissionsCommand,
  DescribeDataSourceCommand,
  DescribeDataSourcePermissionsCommand,
  DescribeGroupCommand,
  DescribeUserCommand,
  ListIngestionsCommand,
  type QuickSightClient,
  type ResourcePermission,
} from '@aws-sdk/client-quicksight';
import {
  AUTHOR_DATA_SET_ACTIONS,
  AUTHOR_DATA_SOURCE_ACTIONS,
  dataSourceStatusText,
  isDataSourceFailed,
  isDataSourceReady,
  parseAuthorArn,
} from '#contracts/company-rules.ts';
import { describeError } from './cli.ts';
import type { CheckResult } from './report.ts';

/**
 * What makes the row-level-security rules usable on a real QuickSight account (docs/deploy.md,
 * "Row-level security set-up"): the configured author (quicksightAuthorArn) exists, the rules
 * data source QuickSight created (its Status, and its ErrorInfo when it failed) is visible to
 * that author with the dataset, and there is SPICE capacity for the rules. Read-only calls.
 */

export interface RulesAccessTarget {
  /** Client of the stack's region (data sources, datasets, ingestions). */
  readonly quicksight: QuickSightClient;
  readonly accountId: string;
  readonly rulesDataSourceId: string;
  readonly rulesDataSetId: string;
  readonly authorArn: string | undefined;
}

const AUTHOR_TITLE = 'QuickSight author of the rules';
const errorName = (error: unknown) => (error instanceof Error ? error.name : '');
const CONFIG_FIX =
  'Set -c quicksightAuthorArn=arn:aws:quicksight:<identity region>:<account id>:group/<namespace>/<authors group> (or a user/<namespace>/<user name>): the QuickSight user or group of the authors who attach the rules to datasets (docs/configuration.md)';

/** The configured author exists in QuickSight (DescribeUser or DescribeGroup in the identity region). */
export async function rulesAuthorCheck(
  identity: QuickSightClient,
  accountId: string,
  authorArn: string | undefined,
): Promise<CheckResult> {
  if (authorArn === undefined) {
    return {
      title: AUTHOR_TITLE,
      status: 'fail',
      detail:
        'quicksightAuthorArn is not set: the rules data source and dataset would be visible to no QuickSight author, and the console would offer no rules dataset to attach',
      fix: CONFIG_FIX,
    };
  }
  const author = parseAuthorArn(authorArn);
  if (!author)
    return {
      title: AUTHOR_TITLE,
      status: 'fail',
      detail: `${authorArn} is no QuickSight user or group ARN`,
      fix: CONFIG_FIX,
    };
  const scope = { AwsAccountId: accountId, Namespace: author.namespace };
  try {
    if (author.kind === 'group') {
      await identity.send(new DescribeGroupCommand({ ...scope, GroupName: author.name }));
      return { title: AUTHOR_TITLE, status: 'pass', detail: `group ${author.name} of namespace ${author.namespace}` };
    }
    const { User } = await identity.send(new DescribeUserCommand({ ...scope, UserName: author.name }));
    const role = User?.Role ?? 'unknown role';
    if (role === 'READER' || role === 'RESTRICTED_READER' || role === 'READER_PRO') {
      return {
        title: AUTHOR_TITLE,
        status: 'warn',
        detail: `user ${author.name} is a ${role}: readers cannot attach rules to datasets`,
        fix: 'Name an AUTHOR or ADMIN user, or a group of authors, in quicksightAuthorArn',
      };
    }
    return {
      title: AUTHOR_TITLE,
      status: 'pass',
      detail: `user ${author.name} (${role}) of namespace ${author.namespace}`,
    };
  } catch (error) {
    if (errorName(error) === 'ResourceNotFoundException') {
      return {
        title: AUTHOR_TITLE,
        status: 'fail',
        detail: `QuickSight has no ${author.kind} ${author.name} in namespace ${author.namespace} (${authorArn})`,
        fix:
          author.kind === 'group'
            ? `Create it and add the authors: aws quicksight create-group --aws-account-id ${accountId} --namespace ${author.namespace} --group-name ${author.name}, then create-group-membership; or correct quicksightAuthorArn`
            : 'Correct quicksightAuthorArn to an existing author (QuickSight console > Manage QuickSight > Manage users)',
      };
    }
    return {
      title: AUTHOR_TITLE,
      status: 'fail',
      detail: `Describe${author.kind === 'group' ? 'Group' : 'User'} ${author.name}: ${describeError(error)}`,
      fix: `Check that the credentials may call quicksight:Describe${author.kind === 'group' ? 'Group' : 'User'} in the identity region`,
    };
  }
}

/** The author actions a permission list lacks. */
const lacking = (permissions: readonly ResourcePermission[], principal: string, wanted: readonly string[]) => {
  const held = new Set(permissions.filter((p) => p.Principal === principal).flatMap((p) => p.Actions ?? []));
  return wanted.filter((action) => !held.has(action));
};

/** The rules data source: created (Status), or failed with QuickSight's ErrorInfo, and visible to the author. */
export async function rulesDataSourceCheck(target: RulesAccessTarget): Promise<CheckResult> {
  const title = 'Row-level-security rules data source';
  const { quicksight, accountId, rulesDataSourceId: id } = target;
  try {
    let source;
    try {
      ({ DataSource: source } = await quicksight.send(
        new DescribeDataSourceCommand({ AwsAccountId: accountId, DataSourceId: id }),
      ));
    } catch (error) {
      if (errorName(error) !== 'ResourceNotFoundException') throw error;
      return {
        title,
        status: 'warn',
        detail: `${id} does not exist yet: the portal creates it on the first company change`,
        fix: 'Add the companies in the admin portal (Companies), or run the company-access check there with "Fix"',
      };
    }
    const state = dataSourceStatusText(source ?? {});
    if (isDataSourceFailed(source ?? {})) {
      return {
        title,
        status: 'fail',
        detail: `${id} is ${state}: every company change is refused until it is created again`,
        fix: 'Fix the cause QuickSight names (the read role, output CompanyRulesBucketName), then run the company-access check in the admin portal (Companies) with "Fix": it deletes the data source and creates it again',
      };
    }
    if (!isDataSourceReady(source ?? {}))
      return { title, status: 'warn', detail: `${id} is ${state}`, fix: 'Run the doctor again in a minute' };
    const author = target.authorArn;
    if (author === undefined) return { title, status: 'pass', detail: `${id} is ${state}` };
    const sourcePermissions = await quicksight.send(
      new DescribeDataSourcePermissionsCommand({ AwsAccountId: accountId, DataSourceId: id }),
    );
    const missing = lacking(sourcePermissions.Permissions ?? [], author, AUTHOR_DATA_SOURCE_ACTIONS);
    try {
      const dataSetPermissions = await quicksight.send(
        new DescribeDataSetPermissionsCommand({ AwsAccountId: accountId, DataSetId: target.rulesDataSetId }),
      );
      missing.push(...lacking(dataSetPermissions.Permissions ?? [], author, AUTHOR_DATA_SET_ACTIONS));
    } catch (error) {
      if (errorName(error) !== 'ResourceNotFoundException') throw error;
    }
    if (missing.length > 0) {
      return {
        title,
        status: 'warn',
        detail: `${id} is ${state}, but ${author} lacks ${missing.join(', ')} on the rules data source or dataset: the console does not offer the rules to that author`,
        fix: 'The next company change grants them (the admin portal, Companies); deploy first if quicksightAuthorArn was set since',
      };
    }
    return { title, status: 'pass', detail: `${id} is ${state}; the rules are visible to ${author}` };
  } catch (error) {
    return {
      title,
      status: 'fail',
      detail: `${id}: ${describeError(error)}`,
      fix: 'Check that the credentials may call quicksight:DescribeDataSource and the Describe*Permissions calls',
    };
  }
}

const SPICE_TITLE = 'SPICE capacity';
const SPICE_FIX =
  'QuickSight console > Manage QuickSight > SPICE capacity: keep free capacity for the rules dataset and every SPICE dataset behind the catalogue, or buy it automatically: aws quicksight update-spice-capacity-configuration --aws-account-id <account id> --purchase-mode AUTO_PURCHASE';

/**
 * SPICE capacity: the rules dataset is SPICE-only (RLS_RULES). No QuickSight API reports an
 * account's free capacity (UpdateSPICECapacityConfiguration only sets the purchase mode), so
 * this is a manual check, except where QuickSight tells: a rules load that failed with
 * ACCOUNT_CAPACITY_LIMIT_EXCEEDED (IngestionErrorType), and the bytes the rules dataset uses
 * (DescribeDataSet's ConsumedSpiceCapacityInBytes).
 */
export async function spiceCapacityCheck(target: RulesAccessTarget): Promise<CheckResult> {
  const { quicksight, accountId, rulesDataSetId } = target;
  try {
    const { DataSet } = await quicksight.send(
      new DescribeDataSetCommand({ AwsAccountId: accountId, DataSetId: rulesDataSetId }),
    );
    const { Ingestions = [] } = await quicksight.send(
      new ListIngestionsCommand({ AwsAccountId: accountId, DataSetId: rulesDataSetId, MaxResults: 10 }),
    );
    const exceeded = Ingestions.find((ingestion) => ingestion.ErrorInfo?.Type === 'ACCOUNT_CAPACITY_LIMIT_EXCEEDED');
    if (exceeded) {
      return {
        title: SPICE_TITLE,
        status: 'fail',
        detail:
          `loading the rules (ingestion ${exceeded.IngestionId}) failed: ACCOUNT_CAPACITY_LIMIT_EXCEEDED ${exceeded.ErrorInfo?.Message ?? ''}`.trimEnd(),
        fix: SPICE_FIX,
      };
    }
    return {
      title: SPICE_TITLE,
      status: 'warn',
      detail: `the rules dataset uses ${DataSet?.ConsumedSpiceCapacityInBytes ?? 0} bytes of SPICE and no load of it ran out of capacity; no QuickSight API reports the account's free SPICE capacity: check it by hand`,
      fix: SPICE_FIX,
    };
  } catch (error) {
    if (errorName(error) !== 'ResourceNotFoundException') {
      return {
        title: SPICE_TITLE,
        status: 'fail',
        detail: `${rulesDataSetId}: ${describeError(error)}`,
        fix: 'Check that the credentials may call quicksight:DescribeDataSet and quicksight:ListIngestions',
      };
    }
    return {
      title: SPICE_TITLE,
      status: 'warn',
      detail:
        "the rules dataset, which lives in SPICE, is created on the first company change; no QuickSight API reports the account's free SPICE capacity: check it by hand",
      fix: SPICE_FIX,
    };
  }
}
