import { AdminUserGlobalSignOutCommand } from '@aws-sdk/client-cognito-identity-provider';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { stateTable } from '#contracts/tables.ts';
import { cognito } from '../aws/cognito.ts';
import { dynamo } from '../aws/dynamo.ts';
import { tableName } from '../data/tables.ts';
import { endedSessionsKey } from './ended-sessions.ts';

/**
 * Ending every session of an account: Log out, a password reset, an administrator's sign-out.
 * The reading side, which every caller check uses, is ended-sessions.ts.
 */

/**
 * The record has to outlive the access tokens it ends (5 minutes after their refresh); a day
 * keeps it well beyond that and lets DynamoDB's TTL remove it afterwards.
 */
const RECORD_SECONDS = 24 * 60 * 60;

/** Records the end of every session of the account now. */
export const recordSessionsEnded = async (username: string, nowMs = Date.now()): Promise<void> => {
  const endedAt = Math.floor(nowMs / 1000);
  await dynamo.send(
    new PutCommand({
      TableName: tableName(stateTable),
      Item: { ...endedSessionsKey(username), endedAt, expiresAt: endedAt + RECORD_SECONDS },
    }),
  );
};

/**
 * Signs the account out everywhere: Cognito revokes its refresh tokens and the access tokens
 * issued from them, and the record ends the refreshed tokens that only the functions see.
 * The record is written first, so a failure of the Cognito call leaves the sessions ended for
 * the functions all the same.
 */
export const endAllSessions = async (userPoolId: string, username: string): Promise<void> => {
  await recordSessionsEnded(username);
  await cognito.send(new AdminUserGlobalSignOutCommand({ UserPoolId: userPoolId, Username: username }));
};
