import { AdminAddUserToGroupCommand } from '@aws-sdk/client-cognito-identity-provider';
import { USERS_GROUP } from '#contracts/groups.ts';
import { cognito } from '../shared/aws/cognito.ts';
import { putDirectoryEntry } from '../shared/data/directory.ts';
import { nowIso } from '../shared/data/tables.ts';

/** Adds a confirmed user to the Users group (adding again is harmless). */
export const joinUsersGroup = async (userPoolId: string, username: string): Promise<void> => {
  await cognito.send(
    new AdminAddUserToGroupCommand({ UserPoolId: userPoolId, Username: username, GroupName: USERS_GROUP }),
  );
};

/**
 * Puts the confirmed account into the portal's copy of the directory (lambdas/shared/directory.ts),
 * so that the admin pages list it at once. The event carries no creation date: the confirmation's
 * time stands in until the next full listing. False when the copy did not take it: the account
 * then appears with that listing, and the confirmation is not failed for it.
 */
export const recordConfirmedAccount = async (username: string, email: string | undefined): Promise<boolean> => {
  if (!email) return false;
  const now = nowIso();
  try {
    await putDirectoryEntry({
      email,
      username,
      enabled: true,
      status: 'CONFIRMED',
      group: USERS_GROUP,
      created: now,
      modified: now,
    });
    return true;
  } catch {
    return false;
  }
};
