import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminDeleteSoftwareTokenCommand,
  AdminForgetDeviceCommand,
  AdminListDevicesCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  AdminUserGlobalSignOutCommand,
  type AdminGetUserCommandOutput,
  ListUsersCommand,
  type UserType,
} from '@aws-sdk/client-cognito-identity-provider';
import { ENV } from '#contracts/env.ts';
import {
  companiesById,
  companyNamesOf,
  deleteMembership,
  listCompanies,
  listMemberships,
} from '../shared/data/companies.ts';
import {
  INVITATION_PENDING_STATUS,
  INVITATION_VALIDITY_DAYS,
  PROMOTE_MESSAGES,
  type ManagedUser,
} from '#contracts/user-admin.ts';
import { ADMINS_GROUP, USERS_GROUP } from '#contracts/groups.ts';
import { recordSessionsEnded } from '../shared/auth/end-sessions.ts';
import { cognito } from '../shared/aws/cognito.ts';
import { isAwsError } from '../shared/aws/config.ts';
import { withLease } from '../shared/data/lease.ts';
import { forgetPasskeys } from '../shared/data/passkeys.ts';
import { viewsOfUser } from '../shared/data/views.ts';
import {
  emailOf,
  isAdminEmail,
  noteAccountChanged,
  noteAccountCreated,
  noteAccountDeleted,
  noteEmailChanged,
  noteGroupJoined,
  readDirectory,
} from '../shared/directory.ts';
import { requireEnv } from '../shared/env.ts';
import { ConflictError, HttpError } from '../shared/errors.ts';
import { deleteQuickSightUser } from '../shared/quicksight.ts';
import { addToGroup, createInvitedAccount, deleteAccount } from '../shared/invitation.ts';
import { removeAllViewsOfUser } from '../shared/user-views.ts';
import { cognitoFailure, cognitoStep } from './cognito-failure.ts';
import { resetPasskeys } from './factors.ts';
import type { UserUpdate } from './update-rules.ts';

const poolId = () => requireEnv(ENV.userPoolId);

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * An invitation's expiry: Cognito sets a new temporary password on creation and on each
 * resend, both of which stamp the account's last-modified date, and the password works for
 * the pool's TemporaryPasswordValidityDays from then.
 */
const invitationExpiry = (user: UserType): Pick<ManagedUser, 'invitationExpires'> => {
  if (user.UserStatus !== INVITATION_PENDING_STATUS) return {};
  const sent = user.UserLastModifiedDate ?? user.UserCreateDate;
  return {
    invitationExpires:
      sent === undefined ? null : new Date(sent.getTime() + INVITATION_VALIDITY_DAYS * DAY_MS).toISOString(),
  };
};

/**
 * Every account with its group and companies: the directory (the portal's copy, or a full
 * listing with `fullListing`) and the memberships, each a paged query, not one call per user.
 */
export const listManagedUsers = async (fullListing = false): Promise<ManagedUser[]> => {
  const [users, memberships, companies] = await Promise.all([
    readDirectory({ fullListing }),
    listMemberships(),
    listCompanies(),
  ]);
  const byId = companiesById(companies);
  return users.map(({ user, group }) => {
    const membership = memberships.get(emailOf(user));
    return {
      username: user.Username ?? '',
      email: emailOf(user),
      enabled: user.Enabled ?? false,
      status: user.UserStatus ?? 'UNKNOWN',
      cognitoGroup: group,
      created: user.UserCreateDate?.toISOString() ?? null,
      ...invitationExpiry(user),
      companies: companyNamesOf(membership, byId),
      owner: membership?.owner ?? false,
    };
  });
};

const getUser = (email: string): Promise<AdminGetUserCommandOutput> =>
  cognitoStep('Failed to look up the user', email, () =>
    cognito.send(new AdminGetUserCommand({ UserPoolId: poolId(), Username: email })),
  );

/**
 * Creates a confirmed account with the given password in the Users group, without an
 * invitation email. The password is given as the temporary one too, so the pool's policy
 * refuses a weak one before any account exists. A retry after a failure part-way (account
 * left in FORCE_CHANGE_PASSWORD) finishes the creation.
 */
export const createUser = async (email: string, password: string): Promise<{ username: string }> => {
  let username: string | undefined;
  let created: UserType | undefined;
  try {
    const answer = await cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: poolId(),
        Username: email,
        TemporaryPassword: password,
        MessageAction: 'SUPPRESS',
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: 'email_verified', Value: 'true' },
        ],
      }),
    );
    created = answer.User;
    username = created?.Username;
  } catch (error) {
    if (!isAwsError(error, 'UsernameExistsException')) throw cognitoFailure('Failed to create user', error, email);
    const existing = await getUser(email);
    if (existing.UserStatus !== 'FORCE_CHANGE_PASSWORD')
      throw new ConflictError('User already exists', { userEmail: email });
    username = existing.Username;
    created = {
      Username: existing.Username,
      Attributes: existing.UserAttributes,
      UserCreateDate: existing.UserCreateDate,
    };
  }
  await cognitoStep('Failed to set the password', email, () =>
    cognito.send(
      new AdminSetUserPasswordCommand({ UserPoolId: poolId(), Username: email, Password: password, Permanent: true }),
    ),
  );
  await cognitoStep('Failed to add the user to the Users group', email, () =>
    cognito.send(new AdminAddUserToGroupCommand({ UserPoolId: poolId(), Username: email, GroupName: USERS_GROUP })),
  );
  await noteAccountCreated(
    created && { ...created, Enabled: true, UserStatus: 'CONFIRMED', UserLastModifiedDate: new Date() },
    USERS_GROUP,
  );
  return { username: username ?? email };
};

