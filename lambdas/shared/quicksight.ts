import {
  DeleteUserCommand,
  DescribeDashboardPermissionsCommand,
  DescribeUserCommand,
  ListUsersCommand,
  RegisterUserCommand,
  UpdateDashboardPermissionsCommand,
  type User,
  type UserRole,
} from '@aws-sdk/client-quicksight';
import { ENV } from '#contracts/env.ts';
import { isAwsError } from './aws/config.ts';
import { quicksight, quicksightIdentity, quicksightIdentityRegion } from './aws/quicksight.ts';
import { optionalEnv, requireEnv } from './env.ts';
import { HttpError, NotFoundError, UpstreamError } from './errors.ts';

/** What a dashboard viewer may do; granted on assignment, revoked on removal. */
const VIEWER_ACTIONS = [
  'quicksight:DescribeDashboard',
  'quicksight:ListDashboardVersions',
  'quicksight:QueryDashboard',
];

export const QUICKSIGHT_PAGE_SIZE = 100;

/**
 * QuickSight's error for a user it does not have in operations that look a user up by name
 * (the SDK model lists it for GenerateEmbedUrlForRegisteredUser; its description names
 * DeleteUser and DescribeUser too, which document ResourceNotFoundException). Both mean
 * "not registered" wherever a missing user is expected.
 */
export const QUICKSIGHT_USER_NOT_FOUND = 'QuickSightUserNotFoundException';

export interface QuickSightSettings {
  accountId: string;
  namespace: string;
}

/** Read per call, so that a missing account id becomes an answer naming it (not a crash at start). */
export const quicksightSettings = (): QuickSightSettings => ({
  accountId: requireEnv(ENV.quicksightAccountId),
  namespace: optionalEnv(ENV.quicksightNamespace) ?? 'default',
});

/** QuickSight users of this product are named by the lowercased email. */
export const quicksightUserName = (email: string): string => email.toLowerCase();

export const userArn = (settings: QuickSightSettings, email: string): string =>
  `arn:aws:quicksight:${quicksightIdentityRegion}:${settings.accountId}:user/${settings.namespace}/${quicksightUserName(email)}`;

/**
 * A QuickSight failure as an answer: the step that failed, QuickSight's own message as the
 * reason, and what an administrator can do about it.
 */
export const quicksightFailure = (step: string, error: unknown, userEmail?: string): HttpError => {
  if (error instanceof HttpError) return error;
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : 'Unknown error';
  const details = { reason, ...(userEmail === undefined ? {} : { userEmail }) };
  if (isAwsError(error, 'AccessDeniedException')) {
    return new UpstreamError(step, {
      ...details,
      suggestion: 'Check that QuickSight is set up in the account and that the function may call it.',
    });
  }
  if (isAwsError(error, 'ThrottlingException', 'LimitExceededException')) {
    return new UpstreamError(step, { ...details, suggestion: 'QuickSight is busy. Please try again in a moment.' });
  }
  if (isAwsError(error, 'InvalidParameterValueException')) return new HttpError(400, step, details);
  return new UpstreamError(step, details);
};

export const describeQuickSightUser = async (email: string): Promise<User | undefined> => {
  const settings = quicksightSettings();
  try {
    const result = await quicksightIdentity.send(
      new DescribeUserCommand({
        AwsAccountId: settings.accountId,
        Namespace: settings.namespace,
        UserName: quicksightUserName(email),
      }),
    );
    return result.User;
  } catch (error) {
    if (isAwsError(error, 'ResourceNotFoundException', QUICKSIGHT_USER_NOT_FOUND)) return undefined;
    throw quicksightFailure('Failed to look up the QuickSight user', error, email);
  }
};

/** The *not registered* answer: a 404 naming the user. */
const notRegisteredError = (email: string): NotFoundError =>
  new NotFoundError(`User ${email} is not registered in QuickSight`, {
    userEmail: email,
    suggestion: 'Register the user in QuickSight first.',
  });

/** Throws a 404 naming the user when they are not registered in QuickSight. */
export const requireQuickSightUser = async (email: string): Promise<User> => {
  const user = await describeQuickSightUser(email);
  if (user === undefined) throw notRegisteredError(email);
  return user;
};

