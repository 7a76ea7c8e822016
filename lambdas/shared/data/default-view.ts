import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { stateTable } from '#contracts/tables.ts';
import { dynamo } from '../aws/dynamo.ts';
import { nowIso, tableName, writeIf } from './tables.ts';

/**
 * A user's default view is ONE pointer item (pk USER#<email>, sk DEFAULT) rather than a flag
 * on each view: "at most one default" then holds by construction, also under concurrent
 * writes, without transactions. A pointer to a view that no longer exists means "no default".
 */
const pointerKey = (userEmail: string) => ({ pk: `USER#${userEmail}`, sk: 'DEFAULT' });

export const getDefaultViewId = async (userEmail: string): Promise<string | undefined> => {
  const result = await dynamo.send(
    new GetCommand({ TableName: tableName(stateTable), Key: pointerKey(userEmail), ConsistentRead: true }),
  );
  const viewId = result.Item?.viewId;
  return typeof viewId === 'string' ? viewId : undefined;
};

export const setDefaultView = async (userEmail: string, viewId: string): Promise<void> => {
  await dynamo.send(
    new PutCommand({
      TableName: tableName(stateTable),
      Item: { ...pointerKey(userEmail), viewId, updatedAt: nowIso() },
    }),
  );
};

/** Clears the pointer only if it still designates this view (a concurrent change wins). */
export const clearDefaultIfPointsTo = async (userEmail: string, viewId: string): Promise<void> => {
  await writeIf(() =>
    dynamo.send(
      new DeleteCommand({
        TableName: tableName(stateTable),
        Key: pointerKey(userEmail),
        ConditionExpression: 'viewId = :view',
        ExpressionAttributeValues: { ':view': viewId },
      }),
    ),
  );
};

/** Removes the pointer whatever it designates (the user's views are all going). */
export const clearDefault = async (userEmail: string): Promise<void> => {
  await dynamo.send(new DeleteCommand({ TableName: tableName(stateTable), Key: pointerKey(userEmail) }));
};