/**
 * Creates an account with the pool's invitation email (Cognito generates the temporary
 * password) in the Users group. If the group cannot be set, the account is removed again:
 * an account outside every group could sign in to nothing, and a retry starts clean.
 */
export const createInvitedUser = async (email: string): Promise<{ username: string }> => {
  const created = await createInvitedAccount(email, 'SEND');
  try {
    await addToGroup(email, USERS_GROUP);
  } catch (error) {
    await deleteAccount(email);
    throw error;
  }
  return created;
};

const emailInUse = async (email: string): Promise<boolean> => {
  const result = await cognitoStep('Failed to check the new email', email, () =>
    cognito.send(
      new ListUsersCommand({ UserPoolId: poolId(), Filter: `email = "${email.replace(/["\\]/g, '')}"`, Limit: 1 }),
    ),
  );
  return (result.Users?.length ?? 0) > 0;
};

/**
 * Ends the account's sessions everywhere. Cognito refuses this for a disabled account
 * (NotAuthorizedException "User is disabled"); AdminDisableUser has already revoked its
 * tokens and it cannot get new ones, so that answer counts as done.
 */
const signOutEverywhere = async (email: string): Promise<void> => {
  try {
    // The record ends the refreshed tokens too, which Cognito's sign-out cannot reach
    // (lambdas/shared/auth/end-sessions.ts); it is kept by username, the tokens' subject.
    const { Username: username } = await cognito.send(
      new AdminGetUserCommand({ UserPoolId: poolId(), Username: email }),
    );
    if (username) await recordSessionsEnded(username);
    await cognito.send(new AdminUserGlobalSignOutCommand({ UserPoolId: poolId(), Username: email }));
  } catch (error) {
    if (isAwsError(error, 'NotAuthorizedException') && /disabled/i.test(error.message)) return;
    throw cognitoFailure('Failed to sign the user out', error, email);
  }
};

/** Cognito's page size limit for AdminListDevices. */
const DEVICE_PAGE = 60;

/**
 * Forgets every device the user had remembered, so the next sign-in from any of them asks
 * for a code again. Only where the pool tracks devices (rememberDevices).
 */
const forgetAllDevices = async (email: string, failure: string): Promise<void> => {
  if (process.env[ENV.rememberDevices] !== 'true') return;
  let token: string | undefined;
  do {
    const page = await cognitoStep(failure, email, () =>
      cognito.send(
        new AdminListDevicesCommand({
          UserPoolId: poolId(),
          Username: email,
          Limit: DEVICE_PAGE,
          PaginationToken: token,
        }),
      ),
    );
    for (const device of page.Devices ?? []) {
      const deviceKey = device.DeviceKey;
      if (deviceKey === undefined) continue;
      await cognitoStep(failure, email, () =>
        cognito.send(new AdminForgetDeviceCommand({ UserPoolId: poolId(), Username: email, DeviceKey: deviceKey })),
      );
    }
    token = page.PaginationToken;
  } while (token);
};

/**
 * Changes email and/or password. Everything that can refuse the change is checked before
 * anything is written. Dashboards are assigned under the email (and QuickSight users are
 * named by it), so an email change waits until the user has none. A new password ends the
 * account's sessions everywhere: whoever held the old one keeps no token or refresh token.
 */
export const updateUser = async (email: string, update: UserUpdate): Promise<string[]> => {
  await getUser(email);
  if (update.newEmail !== undefined) {
    if (await emailInUse(update.newEmail)) throw new ConflictError('Email already exists', { userEmail: email });
    if ((await viewsOfUser(email)).length > 0) {
      throw new ConflictError('Cannot change the email of a user who has dashboards assigned', {
        userEmail: email,
        suggestion: 'Remove the dashboards from the user first, then assign them again after the change.',
      });
    }
  }
  const changed: string[] = [];
  if (update.newPassword !== undefined) {
    const password = update.newPassword;
    await cognitoStep('Failed to update user', email, () =>
      cognito.send(
        new AdminSetUserPasswordCommand({ UserPoolId: poolId(), Username: email, Password: password, Permanent: true }),
      ),
    );
    await signOutEverywhere(email);
    // A permanent password confirms an account that had not signed in yet.
    await noteAccountChanged(email, { status: 'CONFIRMED' });
    changed.push('password');
  }
  if (update.newEmail !== undefined) {
    const newEmail = update.newEmail;
    await cognitoStep('Failed to update user', email, () =>
      cognito.send(
        new AdminUpdateUserAttributesCommand({
          UserPoolId: poolId(),
          Username: email,
          UserAttributes: [
            { Name: 'email', Value: newEmail },
            { Name: 'email_verified', Value: 'true' },
          ],
        }),
      ),
    );
    await noteEmailChanged(email, newEmail);
    changed.push('email');
  }
  return changed;
};

