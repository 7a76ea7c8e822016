import { AdminAddUserToGroupCommand } from '@aws-sdk/client-cognito-identity-provider';
import { USERS_GROUP } from '../shared/auth/groups.ts';
import { cognito } from '../shared/aws/cognito.ts';

/** Adds a confirmed user to the Users group (adding again is harmless). */
export const joinUsersGroup = async (userPoolId: string, username: string): Promise<void> => {
  await cognito.send(new AdminAddUserToGroupCommand({ UserPoolId: userPoolId, Username: username, GroupName: USERS_GROUP }));
};
