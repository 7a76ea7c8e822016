import { Aws, Duration } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { EMBED_REQUEST_HEADERS } from '#contracts/embed.ts';
import { ENV } from '#contracts/env.ts';
import { VIEWS_BY_USER_INDEX } from '#contracts/tables.ts';
import { FUNCTION_URL_METHODS, type FunctionUrlName } from '#contracts/function-urls.ts';
import type { PortalAuth } from './auth.ts';
import { acknowledge, wildcardResourceFinding } from './compliance.ts';
import type { PortalData } from './data.ts';
import { CATALOGUE_ACTIONS, PortalFunction, STATE_ITEM_ACTIONS, USAGE_RECORD_ACTIONS } from './portal-function.ts';
import {
  dashboardFeaturesVariable,
  deploymentDashboardFeatures,
  type DashboardFeature,
} from '#contracts/dashboard-features.ts';
import { quickSightArns, quickSightEnvironment, type QuickSightTarget } from './quicksight.ts';

export interface ApiFunctionsProps {
  readonly auth: PortalAuth;
  readonly data: PortalData;
  readonly quicksight: QuickSightTarget;
  /** Origins of the site: the only origins CORS admits, and the embed AllowedDomains. */
  readonly allowedOrigins: readonly string[];
  readonly embedSessionMinutes: number;
  /**
   * Features of embedded dashboards (RegisteredUserDashboardFeatureConfigurations members), exactly
   * these; an empty list turns every feature off.
   * @default StatePersistence and Bookmarks
   */
  readonly embedDashboardFeatures?: readonly DashboardFeature[];
  /** Days dashboard view events and their aggregates are kept (DynamoDB TTL). */
  readonly usageRetentionDays: number;
  /** Tokens of a sign-in older than this are refused by every function. */
  readonly absoluteSessionMinutes: number;
  readonly supportFromAddress: string;
  readonly supportToAddress: string;
  /** The SES identity the contact function sends through (the address or its domain). */
  readonly sesIdentity: string;
  readonly logRetention: logs.RetentionDays;
  readonly retainLogs: boolean;
}

/**
 * Cognito actions used with the caller's token need no IAM; these are the admin ones.
 * AdminListGroupsForUser confirms an admin caller's group live on each request.
 */
const USER_DIRECTORY_READ = [
  'cognito-idp:ListUsers',
  'cognito-idp:ListUsersInGroup',
  'cognito-idp:AdminGetUser',
  'cognito-idp:AdminListGroupsForUser',
];

const PUBLIC_URL_FINDING = 'NIST.800.53.R5-LambdaFunctionPublicAccessProhibited';
const PUBLIC_URL_REASON =
  'This permission lets anyone reach the function URL (auth type NONE), which is the design: the browser calls it with a Cognito access token, and the handler rejects every request whose token is not a valid, unexpired access token of this pool and app client, whose session Cognito no longer accepts, or whose groups do not allow the operation. The permission is limited to invocation through the function URL.';
export const QUICKSIGHT_USERS_REASON =
  'QuickSight users are created at run time, one per portal account and named by its email, so they cannot be listed in advance. The pattern is confined to one account, one identity region and the configured namespace; which user a request acts on is derived from the verified token or restricted to administrators in the handler.';
/** The ARN of an SES identity (an address or a domain; `*` for every identity) in this stack's account and region. */
export const sesIdentityArn = (identity: string): string =>
  `arn:${Aws.PARTITION}:ses:${Aws.REGION}:${Aws.ACCOUNT_ID}:identity/${identity}`;

export const QUICKSIGHT_DASHBOARDS_REASON =
  'Dashboards are registered in the catalogue by administrators at run time, so their ids are not known at deployment. The pattern is confined to one account and region; the embed handler only embeds dashboards assigned to the caller, and permission changes are restricted to administrators.';

function allowUserPool(fn: PortalFunction, auth: PortalAuth, actions: readonly string[]): void {
  fn.allow(new iam.PolicyStatement({ sid: 'UserPool', actions: [...actions], resources: [auth.userPool.userPoolArn] }));
}

/**
 * What every function that verifies a caller needs for a token from a refresh, which Cognito's
 * GetUser does not accept: AdminGetUser of the caller and a read of the State table's record of
 * ended sessions (lambdas/shared/auth/caller.ts).
 */
