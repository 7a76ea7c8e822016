import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { stateTable } from '#contracts/tables.ts';
import { dynamo } from '../aws/dynamo.ts';
import { tableName } from '../data/tables.ts';

/**
 * When the portal last ended every session of an account (Log out, a password reset, an
 * administrator's reset or sign-out), one State item per account.
 *
 * Cognito revokes the account's tokens on a global sign-out, but only Cognito can tell: the
 * check is GetUser with the token, which needs the `aws.cognito.signin.user.admin` scope.
 * Tokens from a refresh do not carry that scope (the pre token generation trigger suppresses
 * it), so for them the functions compare the token's sign-in (`auth_time`) with this record.
 */

/** The State item of an account's ended sessions (written by end-sessions.ts). */
export const endedSessionsKey = (username: string) => ({ pk: 'SESSIONS_ENDED', sk: username });

/** Epoch seconds at which the account's sessions were last ended, if within the record's life. */
export const sessionsEndedAt = async (username: string): Promise<number | undefined> => {
  const result = await dynamo.send(
    new GetCommand({ TableName: tableName(stateTable), Key: endedSessionsKey(username), ConsistentRead: true }),
  );
  const endedAt: unknown = result.Item?.endedAt;
  return typeof endedAt === 'number' ? endedAt : undefined;
};

/**
 * A token belongs to an ended session when its sign-in came before the end. `auth_time` has a
 * one-second grain: a sign-in in the very second of the end is let through (its tokens are at
 * most 5 minutes long and its refresh token is revoked), never a new sign-in refused.
 */
export const endedBefore = (authTime: number, endedAt: number | undefined): boolean =>
  endedAt !== undefined && authTime < endedAt;
