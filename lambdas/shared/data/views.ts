import { randomUUID } from 'node:crypto';
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { stateTable, VIEWS_BY_DASHBOARD_INDEX, VIEWS_BY_USER_INDEX, viewsTable } from '#contracts/tables.ts';
import { dynamo } from '../aws/dynamo.ts';
import { ConflictError } from '../errors.ts';
import { isConditionFailure, nowIso, tableName, writeIf } from './tables.ts';

/**
 * A stored view (GraphQL TableauView without the derived isDefault and companyName). A view
 * refers to its user only: the user's companies are their membership's ids, and the names
 * shown with a view are read from the company records where it is shown.
 */
export interface ViewItem {
  id: string;
  userEmail: string;
  quicksightDashboardId: string;
  name: string;
  link?: string;
  createdAt: string;
  updatedAt: string;
  createdBy?: string;
}

/** Start key of a page of one user's views on the byUserEmail index. */
export interface UserViewsKey extends Record<string, unknown> {
  id: string;
  userEmail: string;
  quicksightDashboardId: string;
}

/**
 * A view as read: the company label older versions copied onto each view is left out (it went
 * stale on every rename and move); an assignment written again removes it from the item.
 */
const asView = (item: Record<string, unknown>): ViewItem => {
  const { companyName: _legacyLabel, ...view } = item;
  return view as unknown as ViewItem;
};
const asViews = (items: Record<string, unknown>[] | undefined): ViewItem[] => (items ?? []).map(asView);

const queryAll = async (input: Omit<QueryCommandInput, 'TableName'>): Promise<ViewItem[]> => {
  const items: ViewItem[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(
      new QueryCommand({ ...input, TableName: tableName(viewsTable), ExclusiveStartKey: startKey }),
    );
    items.push(...asViews(page.Items));
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);
  return items;
};

export const viewsOfUser = (userEmail: string): Promise<ViewItem[]> =>
  queryAll({
    IndexName: VIEWS_BY_USER_INDEX,
    KeyConditionExpression: 'userEmail = :email',
    ExpressionAttributeValues: { ':email': userEmail },
  });

/** One user's views of one dashboard (several only when created through GraphQL). */
export const viewsOfUserForDashboard = (userEmail: string, dashboardId: string): Promise<ViewItem[]> =>
  queryAll({
    IndexName: VIEWS_BY_USER_INDEX,
    KeyConditionExpression: 'userEmail = :email AND quicksightDashboardId = :dashboard',
    ExpressionAttributeValues: { ':email': userEmail, ':dashboard': dashboardId },
  });

/** The first item a query finds: one item read at most. */
const firstMatch = async (input: Omit<QueryCommandInput, 'TableName' | 'Limit'>): Promise<ViewItem | undefined> => {
  const page = await dynamo.send(new QueryCommand({ ...input, TableName: tableName(viewsTable), Limit: 1 }));
  return page.Items?.[0] === undefined ? undefined : asView(page.Items[0]);
};

/** Whether a query finds anything: one item read at most. */
const anyMatch = async (input: Omit<QueryCommandInput, 'TableName' | 'Limit'>): Promise<boolean> =>
  (await firstMatch(input)) !== undefined;

/** One of the user's views of the dashboard (its Company Name says through which assignment), if any. */
export const viewOfDashboard = (userEmail: string, dashboardId: string): Promise<ViewItem | undefined> =>
  firstMatch({
    IndexName: VIEWS_BY_USER_INDEX,
    KeyConditionExpression: 'userEmail = :email AND quicksightDashboardId = :dashboard',
    ExpressionAttributeValues: { ':email': userEmail, ':dashboard': dashboardId },
  });

/** Whether the user holds at least one view of the dashboard. */
export const hasViewOfDashboard = async (userEmail: string, dashboardId: string): Promise<boolean> =>
  (await viewOfDashboard(userEmail, dashboardId)) !== undefined;

export const viewsOfDashboard = (dashboardId: string): Promise<ViewItem[]> =>
  queryAll({
    IndexName: VIEWS_BY_DASHBOARD_INDEX,
    KeyConditionExpression: 'quicksightDashboardId = :dashboard',
    ExpressionAttributeValues: { ':dashboard': dashboardId },
  });

