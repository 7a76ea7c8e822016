import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  MAX_SUBSCRIPTIONS_PER_USER,
  type CreateSubscriptionInput,
  type Subscription,
  type SubscriptionSchedule,
} from '#contracts/subscriptions.ts';
import { stateTable } from '#contracts/tables.ts';
import { dynamo } from '../aws/dynamo.ts';
import { nextDeliveryAfter } from '../subscriptions/schedule.ts';
import { withLease } from './lease.ts';
import { DUE, PARTITION, type SubscriptionItem, toItem } from './subscription-items.ts';
import { isConditionFailure, tableName, writeIf } from './tables.ts';

/**
 * Subscriptions in the State table. Every subscription is one item of one partition
 * (pk SUBSCRIPTIONS, sk <email>#<id>), so a user's are one query on the sort key's prefix and
 * an administrator's list is one paged query. An active subscription also carries `dueKey`
 * (DUE) and `dueAt` (its next delivery or retry, ISO UTC): the sparse index
 * {@link STATE_DUE_INDEX} holds only those, by time, and is what the delivery function reads.
 * The per-user limit needs no transaction (local mode's DynamoDB, dynalite, has none): a create
 * counts the user's subscriptions and writes the new one while holding the user's subscription
 * lease (lease.ts), so two creates never pass the limit together; a delete frees a place.
 */
const subscriptionKey = (email: string, id: string) => ({ pk: PARTITION, sk: `${email}#${id}` });
const subscriptionsLease = (email: string) => `SUBSCRIPTIONS#${email}`;

export class TooManySubscriptionsError extends Error {
  constructor() {
    super(`At most ${MAX_SUBSCRIPTIONS_PER_USER} subscriptions per user`);
    this.name = 'TooManySubscriptionsError';
  }
}

/** The public shape, without the recipient and the retry count. */
export const publicSubscription = ({
  email: _email,
  attempts: _attempts,
  dueAt: _dueAt,
  ...subscription
}: SubscriptionItem): Subscription => subscription;

export const scheduleOf = (subscription: SubscriptionSchedule): SubscriptionSchedule => ({
  frequency: subscription.frequency,
  weekday: subscription.weekday ?? null,
  dayOfMonth: subscription.dayOfMonth ?? null,
  time: subscription.time,
  timeZone: subscription.timeZone,
});

/** Stores a new active subscription for `email`, refused past the per-user limit. */
export const createSubscription = async (
  email: string,
  input: CreateSubscriptionInput,
  dashboardName: string | null,
  now = new Date(),
): Promise<SubscriptionItem> => {
  const id = randomUUID();
  const next = nextDeliveryAfter(input, now).toISOString();
  const item: Record<string, unknown> = {
    ...subscriptionKey(email, id),
    id,
    email,
    dashboardId: input.dashboardId,
    dashboardName,
    format: input.format,
    ...scheduleOf(input),
    company: input.company ?? null,
    status: 'ACTIVE',
    nextDeliveryAt: next,
    attempts: 0,
    createdAt: now.toISOString(),
    dueKey: DUE,
    dueAt: next,
  };
  return withLease(subscriptionsLease(email), async () => {
    if ((await countOf(email)) >= MAX_SUBSCRIPTIONS_PER_USER) throw new TooManySubscriptionsError();
    await dynamo.send(
      new PutCommand({ TableName: tableName(stateTable), Item: item, ConditionExpression: 'attribute_not_exists(sk)' }),
    );
    return toItem(item);
  });
};

const queryAll = async (input: ConstructorParameters<typeof QueryCommand>[0]): Promise<Record<string, unknown>[]> => {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
  return items;
};

const ofUser = (email: string) => ({
  TableName: tableName(stateTable),
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
  ExpressionAttributeValues: { ':pk': PARTITION, ':prefix': `${email}#` },
});

/** How many subscriptions a user has (a count query: no item is returned). */
const countOf = async (email: string): Promise<number> => {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(new QueryCommand({ ...ofUser(email), Select: 'COUNT', ExclusiveStartKey: start }));
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
  return count;
};

/** A user's subscriptions, oldest first. */
export const subscriptionsOf = async (email: string): Promise<SubscriptionItem[]> =>
  (await queryAll(ofUser(email))).map(toItem).sort((a, b) => a.createdAt.localeCompare(b.createdAt));

/** Every subscription, by recipient. */
export const allSubscriptions = async (): Promise<SubscriptionItem[]> =>
  (
    await queryAll({
      TableName: tableName(stateTable),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': PARTITION },
    })
  ).map(toItem);

export const getSubscription = async (email: string, id: string): Promise<SubscriptionItem | undefined> => {
  const answer = await dynamo.send(
    new GetCommand({ TableName: tableName(stateTable), Key: subscriptionKey(email, id) }),
  );
  return answer.Item ? toItem(answer.Item) : undefined;
};

/** Finds a subscription by id alone (administrators' actions): one query of the partition. */
export const findSubscription = async (id: string): Promise<SubscriptionItem | undefined> =>
  (await allSubscriptions()).find((subscription) => subscription.id === id);