export const listQuickSightUsers = async (): Promise<User[]> => {
  const settings = quicksightSettings();
  const users: User[] = [];
  let token: string | undefined;
  try {
    do {
      const page = await quicksightIdentity.send(
        new ListUsersCommand({
          AwsAccountId: settings.accountId,
          Namespace: settings.namespace,
          MaxResults: QUICKSIGHT_PAGE_SIZE,
          NextToken: token,
        }),
      );
      users.push(...(page.UserList ?? []));
      token = page.NextToken;
    } while (token);
  } catch (error) {
    throw quicksightFailure('Failed to list QuickSight users', error);
  }
  return users;
};

export const registerQuickSightUser = async (email: string, role: UserRole): Promise<User | undefined> => {
  const settings = quicksightSettings();
  const result = await quicksightIdentity.send(
    new RegisterUserCommand({
      AwsAccountId: settings.accountId,
      Namespace: settings.namespace,
      IdentityType: 'QUICKSIGHT',
      Email: email,
      UserName: quicksightUserName(email),
      UserRole: role,
    }),
  );
  return result.User;
};

/** Deletes the QuickSight user; 'absent' when there was none (so a retry succeeds). */
export const deleteQuickSightUser = async (email: string): Promise<'deleted' | 'absent'> => {
  const settings = quicksightSettings();
  try {
    await quicksightIdentity.send(
      new DeleteUserCommand({
        AwsAccountId: settings.accountId,
        Namespace: settings.namespace,
        UserName: quicksightUserName(email),
      }),
    );
    return 'deleted';
  } catch (error) {
    if (isAwsError(error, 'ResourceNotFoundException', QUICKSIGHT_USER_NOT_FOUND)) return 'absent';
    throw quicksightFailure('Failed to delete the QuickSight user', error, email);
  }
};

const updateViewerPermission = async (
  email: string,
  dashboardId: string,
  change: 'GrantPermissions' | 'RevokePermissions',
) => {
  const settings = quicksightSettings();
  await quicksight.send(
    new UpdateDashboardPermissionsCommand({
      AwsAccountId: settings.accountId,
      DashboardId: dashboardId,
      [change]: [{ Principal: userArn(settings, email), Actions: VIEWER_ACTIONS }],
    }),
  );
};

/** Grants viewer rights (granting again is harmless). */
export const grantViewer = async (email: string, dashboardId: string): Promise<void> => {
  try {
    await updateViewerPermission(email, dashboardId, 'GrantPermissions');
  } catch (error) {
    if (isAwsError(error, QUICKSIGHT_USER_NOT_FOUND)) throw notRegisteredError(email);
    if (isAwsError(error, 'ResourceNotFoundException')) {
      throw new NotFoundError(`Dashboard ${dashboardId} was not found in QuickSight`, { userEmail: email });
    }
    throw quicksightFailure('Failed to grant access to the dashboard in QuickSight', error, email);
  }
};

/** Revokes viewer rights; a dashboard or user QuickSight no longer knows has nothing to revoke. */
export const revokeViewer = async (email: string, dashboardId: string): Promise<void> => {
  try {
    await updateViewerPermission(email, dashboardId, 'RevokePermissions');
  } catch (error) {
    if (isAwsError(error, 'ResourceNotFoundException', QUICKSIGHT_USER_NOT_FOUND)) return;
    throw quicksightFailure('Failed to revoke access to the dashboard in QuickSight', error, email);
  }
};

/**
 * Users holding exactly the viewer permission this product grants on a dashboard (the
 * QuickSight side of its assignments), by email. Owners and authors are not included.
 */
export const viewersOfDashboard = async (dashboardId: string): Promise<string[]> => {
  const settings = quicksightSettings();
  const userArnPrefix = userArn(settings, '');
  const viewerActions = [...VIEWER_ACTIONS].sort().join(',');
  try {
    const result = await quicksight.send(
      new DescribeDashboardPermissionsCommand({ AwsAccountId: settings.accountId, DashboardId: dashboardId }),
    );
    return (result?.Permissions ?? []).flatMap(({ Principal: principal = '', Actions: actions = [] }) =>
      principal.startsWith(userArnPrefix) && [...actions].sort().join(',') === viewerActions
        ? [principal.slice(userArnPrefix.length)]
        : [],
    );
  } catch (error) {
    if (isAwsError(error, 'ResourceNotFoundException')) return [];
    throw quicksightFailure('Failed to read the dashboard permissions in QuickSight', error);
  }
};
