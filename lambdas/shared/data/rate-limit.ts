import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { stateTable } from '#contracts/tables.ts';
import { dynamo } from '../aws/dynamo.ts';
import type { HttpError } from '../errors.ts';
import { epochSeconds, tableName, writeIf } from './tables.ts';

/**
 * A sliding-window limit kept in the State table: never more than `perWindow` uses in any
 * `windowMs`. One item per partition and slot (pk <partition>, sk <slotPrefix><n>) holds when
 * the slot was last used. A slot can be taken only when that is at least a window ago, and
 * each use takes a slot, so no window holds more uses than there are slots. Conditional
 * writes on single items keep that true under concurrent requests without transactions;
 * the items expire through TTL a window after their use.
 */
export interface SlidingWindowLimit {
  /** Sort-key prefix of this limit's slots, e.g. 'CONTACT-SLOT#'; unique per limit within a partition. */
  readonly slotPrefix: string;
  readonly perWindow: number;
  readonly windowMs: number;
  /** The answer when every slot is in use; `minutes` until the first one frees (at least 1). */
  readonly refusal: (minutes: number) => HttpError;
}

/** Gives a slot back (the use did not happen); a slot taken again since is left alone. */
export type ReleaseSlot = () => Promise<void>;

const slotKey = (partition: string, limit: SlidingWindowLimit, slot: number) => ({
  pk: partition,
  sk: `${limit.slotPrefix}${slot}`,
});

/** When each slot of the partition was last taken (epoch ms); absent slots were never used or have expired. */
const readSlots = async (partition: string, limit: SlidingWindowLimit): Promise<Map<number, number>> => {
  const result = await dynamo.send(
    new QueryCommand({
      TableName: tableName(stateTable),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': partition, ':prefix': limit.slotPrefix },
      ConsistentRead: true,
    }),
  );
  const used = new Map<number, number>();
  for (const item of result.Items ?? []) {
    const slot = Number(String(item.sk).slice(limit.slotPrefix.length));
    if (typeof item.sentAt === 'number') used.set(slot, item.sentAt);
  }
  return used;
};

const takeSlot = (partition: string, limit: SlidingWindowLimit, slot: number, now: number, holder: string) =>
  writeIf(() =>
    dynamo.send(
      new PutCommand({
        TableName: tableName(stateTable),
        Item: {
          ...slotKey(partition, limit, slot),
          sentAt: now,
          holder,
          expiresAt: epochSeconds(new Date(now + limit.windowMs)),
        },
        ConditionExpression: 'attribute_not_exists(#sentAt) OR #sentAt <= :windowStart',
        ExpressionAttributeNames: { '#sentAt': 'sentAt' },
        ExpressionAttributeValues: { ':windowStart': now - limit.windowMs },
      }),
    ),
  );

const releaseSlot = async (partition: string, limit: SlidingWindowLimit, slot: number, holder: string) => {
  await writeIf(() =>
    dynamo.send(
      new DeleteCommand({
        TableName: tableName(stateTable),
        Key: slotKey(partition, limit, slot),
        ConditionExpression: '#holder = :holder',
        ExpressionAttributeNames: { '#holder': 'holder' },
        ExpressionAttributeValues: { ':holder': holder },
      }),
    ),
  );
};

const minutesUntilFree = (used: Map<number, number>, windowMs: number, now: number): number =>
  used.size === 0 ? 1 : Math.max(1, Math.ceil((Math.min(...used.values()) + windowMs - now) / 60_000));

/**
 * Takes one of the partition's slots for one use; throws `limit.refusal` when every slot was
 * used within the last window. Returns a function that gives the slot back when the use could
 * not happen after all.
 */
export const takeRateLimitSlot = async (limit: SlidingWindowLimit, partition: string): Promise<ReleaseSlot> => {
  const now = Date.now();
  const used = await readSlots(partition, limit);
  const slots = Array.from({ length: limit.perWindow }, (_, index) => index);
  const free = slots.filter((slot) => (used.get(slot) ?? 0) <= now - limit.windowMs);
  // Concurrent requests start at different slots, so fewer of their writes collide.
  const start = Math.floor(Math.random() * free.length);
  const holder = randomUUID();
  for (const slot of [...free.slice(start), ...free.slice(0, start)]) {
    if (await takeSlot(partition, limit, slot, now, holder)) return () => releaseSlot(partition, limit, slot, holder);
  }
  // Slots lost to concurrent requests were read as free: read them again to say when one frees.
  throw limit.refusal(
    minutesUntilFree(free.length === 0 ? used : await readSlots(partition, limit), limit.windowMs, now),
  );
};