/** Pauses (no delivery, out of the due index) or resumes (due at its next time from now) a subscription. */
export const setPaused = async (
  subscription: SubscriptionItem,
  paused: boolean,
  now = new Date(),
): Promise<SubscriptionItem | undefined> => {
  const next = nextDeliveryAfter(subscription, now).toISOString();
  try {
    const answer = await dynamo.send(
      new UpdateCommand({
        TableName: tableName(stateTable),
        Key: subscriptionKey(subscription.email, subscription.id),
        ConditionExpression: 'attribute_exists(sk)',
        ...(paused
          ? {
              UpdateExpression: 'SET #status = :paused, nextDeliveryAt = :none REMOVE dueKey, dueAt',
              ExpressionAttributeValues: { ':paused': 'PAUSED', ':none': null },
            }
          : {
              UpdateExpression:
                'SET #status = :active, nextDeliveryAt = :next, dueKey = :due, dueAt = :next, attempts = :zero',
              ExpressionAttributeValues: { ':active': 'ACTIVE', ':next': next, ':due': DUE, ':zero': 0 },
            }),
        ExpressionAttributeNames: { '#status': 'status' },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return answer.Attributes ? toItem(answer.Attributes) : undefined;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
};

/**
 * Makes an active subscription due at `now` (an administrator's Send now): the next delivery run
 * takes it; its schedule and next regular delivery are unchanged. Undefined, changing nothing,
 * when it is gone or paused.
 */
export const markDueNow = async (
  subscription: SubscriptionItem,
  now = new Date(),
): Promise<SubscriptionItem | undefined> => {
  try {
    const answer = await dynamo.send(
      new UpdateCommand({
        TableName: tableName(stateTable),
        Key: subscriptionKey(subscription.email, subscription.id),
        UpdateExpression: 'SET dueAt = :now',
        ConditionExpression: 'attribute_exists(sk) AND #status = :active AND dueKey = :due',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':now': now.toISOString(), ':active': 'ACTIVE', ':due': DUE },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return answer.Attributes ? toItem(answer.Attributes) : undefined;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
};

/** Deletes a subscription and frees its place under the limit; false when it was already gone. */
export const deleteSubscription = (email: string, id: string): Promise<boolean> =>
  writeIf(() =>
    dynamo.send(
      new DeleteCommand({
        TableName: tableName(stateTable),
        Key: subscriptionKey(email, id),
        ConditionExpression: 'attribute_exists(sk)',
      }),
    ),
  );

/**
 * Takes a due subscription for one delivery attempt: its due time moves `leaseMs` ahead, on the
 * condition that it is still the one read, so two runs never deliver the same one twice. False
 * when another run took it, or it was paused or deleted meanwhile.
 */
export const claimDelivery = async (subscription: SubscriptionItem, dueAt: string, now: Date, leaseMs: number) => {
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName(stateTable),
        Key: subscriptionKey(subscription.email, subscription.id),
        UpdateExpression: 'SET dueAt = :lease',
        ConditionExpression: 'dueKey = :due AND dueAt = :read',
        ExpressionAttributeValues: {
          ':lease': new Date(now.getTime() + leaseMs).toISOString(),
          ':due': DUE,
          ':read': dueAt,
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

export type DeliveryRecord =
  | { readonly outcome: 'DELIVERED' }
  | { readonly outcome: 'RETRYING'; readonly error: string; readonly retryAt: Date }
  | { readonly outcome: 'FAILED'; readonly error: string };

/**
 * Records an attempt's outcome. Delivered or failed for good: the next delivery is the schedule's
 * next time and the retry count starts again; retrying: due again at `retryAt`, one more attempt
 * counted, the regular next time unchanged. Nothing when the subscription is gone or paused.
 */
export const recordDelivery = async (subscription: SubscriptionItem, record: DeliveryRecord, now = new Date()) => {
  const next = nextDeliveryAfter(subscription, now).toISOString();
  const values: Record<string, unknown> = { ':outcome': record.outcome, ':due': DUE };
  let update: string;
  if (record.outcome === 'RETRYING') {
    update = 'SET lastOutcome = :outcome, lastError = :error, dueAt = :retry, attempts = attempts + :one';
    Object.assign(values, { ':error': record.error, ':retry': record.retryAt.toISOString(), ':one': 1 });
  } else {
    update =
      'SET lastOutcome = :outcome, lastError = :error, lastDeliveryAt = :at, nextDeliveryAt = :next, dueAt = :next, attempts = :zero';
    Object.assign(values, {
      ':at': now.toISOString(),
      ':error': record.outcome === 'FAILED' ? record.error : null,
      ':next': next,
      ':zero': 0,
    });
  }
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName(stateTable),
        Key: subscriptionKey(subscription.email, subscription.id),
        UpdateExpression: update,
        ConditionExpression: 'dueKey = :due',
        ExpressionAttributeValues: values,
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
};