/** Up to `limit` views of a dashboard whose user's email sorts after `afterEmail`, in email order. */
export const pageViewsOfDashboard = async (
  dashboardId: string,
  afterEmail: string | undefined,
  limit: number,
): Promise<{ items: ViewItem[]; more: boolean }> => {
  const page = await dynamo.send(
    new QueryCommand({
      TableName: tableName(viewsTable),
      IndexName: VIEWS_BY_DASHBOARD_INDEX,
      KeyConditionExpression:
        afterEmail === undefined
          ? 'quicksightDashboardId = :dashboard'
          : 'quicksightDashboardId = :dashboard AND userEmail > :after',
      ExpressionAttributeValues: {
        ':dashboard': dashboardId,
        ...(afterEmail === undefined ? {} : { ':after': afterEmail }),
      },
      Limit: limit,
    }),
  );
  return { items: asViews(page.Items), more: page.LastEvaluatedKey !== undefined };
};

export const isDashboardAssigned = (dashboardId: string): Promise<boolean> =>
  anyMatch({
    IndexName: VIEWS_BY_DASHBOARD_INDEX,
    KeyConditionExpression: 'quicksightDashboardId = :dashboard',
    ExpressionAttributeValues: { ':dashboard': dashboardId },
  });

/** One page of a user's views on the user index (never a Scan). */
export const pageViewsOfUser = async (
  userEmail: string,
  limit: number,
  startKey: UserViewsKey | undefined,
): Promise<{ items: ViewItem[]; lastKey: Record<string, unknown> | undefined }> => {
  const page = await dynamo.send(
    new QueryCommand({
      TableName: tableName(viewsTable),
      IndexName: VIEWS_BY_USER_INDEX,
      KeyConditionExpression: 'userEmail = :email',
      ExpressionAttributeValues: { ':email': userEmail },
      Limit: limit,
      ExclusiveStartKey: startKey,
    }),
  );
  return { items: asViews(page.Items), lastKey: page.LastEvaluatedKey };
};

export const getView = async (id: string): Promise<ViewItem | undefined> => {
  const result = await dynamo.send(
    new GetCommand({ TableName: tableName(viewsTable), Key: { id }, ConsistentRead: true }),
  );
  return result.Item === undefined ? undefined : asView(result.Item);
};

/** A new view's id: random, so it tells nothing about whose view it is or of what. */
export const newViewId = (): string => randomUUID();

/**
 * Stores a view under an id from newViewId. The condition makes sure no existing item is
 * ever overwritten; a random UUID colliding is not an answer a caller can get, so it fails
 * as an internal error.
 */
export const putNewView = async (item: ViewItem): Promise<void> => {
  const stored = await writeIf(() =>
    dynamo.send(
      new PutCommand({ TableName: tableName(viewsTable), Item: item, ConditionExpression: 'attribute_not_exists(id)' }),
    ),
  );
  if (!stored) throw new Error('A generated view id is already in use');
};

/**
 * Every view id is random (server-made, never from input), so an id says nothing about its
 * user or dashboard. The view an admin assignment wrote is found through a claim item in the
 * state table (pk USER#<email>, sk ASSIGNED#<dashboard id>, viewId): assigning again
 * refreshes that view only, never one the assignment did not write, and the conditional
 * claim keeps one assigned view per (user, dashboard) without transactions.
 */
const claimKey = (userEmail: string, dashboardId: string) => ({
  pk: `USER#${userEmail}`,
  sk: `ASSIGNED#${dashboardId}`,
});

/** The id of the view the admin's assignment of the dashboard wrote, if it still has one. */
export const claimedViewId = async (userEmail: string, dashboardId: string): Promise<string | undefined> => {
  const result = await dynamo.send(
    new GetCommand({ TableName: tableName(stateTable), Key: claimKey(userEmail, dashboardId), ConsistentRead: true }),
  );
  const viewId = result.Item?.viewId;
  return typeof viewId === 'string' ? viewId : undefined;
};

/** Points the claim at `viewId`, only if it still holds what was read (`previous`, or nothing). */
const claimView = (
  userEmail: string,
  dashboardId: string,
  viewId: string,
  previous: string | undefined,
): Promise<boolean> =>
  writeIf(() =>
    dynamo.send(
      new PutCommand({
        TableName: tableName(stateTable),
        Item: { ...claimKey(userEmail, dashboardId), viewId, claimedAt: nowIso() },
        ConditionExpression: previous === undefined ? 'attribute_not_exists(pk)' : 'viewId = :previous',
        ExpressionAttributeValues: previous === undefined ? undefined : { ':previous': previous },
      }),
    ),
  );

