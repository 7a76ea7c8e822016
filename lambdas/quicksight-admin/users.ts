import { AdminGetUserCommand, type UserType } from '@aws-sdk/client-cognito-identity-provider';
import type { User, UserRole } from '@aws-sdk/client-quicksight';
import { ENV } from '#contracts/env.ts';
import type { CognitoUserWithQuicksight } from '#contracts/quicksight-admin.ts';
import { cognito } from '../shared/aws/cognito.ts';
import { isAwsError } from '../shared/aws/config.ts';
import { emailOf, readDirectory } from '../shared/directory.ts';
import { requireEnv } from '../shared/env.ts';
import { ConflictError, HttpError, NotFoundError, UpstreamError } from '../shared/errors.ts';
import {
  deleteQuickSightUser,
  listQuickSightUsers,
  quicksightFailure,
  quicksightSettings,
  registerQuickSightUser,
} from '../shared/quicksight.ts';
import { removeAllViewsOfUser } from '../shared/user-views.ts';
import { joinCompanyGroups } from '../shared/companies/membership.ts';
import {
  companiesById,
  companyNamesOf,
  listCompanies,
  listMemberships,
  type CompanyItem,
  type MembershipItem,
} from '../shared/data/companies.ts';

const toListedUser = (
  user: UserType,
  group: string | null,
  quicksightUser: User | undefined,
  membership: MembershipItem | undefined,
  companies: ReadonlyMap<string, CompanyItem>,
): CognitoUserWithQuicksight => ({
  username: user.Username ?? '',
  email: emailOf(user),
  enabled: user.Enabled ?? false,
  status: user.UserStatus ?? 'UNKNOWN',
  existsInQuickSight: quicksightUser !== undefined,
  cognito: { cognitoGroup: group },
  quicksight:
    quicksightUser === undefined
      ? null
      : {
          role: quicksightUser.Role ?? 'UNKNOWN',
          userName: quicksightUser.UserName ?? '',
          arn: quicksightUser.Arn ?? '',
        },
  companies: companyNamesOf(membership, companies),
  owner: membership?.owner ?? false,
});

/**
 * Every Cognito user with their group and QuickSight registration: the directory (the portal's
 * copy, or a full listing with `fullListing`) and the QuickSight listing are read in parallel,
 * joined in memory by email.
 */
export const listUsersWithQuickSightStatus = async (fullListing = false): Promise<CognitoUserWithQuicksight[]> => {
  const [users, quicksightUsers, memberships, companies] = await Promise.all([
    readDirectory({ fullListing }),
    listQuickSightUsers(),
    listMemberships(),
    listCompanies(),
  ]);
  const byId = companiesById(companies);
  const byName = new Map<string, User>();
  for (const quicksightUser of quicksightUsers) {
    for (const key of [quicksightUser.UserName, quicksightUser.Email]) {
      if (key) byName.set(key.toLowerCase(), quicksightUser);
    }
  }
  return users.map(({ user, group }) =>
    toListedUser(user, group, byName.get(emailOf(user)), memberships.get(emailOf(user)), byId),
  );
};

export const requireCognitoUser = async (email: string): Promise<void> => {
  try {
    await cognito.send(new AdminGetUserCommand({ UserPoolId: requireEnv(ENV.userPoolId), Username: email }));
  } catch (error) {
    if (isAwsError(error, 'UserNotFoundException')) {
      throw new NotFoundError('User not found', {
        userEmail: email,
        suggestion: 'Refresh the user list and try again.',
      });
    }
    throw new UpstreamError('Failed to look up the user', { userEmail: email });
  }
};

/**
 * Registers a Cognito user in QuickSight (IdentityType QUICKSIGHT, user name = email). The
 * answer's UserInvitationUrl, where the user would set a QuickSight console password, is
 * neither returned nor logged: portal users see their dashboards embedded in the portal and
 * never sign in to QuickSight, and the link would let whoever holds it set that password.
 */
export const registerUser = async (
  email: string,
  role: UserRole,
): Promise<{ userName: string; role: string; arn: string }> => {
  try {
    quicksightSettings();
    await requireCognitoUser(email);
    const user = await registerQuickSightUser(email, role);
    try {
      await joinCompanyGroups(email);
    } catch (error) {
      // The registration is undone with its group steps, so a retry starts clean.
      await deleteQuickSightUser(email).catch(() => undefined);
      throw error;
    }
    return { userName: user?.UserName ?? email, role: user?.Role ?? role, arn: user?.Arn ?? '' };
  } catch (error) {
    if (isAwsError(error, 'ResourceExistsException')) {
      throw new ConflictError('User is already registered in QuickSight', {
        userEmail: email,
        reason: 'QuickSight already has a user with this name.',
        suggestion: 'Refresh the user list: the user shows as Registered.',
      });
    }
    const failure = error instanceof HttpError ? error : quicksightFailure('Failed to register user', error);
    throw failure.withDetails({ userEmail: email });
  }
};

/** Removes the user's views, then their QuickSight user (absent counts as done). */
export const deleteRegisteredUser = async (
  email: string,
): Promise<{ removedViews: number; quicksightUser: 'deleted' | 'absent' }> => {
  quicksightSettings();
  const removedViews = await removeAllViewsOfUser(email);
  const quicksightUser = await deleteQuickSightUser(email);
  return { removedViews, quicksightUser };
};
