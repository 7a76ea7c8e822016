import { createHash } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { VIEWS_BY_DASHBOARD_INDEX, VIEWS_BY_USER_INDEX, viewsTable } from '../../../contracts/tables.ts';
import { dynamo } from '../aws/dynamo.ts';
import { nowIso, tableName, writeIf } from './tables.ts';

/** A stored view (GraphQL TableauView without the derived isDefault). */
export interface ViewItem {
  id: string;
  userEmail: string;
  quicksightDashboardId: string;
  name: string;
  link?: string;
  companyName?: string;
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

const VIEW_ID_NAMESPACE = Buffer.from('6f1c2a0e8b3d4e57a9c01d2e3f405162', 'hex');

/**
 * The id of the view an admin assignment creates: a name-based UUID (v5) of the user and the
 * dashboard, so assigning the same dashboard twice, or retrying, lands on the same item.
 */
export const assignedViewId = (userEmail: string, dashboardId: string): string => {
  const hash = createHash('sha1').update(VIEW_ID_NAMESPACE).update(`${userEmail.toLowerCase()}\n${dashboardId}`).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
};

const queryAll = async (input: Omit<QueryCommandInput, 'TableName'>): Promise<ViewItem[]> => {
  const items: ViewItem[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(new QueryCommand({ ...input, TableName: tableName(viewsTable), ExclusiveStartKey: startKey }));
    items.push(...((page.Items ?? []) as ViewItem[]));
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

/** Whether a query finds anything: one item read at most. */
const anyMatch = async (input: Omit<QueryCommandInput, 'TableName' | 'Limit'>): Promise<boolean> => {
  const page = await dynamo.send(new QueryCommand({ ...input, TableName: tableName(viewsTable), Limit: 1 }));
  return (page.Items?.length ?? 0) > 0;
};

/** Whether the user holds at least one view of the dashboard. */
export const hasViewOfDashboard = (userEmail: string, dashboardId: string): Promise<boolean> =>
  anyMatch({
    IndexName: VIEWS_BY_USER_INDEX,
    KeyConditionExpression: 'userEmail = :email AND quicksightDashboardId = :dashboard',
    ExpressionAttributeValues: { ':email': userEmail, ':dashboard': dashboardId },
  });

export const viewsOfDashboard = (dashboardId: string): Promise<ViewItem[]> =>
  queryAll({
    IndexName: VIEWS_BY_DASHBOARD_INDEX,
    KeyConditionExpression: 'quicksightDashboardId = :dashboard',
    ExpressionAttributeValues: { ':dashboard': dashboardId },
  });

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
  return { items: (page.Items ?? []) as ViewItem[], lastKey: page.LastEvaluatedKey };
};

export const getView = async (id: string): Promise<ViewItem | undefined> => {
  const result = await dynamo.send(new GetCommand({ TableName: tableName(viewsTable), Key: { id }, ConsistentRead: true }));
  return result.Item as ViewItem | undefined;
};

export interface AssignedViewFields {
  userEmail: string;
  dashboardId: string;
  name: string;
  link: string;
  companyName?: string;
  actor: string;
}

/** Creates or refreshes the view of an admin assignment (idempotent: same id every time). */
export const upsertAssignedView = async (fields: AssignedViewFields): Promise<ViewItem> => {
  const now = nowIso();
  const result = await dynamo.send(
    new UpdateCommand({
      TableName: tableName(viewsTable),
      Key: { id: assignedViewId(fields.userEmail, fields.dashboardId) },
      UpdateExpression:
        'SET userEmail = :email, quicksightDashboardId = :dashboard, #name = :name, link = :link, updatedAt = :now, ' +
        'createdAt = if_not_exists(createdAt, :now), createdBy = if_not_exists(createdBy, :actor)' +
        (fields.companyName ? ', companyName = :company' : ''),
      ExpressionAttributeNames: { '#name': 'name' },
      ExpressionAttributeValues: {
        ':email': fields.userEmail,
        ':dashboard': fields.dashboardId,
        ':name': fields.name,
        ':link': fields.link,
        ':now': now,
        ':actor': fields.actor,
        ...(fields.companyName ? { ':company': fields.companyName } : {}),
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return result.Attributes as ViewItem;
};

/** Stores a new view; false when the id is taken. */
export const putNewView = (item: ViewItem): Promise<boolean> =>
  writeIf(() => dynamo.send(new PutCommand({ TableName: tableName(viewsTable), Item: item, ConditionExpression: 'attribute_not_exists(id)' })));

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
