import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { CONTACT_LIMITS } from '../../contracts/contact.ts';
import { stateTable } from '../../contracts/tables.ts';
import { dynamo } from '../shared/aws/dynamo.ts';
import { epochSeconds, isConditionFailure, tableName } from '../shared/data/tables.ts';
import { TooManyRequestsError } from '../shared/errors.ts';

export const RATE_LIMIT_MESSAGE = `You can send at most ${CONTACT_LIMITS.perUserPerHour} messages per hour. Please try again later.`;

/** One counter item per user and clock hour (pk USER#<email>, sk CONTACT#<hour>), expiring by TTL. */
const bucketKey = (email: string, now: Date) => ({ pk: `USER#${email}`, sk: `CONTACT#${now.toISOString().slice(0, 13)}` });

const changeCount = async (email: string, now: Date, delta: 1 | -1) => {
  const endOfHour = new Date(now);
  endOfHour.setUTCMinutes(60, 0, 0);
  await dynamo.send(
    new UpdateCommand({
      TableName: tableName(stateTable),
      Key: bucketKey(email, now),
      UpdateExpression: 'ADD #count :delta SET expiresAt = :expiresAt',
      ...(delta > 0
        ? {
            ConditionExpression: 'attribute_not_exists(#count) OR #count < :max',
            ExpressionAttributeValues: { ':delta': delta, ':expiresAt': epochSeconds(endOfHour) + 3600, ':max': CONTACT_LIMITS.perUserPerHour },
          }
        : { ExpressionAttributeValues: { ':delta': delta, ':expiresAt': epochSeconds(endOfHour) + 3600 } }),
      ExpressionAttributeNames: { '#count': 'count' },
    }),
  );
};

/**
 * Takes one of the user's messages for this hour with a conditional increment (so concurrent
 * sends cannot overshoot); 429 when none is left. Returns a function that gives it back
 * when the message could not be sent.
 */
export const takeContactSlot = async (email: string): Promise<() => Promise<void>> => {
  const now = new Date();
  try {
    await changeCount(email, now, 1);
  } catch (error) {
    if (isConditionFailure(error)) throw new TooManyRequestsError(RATE_LIMIT_MESSAGE);
    throw error;
  }
  return () => changeCount(email, now, -1);
};
