import { DeleteCommand, GetCommand, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { dashboardsTable } from '#contracts/tables.ts';
import { dynamo } from '../aws/dynamo.ts';
import { tableName, writeIf } from './tables.ts';

/** A catalogue record (GraphQL DashboardMetadata). */
export interface DashboardItem {
  id: string;
  dashboardId: string;
  dashboardName: string;
  dashboardLink: string;
  description?: string;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
  createdBy?: string;
  /** An admin confirmed that the dashboard, though not company-scoped, may reach several companies. */
  sharedData?: boolean;
}

export const getDashboard = async (id: string): Promise<DashboardItem | undefined> => {
  const result = await dynamo.send(
    new GetCommand({ TableName: tableName(dashboardsTable), Key: { id }, ConsistentRead: true }),
  );
  return result.Item as DashboardItem | undefined;
};

/** One page of the catalogue. The catalogue is a short list an admin curates, so it is scanned. */
export const pageDashboards = async (
  limit: number | undefined,
  startKey: Record<string, unknown> | undefined,
): Promise<{ items: DashboardItem[]; lastKey: Record<string, unknown> | undefined }> => {
  const page = await dynamo.send(
    new ScanCommand({ TableName: tableName(dashboardsTable), Limit: limit, ExclusiveStartKey: startKey }),
  );
  return { items: (page.Items ?? []) as DashboardItem[], lastKey: page.LastEvaluatedKey };
};

export const listDashboards = async (): Promise<DashboardItem[]> => {
  const items: DashboardItem[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await pageDashboards(undefined, startKey);
    items.push(...page.items);
    startKey = page.lastKey;
  } while (startKey !== undefined);
  return items;
};

/** Writes a new record; false when the id is taken. */
export const putNewDashboard = (item: DashboardItem): Promise<boolean> =>
  writeIf(() =>
    dynamo.send(
      new PutCommand({
        TableName: tableName(dashboardsTable),
        Item: item,
        ConditionExpression: 'attribute_not_exists(id)',
      }),
    ),
  );

/** Replaces a record if it is still the version that was read; false otherwise. */
export const replaceDashboard = (item: DashboardItem, readUpdatedAt: string): Promise<boolean> =>
  writeIf(() =>
    dynamo.send(
      new PutCommand({
        TableName: tableName(dashboardsTable),
        Item: item,
        ConditionExpression: 'updatedAt = :read',
        ExpressionAttributeValues: { ':read': readUpdatedAt },
      }),
    ),
  );

export const deleteDashboardRecord = async (id: string): Promise<void> => {
  await dynamo.send(new DeleteCommand({ TableName: tableName(dashboardsTable), Key: { id } }));
};