function allowLivenessCheck(fn: PortalFunction, auth: PortalAuth, data: PortalData): void {
  fn.allow(
    new iam.PolicyStatement({
      sid: 'CallerAccount',
      actions: ['cognito-idp:AdminGetUser'],
      resources: [auth.userPool.userPoolArn],
    }),
  );
  const state = data.table('State');
  fn.addEnvironment(state.definition.envVar, state.table.tableName);
  fn.allow(
    new iam.PolicyStatement({
      sid: 'EndedSessionsRecord',
      actions: ['dynamodb:GetItem'],
      resources: [state.table.tableArn],
    }),
  );
}

/** Names of the function URLs (also the keys of `functions` in the SPA's config.json). */
export type ApiFunctionName = FunctionUrlName;

/**
 * The five HTTP functions, each behind its own function URL with auth type NONE: the
 * handler verifies the bearer access token itself (right pool, right client, groups from
 * the verified token). CORS admits only the site's origins and the one method each uses.
 * Each function may call exactly the AWS actions its handler calls, on the resources it
 * touches.
 */
export class ApiFunctions extends Construct {
  readonly functions: Readonly<Record<ApiFunctionName, PortalFunction>>;
  readonly urls: Readonly<Record<ApiFunctionName, lambda.FunctionUrl>>;