export const enableUser = async (email: string): Promise<void> => {
  await cognitoStep('Failed to enable user', email, () =>
    cognito.send(new AdminEnableUserCommand({ UserPoolId: poolId(), Username: email })),
  );
  await noteAccountChanged(email, { enabled: true });
};

/**
 * Disables the account, ends its sessions everywhere (its tokens stop working at once) and
 * forgets its remembered devices. Disabling an account that is already disabled succeeds again.
 */
export const disableUser = async (email: string): Promise<{ canceledSubscriptions: number }> => {
  await cognitoStep('Failed to disable user', email, () =>
    cognito.send(new AdminDisableUserCommand({ UserPoolId: poolId(), Username: email })),
  );
  await noteAccountChanged(email, { enabled: false });
  await signOutEverywhere(email);
  await forgetAllDevices(email, 'Failed to disable user');
  return { canceledSubscriptions: await cancelSubscriptions(email) };
};

/** A disabled or deleted account receives nothing more: its subscriptions go in the same step. */
const cancelSubscriptions = async (email: string): Promise<number> => {
  const { cancelSubscriptionsOf } = await import('../shared/subscriptions/cancel.ts');
  return (await cancelSubscriptionsOf(email)).length;
};

/**
 * Deletes an account: its views, then its QuickSight user (a failure there is tolerated, as
 * the spec says, and reported), then the account itself.
 */
export const deleteUser = async (
  email: string,
): Promise<{ removedViews: number; quicksightUser: string; canceledSubscriptions: number }> => {
  await getUser(email);
  const canceledSubscriptions = await cancelSubscriptions(email);
  const removedViews = await removeAllViewsOfUser(email);
  let quicksightUser: string;
  try {
    quicksightUser = await deleteQuickSightUser(email);
  } catch (error) {
    quicksightUser = `not removed: ${error instanceof HttpError ? error.message : 'QuickSight call failed'}`;
  }
  await cognitoStep('Failed to delete user', email, () =>
    cognito.send(new AdminDeleteUserCommand({ UserPoolId: poolId(), Username: email })),
  );
  await noteAccountDeleted(email);
  await forgetPasskeys(email);
  // QuickSight dropped the user's group memberships with the user; the portal's record goes too.
  await deleteMembership(email);
  return { removedViews, quicksightUser, canceledSubscriptions };
};

/**
 * Deletes the user's authenticator, takes their passkeys out of MFA (factors.ts), ends their
 * sessions and forgets their remembered devices.
 * A preference change would not do (Cognito keeps a verified software token when TOTP is
 * switched off); with the token gone, the next sign-in of a pool that requires MFA sets up a
 * new one, and no device skips the code of the new one.
 */
export const resetUserMfa = async (email: string): Promise<void> => {
  await cognitoStep('Failed to reset MFA', email, () =>
    cognito.send(new AdminDeleteSoftwareTokenCommand({ UserPoolId: poolId(), Username: email })),
  );
  await resetPasskeys(email);
  await signOutEverywhere(email);
  await forgetAllDevices(email, 'Failed to reset MFA');
};

/** The lease promotions of one account take turns on (lambdas/shared/data/lease.ts). */
const promotionLease = (email: string): string => `PROMOTION#${email}`;

/**
 * Adds an existing, enabled account to Admins. It keeps its Users membership, so removing it
 * from Admins in Cognito later leaves an ordinary user. Its current tokens do not claim the
 * group: admin rights start with its next token.
 *
 * Promotions of one account take turns under a lease (a conditional put in the State table),
 * and the Admins check runs inside it: of concurrent promotions exactly one adds the account
 * and is audited as a success; each later one finds an admin and is refused with 409 'User is
 * already an admin', as a promotion after it would be. A promotion refused for another reason
 * (disabled, unknown account) gives the lease back, and the next one checks afresh.
 */
export const promoteToAdmin = async (email: string): Promise<void> =>
  withLease(promotionLease(email), async () => {
    if (await isAdminEmail(email)) throw new ConflictError(PROMOTE_MESSAGES.alreadyAdmin, { userEmail: email });
    const user = await getUser(email);
    if (user.Enabled === false) throw new ConflictError(PROMOTE_MESSAGES.disabled, { userEmail: email });
    await cognitoStep('Failed to promote user', email, () =>
      cognito.send(new AdminAddUserToGroupCommand({ UserPoolId: poolId(), Username: email, GroupName: ADMINS_GROUP })),
    );
    await noteGroupJoined(email, ADMINS_GROUP);
  });
