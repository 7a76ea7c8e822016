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
 * A token belongs to an ended session when its sign-in came before or in the same second as
 * the end: `auth_time` and the record both have a one-second grain, so a sign-in in that second
 * cannot be told from one just before it, and a token refreshed from it in that second would
 * otherwise work for the rest of its life. A new sign-in of that second is refused only once
 * its first tokens are refreshed (those carry the admin scope, which Cognito checks itself);
 * the user signs in again.
 */
export const endedSinceSignIn = (authTime: number, endedAt: number | undefined): boolean =>
  endedAt !== undefined && authTime <= endedAt;
