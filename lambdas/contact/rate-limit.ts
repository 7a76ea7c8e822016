import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { CONTACT_LIMITS } from '../../contracts/contact.ts';
import { stateTable } from '../../contracts/tables.ts';
import { dynamo } from '../shared/aws/dynamo.ts';
import { epochSeconds, tableName, writeIf } from '../shared/data/tables.ts';
import { TooManyRequestsError } from '../shared/errors.ts';

export const RATE_LIMIT_MESSAGE = `You can send at most ${CONTACT_LIMITS.perUserPerHour} messages per hour. Please try again later.`;

/** The sliding window: never more than `perUserPerHour` messages in any 60 minutes. */
export const RATE_LIMIT_WINDOW_MS = 60 * 60 * 1000;

const SLOT_PREFIX = 'CONTACT-SLOT#';
const SLOTS = Array.from({ length: CONTACT_LIMITS.perUserPerHour }, (_, index) => index);

/**
 * One item per user and slot (pk USER#<email>, sk CONTACT-SLOT#<n>), holding when the slot was
 * last used. A slot can be taken only when that is at least a window ago, and each message
 * takes a slot, so no window holds more messages than there are slots. Conditional writes
 * on single items keep that true under concurrent sends without transactions.
 */
const slotKey = (email: string, slot: number) => ({ pk: `USER#${email}`, sk: `${SLOT_PREFIX}${slot}` });

/** When each of the user's slots was last taken (epoch ms); absent slots were never used or have expired. */
const readSlots = async (email: string): Promise<Map<number, number>> => {
  const result = await dynamo.send(
    new QueryCommand({
      TableName: tableName(stateTable),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': `USER#${email}`, ':prefix': SLOT_PREFIX },
      ConsistentRead: true,
    }),
  );
  const used = new Map<number, number>();
  for (const item of result.Items ?? []) {
    const slot = Number(String(item.sk).slice(SLOT_PREFIX.length));
    if (typeof item.sentAt === 'number') used.set(slot, item.sentAt);
  }
  return used;
};

const takeSlot = (email: string, slot: number, now: number, holder: string) =>
  writeIf(() =>
    dynamo.send(
      new PutCommand({
        TableName: tableName(stateTable),
        Item: { ...slotKey(email, slot), sentAt: now, holder, expiresAt: epochSeconds(new Date(now + RATE_LIMIT_WINDOW_MS)) },
        ConditionExpression: 'attribute_not_exists(#sentAt) OR #sentAt <= :windowStart',
        ExpressionAttributeNames: { '#sentAt': 'sentAt' },
        ExpressionAttributeValues: { ':windowStart': now - RATE_LIMIT_WINDOW_MS },
      }),
    ),
  );

/** Frees a slot this request took, unless another request has taken it since. */
const releaseSlot = async (email: string, slot: number, holder: string) => {
  await writeIf(() =>
    dynamo.send(
      new DeleteCommand({
        TableName: tableName(stateTable),
        Key: slotKey(email, slot),
        ConditionExpression: '#holder = :holder',
        ExpressionAttributeNames: { '#holder': 'holder' },
        ExpressionAttributeValues: { ':holder': holder },
      }),
    ),
  );
};

const minutesUntilFree = (used: Map<number, number>, now: number): number =>
  used.size === 0 ? 1 : Math.max(1, Math.ceil((Math.min(...used.values()) + RATE_LIMIT_WINDOW_MS - now) / 60_000));

/**
 * Takes one of the user's slots for a message; 429 when every slot was used within the last
 * window. Returns a function that gives the slot back when the message could not be sent.
 */
export const takeContactSlot = async (email: string): Promise<() => Promise<void>> => {
  const now = Date.now();
  const used = await readSlots(email);
  const free = SLOTS.filter((slot) => (used.get(slot) ?? 0) <= now - RATE_LIMIT_WINDOW_MS);
  // Concurrent senders start at different slots, so fewer of their writes collide.
  const start = Math.floor(Math.random() * free.length);
  const holder = randomUUID();
  for (const slot of [...free.slice(start), ...free.slice(0, start)]) {
    if (await takeSlot(email, slot, now, holder)) return () => releaseSlot(email, slot, holder);
  }
  // Slots lost to concurrent senders were read as free: read them again to say when one frees.
  const wait = minutesUntilFree(free.length === 0 ? used : await readSlots(email), now);
  throw new TooManyRequestsError(RATE_LIMIT_MESSAGE, { reason: `The next message can be sent in about ${wait} minute${wait === 1 ? '' : 's'}.` });
};