/** Forgets the assignment's view of a dashboard (idempotent), once its views are gone. */
export const releaseAssignedView = async (userEmail: string, dashboardId: string): Promise<void> => {
  await dynamo.send(new DeleteCommand({ TableName: tableName(stateTable), Key: claimKey(userEmail, dashboardId) }));
};

export interface AssignedViewFields {
  userEmail: string;
  dashboardId: string;
  name: string;
  link: string;
  actor: string;
}

/**
 * Refreshes the labels of the claimed view; undefined when it is gone or no longer this user's view of this
 * dashboard.
 */
const refreshClaimedView = async (viewId: string, fields: AssignedViewFields): Promise<ViewItem | undefined> => {
  try {
    const output = await dynamo.send(
      new UpdateCommand({
        TableName: tableName(viewsTable),
        Key: { id: viewId },
        UpdateExpression: 'SET #name = :name, link = :link, updatedAt = :now REMOVE companyName',
        ConditionExpression: 'userEmail = :email AND quicksightDashboardId = :dashboard',
        ExpressionAttributeNames: { '#name': 'name' },
        ExpressionAttributeValues: {
          ':email': fields.userEmail,
          ':dashboard': fields.dashboardId,
          ':name': fields.name,
          ':link': fields.link,
          ':now': nowIso(),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return output.Attributes === undefined ? undefined : asView(output.Attributes);
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
};

const ASSIGNMENT_CHANGED = 'Another change to this assignment is in progress. Please try again.';

/**
 * Creates or refreshes the view of an admin assignment (idempotent: assigning again, or
 * retrying, lands on the same view). The claim is taken before the view is written: a
 * failure in between leaves a claim on a missing view, which the next attempt replaces,
 * where the other order could leave a second view behind.
 */
export const upsertAssignedView = async (fields: AssignedViewFields): Promise<ViewItem> => {
  const claimed = await claimedViewId(fields.userEmail, fields.dashboardId);
  if (claimed !== undefined) {
    const refreshed = await refreshClaimedView(claimed, fields);
    if (refreshed !== undefined) return refreshed;
  }
  const now = nowIso();
  const view: ViewItem = {
    id: newViewId(),
    userEmail: fields.userEmail,
    quicksightDashboardId: fields.dashboardId,
    name: fields.name,
    link: fields.link,
    createdAt: now,
    updatedAt: now,
    createdBy: fields.actor,
  };
  if (!(await claimView(fields.userEmail, fields.dashboardId, view.id, claimed)))
    throw new ConflictError(ASSIGNMENT_CHANGED);
  await putNewView(view);
  return view;
};

/**
 * Replaces a view if it is still the version that was read (optimistic lock on updatedAt);
 * false when another write came first.
 */
export const replaceView = (item: ViewItem, readUpdatedAt: string): Promise<boolean> =>
  writeIf(() =>
    dynamo.send(
      new PutCommand({
        TableName: tableName(viewsTable),
        Item: item,
        ConditionExpression: 'updatedAt = :read',
        ExpressionAttributeValues: { ':read': readUpdatedAt },
      }),
    ),
  );

/** Deletes a view (idempotent). With `readUpdatedAt`, only the version that was read. */
export const deleteView = (id: string, readUpdatedAt?: string): Promise<boolean> =>
  writeIf(() =>
    dynamo.send(
      new DeleteCommand({
        TableName: tableName(viewsTable),
        Key: { id },
        ...(readUpdatedAt === undefined
          ? {}
          : { ConditionExpression: 'updatedAt = :read', ExpressionAttributeValues: { ':read': readUpdatedAt } }),
      }),
    ),
  );

/** Sets name and link on a view that still exists; false when it is gone or already current. */
export const refreshViewLabels = (id: string, name: string, link: string): Promise<boolean> =>
  writeIf(() =>
    dynamo.send(
      new UpdateCommand({
        TableName: tableName(viewsTable),
        Key: { id },
        UpdateExpression: 'SET #name = :name, link = :link, updatedAt = :now',
        ConditionExpression: 'attribute_exists(id) AND (#name <> :name OR link <> :link OR attribute_not_exists(link))',
        ExpressionAttributeNames: { '#name': 'name' },
        ExpressionAttributeValues: { ':name': name, ':link': link, ':now': nowIso() },
      }),
    ),
  );