  constructor(scope: Construct, id: string, props: ApiFunctionsProps) {
    super(scope, id);
    const { auth, data } = props;
    const qs = quickSightArns(props.quicksight);
    const common = { logRetention: props.logRetention, retainLogs: props.retainLogs };
    const quicksightSettings = quickSightEnvironment(props.quicksight);

    const embed = new PortalFunction(this, 'Embed', {
      ...common,
      name: 'embed',
      description: 'Returns a QuickSight embed URL for a dashboard assigned to the caller',
      memorySize: 512,
      timeout: Duration.seconds(15),
      environment: {
        ...quicksightSettings,
        [ENV.embedSessionMinutes]: String(props.embedSessionMinutes),
        [ENV.embedDashboardFeatures]: dashboardFeaturesVariable(
          deploymentDashboardFeatures(props.embedDashboardFeatures),
        ),
        [ENV.usageRetentionDays]: String(props.usageRetentionDays),
      },
    });
    // The caller's view of the dashboard, read through the user index (lambdas/shared/data/views.ts viewOfDashboard).
    embed.bindTable(data.table('Views'), ['dynamodb:Query'], { indexes: [VIEWS_BY_USER_INDEX] });
    // The caller's company membership: usage records take the company from it, never from input.
    embed.bindTable(data.table('State'), ['dynamodb:GetItem']);
    // Each issued URL: the view event (PutItem) and its aggregates (ADD updates).
    embed.bindTable(data.table('Usage'), USAGE_RECORD_ACTIONS);
    // Authorized on the user the URL is for, the only resource type the action takes (Service
    // Authorization Reference, Amazon QuickSight); which dashboards that user may open is
    // QuickSight's dashboard permissions, checked against the user.
    embed.allow(
      new iam.PolicyStatement({
        sid: 'EmbedForRegisteredUser',
        actions: ['quicksight:GenerateEmbedUrlForRegisteredUser'],
        resources: [qs.usersInNamespace],
      }),
    );
    embed.allow(
      new iam.PolicyStatement({
        sid: 'ReadQuickSightUser',
        actions: ['quicksight:DescribeUser'],
        resources: [qs.usersInNamespace],
      }),
    );

    // The admin functions page through every user (10,000 and more) in one request.
    const administration = {
      ...common,
      memorySize: 1024,
      timeout: Duration.seconds(60),
      environment: quicksightSettings,
    };

    const quicksightAdmin = new PortalFunction(this, 'QuickSightAdmin', {
      ...administration,
      name: 'quicksight-admin',
      description: 'Administers QuickSight users and dashboard permissions (Admins only)',
    });
    quicksightAdmin.bindTable(data.table('Views'), [
      'dynamodb:Query',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
    ]);
    quicksightAdmin.bindTable(data.table('Dashboards'), CATALOGUE_ACTIONS);
    // Besides the single-item claims and pointers: the companies, memberships and the directory
    // copy, read by partition; the copy's entries changed one by one and written in batches; the
    // memberships of a page of Insights users read in batches.
    quicksightAdmin.bindTable(data.table('State'), [
      ...STATE_ITEM_ACTIONS,
      'dynamodb:Query',
      'dynamodb:UpdateItem',
      'dynamodb:BatchWriteItem',
      'dynamodb:BatchGetItem',
    ]);
    quicksightAdmin.bindTable(data.table('Audit'), ['dynamodb:PutItem']);
    // GET_INSIGHTS reads the usage aggregates, never the events.
    quicksightAdmin.bindTable(data.table('Usage'), ['dynamodb:Query']);
    quicksightAdmin.addEnvironment(ENV.usageRetentionDays, String(props.usageRetentionDays));
    allowUserPool(quicksightAdmin, auth, [
      ...USER_DIRECTORY_READ,
      // Bulk import (IMPORT_USER): the invited account, its groups (Users, and Admins for an
      // Admins row), and its removal again when a later step of the row fails.
      'cognito-idp:AdminCreateUser',
      'cognito-idp:AdminAddUserToGroup',
      'cognito-idp:AdminDeleteUser',
    ]);
    quicksightAdmin.allow(
      new iam.PolicyStatement({
        sid: 'ManageQuickSightUsers',
        actions: [
          'quicksight:RegisterUser',
          'quicksight:DescribeUser',
          'quicksight:ListUsers',
          'quicksight:DeleteUser',
          // A company change works out its removals from the groups the user is really in.
          'quicksight:ListUserGroups',
        ],
        resources: [qs.usersInNamespace, qs.namespace],
      }),
    );
    quicksightAdmin.allow(
      new iam.PolicyStatement({
        sid: 'ManageDashboardPermissions',
        actions: ['quicksight:UpdateDashboardPermissions', 'quicksight:DescribeDashboardPermissions'],
        resources: [qs.dashboards],
      }),
    );

    const userAdmin = new PortalFunction(this, 'UserAdmin', {
      ...administration,
      name: 'user-admin',
      description: 'Administers portal accounts in Cognito (Admins only)',
    });
    // A user's views, read through the user index, and deleted with the account.
    userAdmin.bindTable(data.table('Views'), ['dynamodb:Query', 'dynamodb:DeleteItem'], {
      indexes: [VIEWS_BY_USER_INDEX],
    });
    // The company memberships and the directory copy (one partition each of the State table)
    // read with the accounts, the copy's entries changed one by one and written in batches; the
    // resend-invitation slots per account (put, query, delete) and the promotion lease (put, delete).
    userAdmin.bindTable(data.table('State'), [
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:Query',
      'dynamodb:BatchWriteItem',
    ]);
    userAdmin.bindTable(data.table('Audit'), ['dynamodb:PutItem', 'dynamodb:Query']);
    allowUserPool(userAdmin, auth, [
      ...USER_DIRECTORY_READ,
      'cognito-idp:AdminCreateUser',
      'cognito-idp:AdminSetUserPassword',
      // Users for a new account, Admins for a promotion.
      'cognito-idp:AdminAddUserToGroup',
      'cognito-idp:AdminUpdateUserAttributes',
      'cognito-idp:AdminEnableUser',
      'cognito-idp:AdminDisableUser',
      'cognito-idp:AdminDeleteUser',
      'cognito-idp:AdminUserGlobalSignOut',
      // Reset MFA: the documented way to remove a lost authenticator (a preference change keeps it),
      // and passkeys no longer counted as MFA (no administrator call deletes them: lambdas/user-admin/factors.ts).
      'cognito-idp:AdminDeleteSoftwareToken',
      'cognito-idp:AdminSetUserMFAPreference',
      // Reset MFA and Disable also forget the devices the user had remembered (called only
      // where the pool tracks devices: REMEMBER_DEVICES).
      'cognito-idp:AdminListDevices',
      'cognito-idp:AdminForgetDevice',
    ]);
    userAdmin.function.addEnvironment(ENV.rememberDevices, String(auth.rememberDevices));
    userAdmin.allow(
      new iam.PolicyStatement({
        sid: 'DeleteQuickSightUser',
        actions: ['quicksight:DeleteUser'],
        resources: [qs.usersInNamespace],
      }),
    );

    const mfa = new PortalFunction(this, 'Mfa', {
      ...common,
      name: 'mfa',
      description: "Manages the caller's authenticator-app MFA, passkeys, devices and sign-out everywhere",
      // The authenticator calls use the caller's own access token (no IAM grant); the calls a
      // refreshed token cannot make, for the caller's own username only, are granted below.
      environment: { [ENV.mfaConfiguration]: auth.mfaConfiguration },
    });
    allowUserPool(mfa, auth, [
      'cognito-idp:AdminListDevices',
      'cognito-idp:AdminForgetDevice',
      'cognito-idp:AdminUserGlobalSignOut',
      // GET_MFA_STATUS sets TOTP as preferred where a required authenticator has no preference yet.
      'cognito-idp:AdminSetUserMFAPreference',
    ]);
    // Log out records the end of the account's sessions (lambdas/shared/auth/ended-sessions.ts);
    // the record of the caller's passkeys is read (query), kept in line with Cognito's list (batch
    // writes), stamped with a sign-in (update) and cleared of an administrator's reset (delete).
    mfa.bindTable(data.table('State'), [
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:BatchWriteItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
    ]);

    const contact = new PortalFunction(this, 'Contact', {
      ...common,
      name: 'contact',
      description: 'Sends a signed-in user’s support request to the support address',
      environment: {
        [ENV.supportFromAddress]: props.supportFromAddress,
        [ENV.supportToAddress]: props.supportToAddress,
      },
    });
    contact.bindTable(data.table('State'), ['dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:DeleteItem']);
    // SES authorizes SendEmail on the sending identity and, while the account is in the
    // sandbox, on each recipient's identity too: the support recipient is one of them.
    contact.allow(
      new iam.PolicyStatement({
        sid: 'SendFromSupportAddress',
        actions: ['ses:SendEmail'],
        resources: [sesIdentityArn(props.sesIdentity), sesIdentityArn(props.supportToAddress)],
        conditions: { StringEquals: { 'ses:FromAddress': props.supportFromAddress } },
      }),
    );

    this.functions = { embed, quicksightAdmin, userAdmin, mfa, contact };
    const urls = {} as Record<ApiFunctionName, lambda.FunctionUrl>;
    for (const [name, fn] of Object.entries(this.functions) as [ApiFunctionName, PortalFunction][]) {
      // The liveness check of a refreshed token (lambdas/shared/auth/caller.ts): the account
      // (AdminGetUser) and the record of its ended sessions.
      allowLivenessCheck(fn, auth, data);
      fn.addEnvironment(ENV.userPoolId, auth.userPool.userPoolId);
      fn.addEnvironment(ENV.absoluteSessionMinutes, String(props.absoluteSessionMinutes));
      fn.addEnvironment(ENV.userPoolClientId, auth.client.userPoolClientId);
      fn.addEnvironment(ENV.allowedOrigins, props.allowedOrigins.join(','));
      urls[name] = fn.function.addFunctionUrl({
        authType: lambda.FunctionUrlAuthType.NONE,
        cors: {
          allowedOrigins: [...props.allowedOrigins],
          allowedMethods: [lambda.HttpMethod[FUNCTION_URL_METHODS[name]]],
          allowedHeaders:
            name === 'embed'
              ? ['authorization', 'content-type', ...EMBED_REQUEST_HEADERS]
              : ['authorization', 'content-type'],
          allowCredentials: false,
          maxAge: Duration.hours(1),
        },
      });
      const publicPermissions = fn.function.node.children.filter(
        (child): child is lambda.CfnPermission => child instanceof lambda.CfnPermission && child.principal === '*',
      );
      for (const permission of publicPermissions) acknowledge(permission, { [PUBLIC_URL_FINDING]: PUBLIC_URL_REASON });
    }
    this.urls = urls;

    const users = { [wildcardResourceFinding(this, qs.usersInNamespace)]: QUICKSIGHT_USERS_REASON };
    const dashboards = { [wildcardResourceFinding(this, qs.dashboards)]: QUICKSIGHT_DASHBOARDS_REASON };
    acknowledge(embed.policy, users);
    acknowledge(quicksightAdmin.policy, { ...users, ...dashboards });
    acknowledge(userAdmin.policy, users);
  }
}
