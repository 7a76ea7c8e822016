import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DeliveryOutcome, Subscription } from '#contracts/subscriptions.ts';
import { STATE_DUE_INDEX, stateTable } from '#contracts/tables.ts';
import { dynamo } from '../aws/dynamo.ts';
import { tableName } from './tables.ts';

/**
 * A stored subscription as read back, and the query of those due: all the delivery schedule
 * loads on a run with nothing due (the schedule rules, the contract's schemas and the clients
 * that make and mail a file load only when something is). How they are kept: subscriptions.ts.
 */
export const PARTITION = 'SUBSCRIPTIONS';
/** The due index's one partition key: only active subscriptions carry it. */
export const DUE = 'DUE';

/** A stored subscription: the public shape and who receives it, with the retry count. */
export interface SubscriptionItem extends Subscription {
  readonly email: string;
  readonly attempts: number;
  /** When the delivery function takes it next (its next delivery, a retry, or a run's lease); null when paused. */
  readonly dueAt: string | null;
}

const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export const toItem = (item: Record<string, unknown>): SubscriptionItem => ({
  id: String(item.id),
  email: String(item.email),
  dashboardId: String(item.dashboardId),
  dashboardName: stringOrNull(item.dashboardName),
  format: item.format as Subscription['format'],
  frequency: item.frequency as Subscription['frequency'],
  weekday: (stringOrNull(item.weekday) as Subscription['weekday']) ?? null,
  dayOfMonth: typeof item.dayOfMonth === 'number' ? item.dayOfMonth : null,
  time: String(item.time),
  timeZone: String(item.timeZone),
  company: stringOrNull(item.company),
  status: item.status === 'PAUSED' ? 'PAUSED' : 'ACTIVE',
  nextDeliveryAt: stringOrNull(item.nextDeliveryAt),
  lastDeliveryAt: stringOrNull(item.lastDeliveryAt),
  lastOutcome: stringOrNull(item.lastOutcome) as DeliveryOutcome | null,
  lastError: stringOrNull(item.lastError),
  createdAt: String(item.createdAt),
  attempts: typeof item.attempts === 'number' ? item.attempts : 0,
  dueAt: stringOrNull(item.dueAt),
});

/** Active subscriptions due at `now` (next delivery or retry time passed), earliest first, at most `limit`. */
export const dueSubscriptions = async (now: Date, limit: number): Promise<SubscriptionItem[]> => {
  const answer = await dynamo.send(
    new QueryCommand({
      TableName: tableName(stateTable),
      IndexName: STATE_DUE_INDEX,
      KeyConditionExpression: 'dueKey = :due AND dueAt <= :now',
      ExpressionAttributeValues: { ':due': DUE, ':now': now.toISOString() },
      Limit: limit,
    }),
  );
  return (answer.Items ?? []).map(toItem);
};
