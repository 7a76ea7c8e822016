import { DeleteCommand, GetCommand, PutCommand, QueryCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditTable,
  dashboardsTable,
  stateTable,
  usageTable,
  VIEWS_BY_DASHBOARD_INDEX,
  VIEWS_BY_USER_INDEX,
  viewsTable,
} from '#contracts/tables.ts';
import { startDynamoDbTarget, type DynamoDbTarget } from './support/dynamodb-target.ts';
import { scratchName } from './support/target.ts';

/**
 * DynamoDB as the handlers' data layer (lambdas/shared/data/*.ts, lambdas/contact/rate-limit.ts)
 * uses it, through @aws-sdk/lib-dynamodb like the handlers. Runs against dynalite as local
 * mode starts it, and unchanged against scratch tables in an account
 * (`npm run conformance -- --aws`).
 */
let db: DynamoDbTarget;

beforeAll(async () => {
  db = await startDynamoDbTarget();
  // The first start may synthesize the app for the functions' role policies (support/front-door.ts).
}, 300_000);
afterAll(async () => {
  await db?.close();
});

const VIEWS = () => db.tableName(viewsTable);
const DASHBOARDS = () => db.tableName(dashboardsTable);
const STATE = () => db.tableName(stateTable);
const AUDIT = () => db.tableName(auditTable);
const USAGE = () => db.tableName(usageTable);

/** The error a request was refused with (an Error saying so when it was accepted). */
const refusal = (request: Promise<unknown>): Promise<unknown> =>
  request.then(
    () => new Error('The request was accepted'),
    (error: unknown) => error,
  );

/** What lambdas/shared/data/tables.ts (isConditionFailure) recognises as a failed condition. */
const CONDITION_FAILED = { name: 'ConditionalCheckFailedException', $metadata: { httpStatusCode: 400 } };
const VALIDATION = { name: 'ValidationException', $metadata: { httpStatusCode: 400 } };

/** The suite's own check of what a table holds (no function reads every table it writes). */
const read = async (TableName: string, Key: Record<string, unknown>) =>
  (await db.operator.send(new GetCommand({ TableName, Key, ConsistentRead: true }))).Item;

const view = (id: string, userEmail: string, quicksightDashboardId: string) => ({
  id,
  userEmail,
  quicksightDashboardId,
  name: `View ${id}`,
  link: `https://example.com/${quicksightDashboardId}`,
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-01T00:00:00.000Z',
});

// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PutItem.html
describe('PutItem', () => {
  it('PutItem: attribute_not_exists on the key writes a new item; on an existing one it is refused with ConditionalCheckFailedException and writes nothing', async () => {
    // catalogue.ts putNewDashboard, views.ts putNewView, audit.ts writeAuditEntry.
    const id = scratchName('dashboard');
    const first = { id, dashboardId: 'sales', dashboardName: 'Sales', isActive: true };
    await db.client.send(
      new PutCommand({ TableName: DASHBOARDS(), Item: first, ConditionExpression: 'attribute_not_exists(id)' }),
    );
    expect(await read(DASHBOARDS(), { id })).toEqual(first);

    const error = await refusal(
      db.client.send(
        new PutCommand({
          TableName: DASHBOARDS(),
          Item: { ...first, dashboardName: 'Other' },
          ConditionExpression: 'attribute_not_exists(id)',
        }),
      ),
    );
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject(CONDITION_FAILED);
    expect(await read(DASHBOARDS(), { id })).toEqual(first);
  });

  it('PutItem: a comparison ConditionExpression (updatedAt = :read) replaces the item while it holds, and is refused when it does not or the item is gone', async () => {
    // views.ts replaceView and catalogue.ts replaceDashboard: optimistic lock on updatedAt.
    const id = scratchName('view');
    const base = view(id, 'lock@example.com', 'sales');
    const original = { ...base, companyName: 'Example' };
    await db.client.send(new PutCommand({ TableName: VIEWS(), Item: original }));

    const replace = (item: Record<string, unknown>, readUpdatedAt: string) =>
      db.client.send(
        new PutCommand({
          TableName: VIEWS(),
          Item: item,
          ConditionExpression: 'updatedAt = :read',
          ExpressionAttributeValues: { ':read': readUpdatedAt },
        }),
      );

    // The whole item is replaced: an attribute the new item leaves out is gone.
    const renamed = { ...base, name: 'Renamed', updatedAt: '2024-01-02T00:00:00.000Z' };
    await replace(renamed, original.updatedAt);
    expect(await read(VIEWS(), { id })).toEqual(renamed);

    // A writer that read the first version loses.
    expect(await refusal(replace({ ...original, name: 'Stale' }, original.updatedAt))).toMatchObject(CONDITION_FAILED);
    expect(await read(VIEWS(), { id })).toEqual(renamed);

    // On an item that does not exist the comparison is false: refused, nothing written.
    await db.client.send(new DeleteCommand({ TableName: VIEWS(), Key: { id } }));
    expect(await refusal(replace(renamed, renamed.updatedAt))).toMatchObject(CONDITION_FAILED);
    expect(await read(VIEWS(), { id })).toBeUndefined();
  });

  it('PutItem: attribute_not_exists(pk) OR metadataId = :id lets the holder put again and refuses anyone else; metadataId = :stale AND claimedAt = :claimedAt takes over only the version read', async () => {
    // dashboard-claims.ts claimDashboardId.
    const key = { pk: `DASHBOARD#${scratchName('sales')}`, sk: 'CLAIM' };
    const claim = (metadataId: string, claimedAt: number, expression: string, values: Record<string, unknown>) =>
      db.client.send(
        new PutCommand({
          TableName: STATE(),
          Item: { ...key, metadataId, claimedAt },
          ConditionExpression: expression,
          ExpressionAttributeValues: values,
        }),
      );
    const mine = (metadataId: string, claimedAt: number) =>
      claim(metadataId, claimedAt, 'attribute_not_exists(pk) OR metadataId = :id', { ':id': metadataId });

    await mine('record-a', 1000);
    await mine('record-a', 2000);
    expect(await read(STATE(), key)).toEqual({ ...key, metadataId: 'record-a', claimedAt: 2000 });
    expect(await refusal(mine('record-b', 3000))).toMatchObject(CONDITION_FAILED);
    expect(await read(STATE(), key)).toEqual({ ...key, metadataId: 'record-a', claimedAt: 2000 });

    const takeOver = (claimedAt: number) =>
      claim('record-b', 4000, 'metadataId = :stale AND claimedAt = :claimedAt', {
        ':stale': 'record-a',
        ':claimedAt': claimedAt,
      });
    expect(await refusal(takeOver(1000))).toMatchObject(CONDITION_FAILED);
    await takeOver(2000);
    expect(await read(STATE(), key)).toEqual({ ...key, metadataId: 'record-b', claimedAt: 4000 });
  });

  it('PutItem: a number comparison (expiresAt < :now) lets an expired item be replaced and refuses a current one', async () => {
    // lease.ts tryAcquire: 'attribute_not_exists(pk) OR expiresAt < :now'.
    const key = { pk: `LEASE#${scratchName('assignment')}`, sk: 'LEASE' };
    const acquire = (holder: string, now: number) =>
      db.client.send(
        new PutCommand({
          TableName: STATE(),
          Item: { ...key, holder, expiresAt: now + 30 },
          ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now',
          ExpressionAttributeValues: { ':now': now },
        }),
      );
    // 1000 + 30 against 999 and 1030: a numeric comparison (as strings "1030" < "999").
    await acquire('first', 1000);
    expect(await refusal(acquire('second', 999))).toMatchObject(CONDITION_FAILED);
    expect(await refusal(acquire('second', 1030))).toMatchObject(CONDITION_FAILED);
    expect(await read(STATE(), key)).toMatchObject({ holder: 'first', expiresAt: 1030 });
    await acquire('second', 1031);
    expect(await read(STATE(), key)).toMatchObject({ holder: 'second', expiresAt: 1061 });
  });
});

// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DeleteItem.html
describe('DeleteItem', () => {
  it('DeleteItem: a failed ConditionExpression is refused with ConditionalCheckFailedException and deletes nothing', async () => {
    // default-view.ts clearDefaultIfPointsTo, dashboard-claims.ts releaseDashboardId, lease.ts release, views.ts
    // deleteView.
    const key = { pk: `USER#${scratchName('user')}@example.com`, sk: 'DEFAULT' };
    const pointer = { ...key, viewId: 'view-2', updatedAt: '2024-01-01T00:00:00.000Z' };
    await db.client.send(new PutCommand({ TableName: STATE(), Item: pointer }));
    const clearIfPointsTo = (viewId: string) =>
      db.client.send(
        new DeleteCommand({
          TableName: STATE(),
          Key: key,
          ConditionExpression: 'viewId = :view',
          ExpressionAttributeValues: { ':view': viewId },
        }),
      );

    expect(await refusal(clearIfPointsTo('view-1'))).toMatchObject(CONDITION_FAILED);
    expect(await read(STATE(), key)).toEqual(pointer);
    await clearIfPointsTo('view-2');
    expect(await read(STATE(), key)).toBeUndefined();
  });

  it('DeleteItem: a ConditionExpression on an item that does not exist is refused with ConditionalCheckFailedException', async () => {
    // writeIf in tables.ts reads this as "nothing to give back" (releaseDashboardId, clearDefaultIfPointsTo).
    const key = { pk: `DASHBOARD#${scratchName('absent')}`, sk: 'CLAIM' };
    const error = await refusal(
      db.client.send(
        new DeleteCommand({
          TableName: STATE(),
          Key: key,
          ConditionExpression: 'metadataId = :id',
          ExpressionAttributeValues: { ':id': 'record-a' },
        }),
      ),
    );
    expect(error).toMatchObject(CONDITION_FAILED);
  });

  it('DeleteItem: without a condition, deleting an item that does not exist succeeds', async () => {
    // views.ts deleteView, default-view.ts clearDefault, catalogue.ts deleteDashboardRecord are idempotent.
    const id = scratchName('gone');
    await db.client.send(new DeleteCommand({ TableName: VIEWS(), Key: { id } }));
    await db.client.send(new DeleteCommand({ TableName: STATE(), Key: { pk: `USER#${id}`, sk: 'DEFAULT' } }));
    expect(await read(VIEWS(), { id })).toBeUndefined();
  });
});

// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateItem.html
describe('UpdateItem', () => {
  it("UpdateItem: a ConditionExpression on attribute values refuses an absent item or another user's (creating and changing nothing); ReturnValues ALL_NEW returns the whole item as updated", async () => {
    // views.ts refreshClaimedView: an assignment refreshes only the view it wrote.
    const id = scratchName('assigned');
    const refresh = (email: string, name: string) =>
      db.client.send(
        new UpdateCommand({
          TableName: VIEWS(),
          Key: { id },
          UpdateExpression: 'SET #name = :name, link = :link, updatedAt = :now',
          ConditionExpression: 'userEmail = :email AND quicksightDashboardId = :dashboard',
          ExpressionAttributeNames: { '#name': 'name' },
          ExpressionAttributeValues: {
            ':email': email,
            ':dashboard': 'sales',
            ':name': name,
            ':link': 'https://example.com/sales',
            ':now': '2024-02-01T00:00:00.000Z',
          },
          ReturnValues: 'ALL_NEW',
        }),
      );

    await expect(refresh('assigned@example.com', 'Sales')).rejects.toMatchObject({
      name: 'ConditionalCheckFailedException',
    });
    expect(await read(VIEWS(), { id })).toBeUndefined();

    const first = {
      id,
      userEmail: 'assigned@example.com',
      quicksightDashboardId: 'sales',
      name: 'Sales',
      link: 'https://example.com/old',
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-01T00:00:00.000Z',
    };
    await db.client.send(new PutCommand({ TableName: VIEWS(), Item: first }));
    await expect(refresh('other@example.com', 'Planted')).rejects.toMatchObject({
      name: 'ConditionalCheckFailedException',
    });
    expect(await read(VIEWS(), { id })).toEqual(first);

    const updated = await refresh('assigned@example.com', 'Sales 2');
    const second = {
      ...first,
      name: 'Sales 2',
      link: 'https://example.com/sales',
      updatedAt: '2024-02-01T00:00:00.000Z',
    };
    expect(updated.Attributes).toEqual(second);
    expect(await read(VIEWS(), { id })).toEqual(second);
  });

  it('UpdateItem: attribute_exists(id) in the ConditionExpression refuses an item that does not exist and creates nothing; the rest of the condition decides for an existing one', async () => {
    // views.ts refreshViewLabels.
    const refresh = (id: string, name: string, link: string) =>
      db.client.send(
        new UpdateCommand({
          TableName: VIEWS(),
          Key: { id },
          UpdateExpression: 'SET #name = :name, link = :link, updatedAt = :now',
          ConditionExpression:
            'attribute_exists(id) AND (#name <> :name OR link <> :link OR attribute_not_exists(link))',
          ExpressionAttributeNames: { '#name': 'name' },
          ExpressionAttributeValues: { ':name': name, ':link': link, ':now': '2024-03-01T00:00:00.000Z' },
        }),
      );

    const absent = scratchName('absent');
    expect(await refusal(refresh(absent, 'Sales', 'https://example.com/sales'))).toMatchObject(CONDITION_FAILED);
    expect(await read(VIEWS(), { id: absent })).toBeUndefined();

    const current = view(scratchName('current'), 'labels@example.com', 'sales');
    await db.client.send(new PutCommand({ TableName: VIEWS(), Item: current }));
    expect(await refusal(refresh(current.id, current.name, current.link))).toMatchObject(CONDITION_FAILED);
    expect(await read(VIEWS(), { id: current.id })).toEqual(current);

    await refresh(current.id, 'New name', current.link);
    expect(await read(VIEWS(), { id: current.id })).toMatchObject({
      name: 'New name',
      updatedAt: '2024-03-01T00:00:00.000Z',
    });

    const { link: _link, ...withoutLink } = view(scratchName('nolink'), 'labels@example.com', 'sales');
    await db.client.send(new PutCommand({ TableName: VIEWS(), Item: withoutLink }));
    await refresh(withoutLink.id, withoutLink.name, 'https://example.com/sales');
    expect(await read(VIEWS(), { id: withoutLink.id })).toMatchObject({ link: 'https://example.com/sales' });
  });
});

// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PutItem.html
describe('PutItem and DeleteItem for the contact rate limit', () => {
  it('PutItem: a condition on a stored time (attribute_not_exists OR older than the window) takes a free slot and refuses a slot in use; a DeleteItem conditioned on the holder frees only its own slot', async () => {
    // contact/rate-limit.ts takeContactSlot, releaseSlot and readSlots.
    const pk = `USER#${scratchName('sender')}@example.com`;
    const key = { pk, sk: 'CONTACT-SLOT#0' };
    const hour = 60 * 60 * 1000;
    const take = (now: number, holder: string) =>
      db.client.send(
        new PutCommand({
          TableName: STATE(),
          Item: { ...key, sentAt: now, holder },
          ConditionExpression: 'attribute_not_exists(#sentAt) OR #sentAt <= :windowStart',
          ExpressionAttributeNames: { '#sentAt': 'sentAt' },
          ExpressionAttributeValues: { ':windowStart': now - hour },
        }),
      );
    const release = (holder: string) =>
      db.client.send(
        new DeleteCommand({
          TableName: STATE(),
          Key: key,
          ConditionExpression: '#holder = :holder',
          ExpressionAttributeNames: { '#holder': 'holder' },
          ExpressionAttributeValues: { ':holder': holder },
        }),
      );
    const t0 = Date.UTC(2024, 0, 1, 10, 0);

    await take(t0, 'first');
    expect(await refusal(take(t0 + hour - 1, 'second'))).toMatchObject(CONDITION_FAILED);
    expect(await read(STATE(), key)).toMatchObject({ sentAt: t0, holder: 'first' });
    await take(t0 + hour, 'third');
    expect(await refusal(release('first'))).toMatchObject(CONDITION_FAILED);
    expect(await read(STATE(), key)).toMatchObject({ holder: 'third' });

    await db.client.send(
      new PutCommand({ TableName: STATE(), Item: { pk, sk: 'CONTACT-SLOT#1', sentAt: t0, holder: 'other' } }),
    );
    await db.client.send(new PutCommand({ TableName: STATE(), Item: { pk, sk: 'DEFAULT', viewId: 'not a slot' } }));
    const slots = await db.client.send(
      new QueryCommand({
        TableName: STATE(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': 'CONTACT-SLOT#' },
        ConsistentRead: true,
      }),
    );
    expect(slots.Items?.map((item) => item.sk)).toEqual(['CONTACT-SLOT#0', 'CONTACT-SLOT#1']);
    await release('third');
    expect(await read(STATE(), key)).toBeUndefined();
  });
});

// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateItem.html
describe('UpdateItem for usage aggregates', () => {
  it('UpdateItem: ADD creates an absent item and attribute with the number and adds to it after; ReturnValues UPDATED_OLD answers the previous values of the updated attributes that existed; a failed condition on a number changes nothing', async () => {
    // usage.ts recordDashboardView (the daily counts) and its user summary (the ring slot and the week marker).
    const key = { pk: scratchName('USER'), sk: 'someone@example.com' };
    const update = (condition: string, expression: string, day: number, week: string) =>
      db.client.send(
        new UpdateCommand({
          TableName: USAGE(),
          Key: key,
          UpdateExpression: expression,
          ConditionExpression: condition,
          ExpressionAttributeNames: { '#w': 'w', '#n': 'n3', '#e': 'e3', '#views': 'views' },
          ExpressionAttributeValues: { ':at': '2026-03-04T10:00:00.000Z', ':week': week, ':one': 1, ':day': day },
          ReturnValues: 'UPDATED_OLD',
        }),
      );
    const count = (day: number, week: string) =>
      update('#e = :day', 'SET lastSeenAt = :at, #w = :week ADD #n :one, #views :one', day, week);
    const restart = (day: number, week: string) =>
      update(
        'attribute_not_exists(#e) OR #e <> :day',
        'SET lastSeenAt = :at, #w = :week, #e = :day, #n = :one ADD #views :one',
        day,
        week,
      );

    expect(await refusal(count(20_500, '2026-W10'))).toMatchObject(CONDITION_FAILED);
    expect(await read(USAGE(), key)).toBeUndefined();
    expect((await restart(20_500, '2026-W10')).Attributes).toBeUndefined();
    expect((await count(20_500, '2026-W10')).Attributes).toEqual({
      lastSeenAt: '2026-03-04T10:00:00.000Z',
      w: '2026-W10',
      n3: 1,
      views: 1,
    });
    expect(await refusal(restart(20_500, '2026-W10'))).toMatchObject(CONDITION_FAILED);
    expect((await restart(20_532, '2026-W15')).Attributes).toMatchObject({
      w: '2026-W10',
      e3: 20_500,
      n3: 2,
      views: 2,
    });
    expect(await read(USAGE(), key)).toEqual({
      ...key,
      lastSeenAt: '2026-03-04T10:00:00.000Z',
      w: '2026-W15',
      e3: 20_532,
      n3: 1,
      views: 3,
    });

    const day = { pk: scratchName('DAY#ALL'), sk: '2026-03-04' };
    for (let index = 0; index < 3; index += 1) {
      await db.client.send(
        new UpdateCommand({
          TableName: USAGE(),
          Key: day,
          UpdateExpression: 'SET expiresAt = :exp ADD #views :one, #dashboard :one',
          ExpressionAttributeNames: { '#views': 'views', '#dashboard': 'd:sales-performance' },
          ExpressionAttributeValues: { ':exp': 1_800_000_000, ':one': 1 },
        }),
      );
    }
    expect(await read(USAGE(), day)).toEqual({ ...day, expiresAt: 1_800_000_000, views: 3, 'd:sales-performance': 3 });
  });

  it('UpdateItem: a condition comparing stored and given ISO times (lastViewedAt < :at) moves a last view forward only', async () => {
    // usage.ts recordDashboardView, the dashboard's last view.
    const key = { pk: scratchName('DASHBOARD'), sk: 'sales-performance' };
    const seen = (at: string) =>
      db.client.send(
        new UpdateCommand({
          TableName: USAGE(),
          Key: key,
          UpdateExpression: 'SET lastViewedAt = :at',
          ConditionExpression: 'attribute_not_exists(lastViewedAt) OR lastViewedAt < :at',
          ExpressionAttributeValues: { ':at': at },
        }),
      );
    await seen('2026-03-04T10:00:00.000Z');
    expect(await refusal(seen('2026-03-04T09:59:59.999Z'))).toMatchObject(CONDITION_FAILED);
    await seen('2026-03-05T00:00:00.000Z');
    expect(await read(USAGE(), key)).toEqual({ ...key, lastViewedAt: '2026-03-05T00:00:00.000Z' });
  });

  it('Reserved words: views is refused bare in an update expression; the other names the usage aggregates write bare are not reserved', async () => {
    const key = { pk: scratchName('USER'), sk: 'reserved@example.com' };
    const bare = await refusal(
      db.client.send(
        new UpdateCommand({
          TableName: USAGE(),
          Key: key,
          UpdateExpression: 'ADD views :one',
          ExpressionAttributeValues: { ':one': 1 },
        }),
      ),
    );
    expect(bare).toMatchObject(VALIDATION);
    await db.client.send(
      new UpdateCommand({
        TableName: USAGE(),
        Key: key,
        UpdateExpression: 'SET lastSeenAt = :v, expiresAt = :n, company = :v, lastViewedAt = :v ADD activeUsers :n',
        ExpressionAttributeValues: { ':v': 'x', ':n': 1 },
      }),
    );
    expect(await read(USAGE(), key)).toEqual({
      ...key,
      lastSeenAt: 'x',
      expiresAt: 1,
      company: 'x',
      lastViewedAt: 'x',
      activeUsers: 1,
    });
  });
});

// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Query.html
describe('Query on usage aggregates', () => {
  it('Query: sk BETWEEN :from AND :to returns the items of the range in sort-key order, both ends included; sk > :after with Limit pages in order', async () => {
    // usage.ts dailyUsage, weeklyActiveUsers and pageUserUsage.
    const pk = scratchName('DAY#ALL');
    for (const sk of ['2026-02-28', '2026-03-01', '2026-03-02', '2026-03-10', '2026-03-11']) {
      await db.client.send(new PutCommand({ TableName: USAGE(), Item: { pk, sk, views: 1 } }));
    }
    const range = await db.client.send(
      new QueryCommand({
        TableName: USAGE(),
        ConsistentRead: true,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': pk, ':from': '2026-03-01', ':to': '2026-03-10' },
      }),
    );
    expect(range.Items?.map((item) => item.sk)).toEqual(['2026-03-01', '2026-03-02', '2026-03-10']);
    const after = await db.client.send(
      new QueryCommand({
        TableName: USAGE(),
        ConsistentRead: true,
        KeyConditionExpression: 'pk = :pk AND sk > :after',
        ExpressionAttributeValues: { ':pk': pk, ':after': '2026-03-01' },
        Limit: 2,
      }),
    );
    expect(after.Items?.map((item) => item.sk)).toEqual(['2026-03-02', '2026-03-10']);
    expect(after.LastEvaluatedKey).toEqual({ pk, sk: '2026-03-10' });
  });
});

// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ReservedWords.html
describe('Reserved words in DynamoDB', () => {
  it('Reserved words: name and count in an expression are refused with ValidationException, and accepted through ExpressionAttributeNames; the other names the handlers write into expressions are not reserved', async () => {
    // views.ts (#name); count is reserved too, so nothing writes it bare; the others appear in expressions as they are.
    const id = scratchName('reserved');
    const bare = await refusal(
      db.client.send(
        new UpdateCommand({
          TableName: VIEWS(),
          Key: { id },
          UpdateExpression: 'SET name = :v',
          ExpressionAttributeValues: { ':v': 'x' },
        }),
      ),
    );
    expect(bare).toMatchObject(VALIDATION);
    expect((bare as Error).message).toMatch(/reserved keyword/i);
    const count = await refusal(
      // No function's role allows UpdateItem on the State table (IAM would refuse it first): the operator asks.
      db.operator.send(
        new UpdateCommand({
          TableName: STATE(),
          Key: { pk: id, sk: 'CONTACT' },
          UpdateExpression: 'ADD count :d',
          ExpressionAttributeValues: { ':d': 1 },
        }),
      ),
    );
    expect(count).toMatchObject(VALIDATION);
    expect(await read(VIEWS(), { id })).toBeUndefined();

    const unreserved = [
      'userEmail',
      'quicksightDashboardId',
      'link',
      'updatedAt',
      'createdAt',
      'createdBy',
      'companyName',
      'holder',
      'expiresAt',
      'metadataId',
      'claimedAt',
      'viewId',
    ];
    await db.client.send(
      new UpdateCommand({
        TableName: VIEWS(),
        Key: { id },
        UpdateExpression: `SET #name = :v, ${unreserved.map((name) => `${name} = :v`).join(', ')}`,
        ConditionExpression: 'attribute_not_exists(id)',
        ExpressionAttributeNames: { '#name': 'name' },
        ExpressionAttributeValues: { ':v': 'x' },
      }),
    );
    expect(await read(VIEWS(), { id })).toEqual({
      id,
      name: 'x',
      ...Object.fromEntries(unreserved.map((name) => [name, 'x'])),
    });
  });
});

// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.ExpressionAttributeValues.html
describe('Using expression attribute values in DynamoDB', () => {
  it('Expression attribute values: a value no expression uses, or an empty ExpressionAttributeValues map, is refused with ValidationException', async () => {
    // Every conditional write builds its values with its expression; views.ts claimView and
    // dashboard-claims.ts send no ExpressionAttributeValues rather than an empty map.
    const key = { pk: `USER#${scratchName('values')}`, sk: 'CONTACT#2024-01-01T10' };
    // No function's role allows UpdateItem on the State table (IAM would refuse it first): the operator asks.
    const unused = await refusal(
      db.operator.send(
        new UpdateCommand({
          TableName: STATE(),
          Key: key,
          UpdateExpression: 'ADD #count :delta',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':delta': -1, ':max': 5 },
        }),
      ),
    );
    expect(unused).toMatchObject(VALIDATION);
    expect((unused as Error).message).toMatch(/unused/i);

    const empty = await refusal(
      db.client.send(
        new PutCommand({
          TableName: STATE(),
          Item: { ...key, metadataId: 'a' },
          ConditionExpression: 'attribute_not_exists(pk)',
          ExpressionAttributeValues: {},
        }),
      ),
    );
    expect(empty).toMatchObject(VALIDATION);
    expect(await read(STATE(), key)).toBeUndefined();
  });
});

// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_GetItem.html
describe('GetItem', () => {
  it('GetItem: ConsistentRead returns the item written just before, and no Item for a key that is absent', async () => {
    // catalogue.ts getDashboard, views.ts getView, default-view.ts getDefaultViewId, dashboard-claims.ts.
    const key = { pk: `USER#${scratchName('reader')}`, sk: 'DEFAULT' };
    expect(
      (await db.client.send(new GetCommand({ TableName: STATE(), Key: key, ConsistentRead: true }))).Item,
    ).toBeUndefined();
    await db.client.send(new PutCommand({ TableName: STATE(), Item: { ...key, viewId: 'v1' } }));
    expect((await db.client.send(new GetCommand({ TableName: STATE(), Key: key, ConsistentRead: true }))).Item).toEqual(
      { ...key, viewId: 'v1' },
    );
    await db.client.send(new PutCommand({ TableName: STATE(), Item: { ...key, viewId: 'v2' } }));
    expect((await db.client.send(new GetCommand({ TableName: STATE(), Key: key, ConsistentRead: true }))).Item).toEqual(
      { ...key, viewId: 'v2' },
    );
  });
});

// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Query.html
describe('Query', () => {
  let user: string;
  let other: string;
  let dashboard: string;
  /** The user's views in the order of the byUserEmail index (dashboard id, ascending). */
  let userViews: Record<string, unknown>[];

  beforeAll(async () => {
    user = `${scratchName('owner')}@example.com`;
    other = `${scratchName('other')}@example.com`;
    dashboard = scratchName('dash');
    // Written out of order; two views of the same dashboard (GraphQL may create several).
    const dashboards = ['d-3', 'd-1', 'd-5', 'd-2', 'd-4', 'd-2'].map((d) => `${dashboard}-${d}`);
    const items = dashboards.map((d, i) => view(`${scratchName('v')}-${i}`, user, d));
    items.push(view(scratchName('v'), other, `${dashboard}-d-2`));
    for (const item of items) await db.client.send(new PutCommand({ TableName: VIEWS(), Item: item }));
    userViews = items
      .filter((item) => item.userEmail === user)
      .sort((a, b) => a.quicksightDashboardId.localeCompare(b.quicksightDashboardId));
  });

  it('Query on a global secondary index: KeyConditionExpression on its partition key, or its partition and sort key, returns the matching items in sort-key order', async () => {
    // views.ts viewsOfUser, viewsOfUserForDashboard, hasViewOfDashboard, viewsOfDashboard.
    await db.eventually(async () => {
      const ofUser = await db.client.send(
        new QueryCommand({
          TableName: VIEWS(),
          IndexName: VIEWS_BY_USER_INDEX,
          KeyConditionExpression: 'userEmail = :email',
          ExpressionAttributeValues: { ':email': user },
        }),
      );
      expect(ofUser.Items?.map((item) => item.quicksightDashboardId)).toEqual(
        userViews.map((item) => item.quicksightDashboardId),
      );
      expect(ofUser.Items).toEqual(expect.arrayContaining(userViews));
      expect(ofUser.LastEvaluatedKey).toBeUndefined();

      const ofPair = await db.client.send(
        new QueryCommand({
          TableName: VIEWS(),
          IndexName: VIEWS_BY_USER_INDEX,
          KeyConditionExpression: 'userEmail = :email AND quicksightDashboardId = :dashboard',
          ExpressionAttributeValues: { ':email': user, ':dashboard': `${dashboard}-d-2` },
        }),
      );
      expect(ofPair.Items?.map((item) => item.id).sort()).toEqual(
        userViews
          .filter((v) => v.quicksightDashboardId === `${dashboard}-d-2`)
          .map((v) => v.id)
          .sort(),
      );

      const ofDashboard = await db.client.send(
        new QueryCommand({
          TableName: VIEWS(),
          IndexName: VIEWS_BY_DASHBOARD_INDEX,
          KeyConditionExpression: 'quicksightDashboardId = :dashboard',
          ExpressionAttributeValues: { ':dashboard': `${dashboard}-d-2` },
        }),
      );
      expect(ofDashboard.Items?.map((item) => item.userEmail)).toEqual([user, user, other].sort());
    });
  });

  it('Query on a global secondary index: Limit ends a page, LastEvaluatedKey holds the table and index keys, and ExclusiveStartKey resumes after it until a page has no LastEvaluatedKey', async () => {
    // views.ts pageViewsOfUser/queryAll/anyMatch (Limit 1); graphql/views.ts accepts back exactly {id, userEmail,
    // quicksightDashboardId}.
    await db.eventually(async () => {
      const seen: Record<string, unknown>[] = [];
      const pages: number[] = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await db.client.send(
          new QueryCommand({
            TableName: VIEWS(),
            IndexName: VIEWS_BY_USER_INDEX,
            KeyConditionExpression: 'userEmail = :email',
            ExpressionAttributeValues: { ':email': user },
            Limit: 4,
            ExclusiveStartKey: startKey,
          }),
        );
        seen.push(...(page.Items ?? []));
        pages.push(page.Items?.length ?? 0);
        startKey = page.LastEvaluatedKey;
        if (startKey !== undefined) {
          const last = page.Items!.at(-1)!;
          expect(startKey).toEqual({
            id: last.id,
            userEmail: last.userEmail,
            quicksightDashboardId: last.quicksightDashboardId,
          });
        }
      } while (startKey !== undefined && pages.length < 10);
      expect(pages).toEqual([4, 2]);
      expect(seen.map((item) => item.quicksightDashboardId)).toEqual(
        userViews.map((item) => item.quicksightDashboardId),
      );
      expect(new Set(seen.map((item) => item.id)).size).toBe(userViews.length);

      const one = await db.client.send(
        new QueryCommand({
          TableName: VIEWS(),
          IndexName: VIEWS_BY_DASHBOARD_INDEX,
          KeyConditionExpression: 'quicksightDashboardId = :dashboard',
          ExpressionAttributeValues: { ':dashboard': `${dashboard}-d-2` },
          Limit: 1,
        }),
      );
      expect(one.Items).toHaveLength(1);
      expect(one.LastEvaluatedKey).toBeDefined();
    });
  });

  it('Query: ScanIndexForward false returns the partition in descending sort-key order, and ExclusiveStartKey from LastEvaluatedKey (the table key) continues in that order', async () => {
    // audit.ts readAuditPage (newest first); its page token accepts back exactly {pk, sk}.
    const pk = `AUDIT#${scratchName('trail')}`;
    const times = [
      '2024-01-01T10:00:00.000Z',
      '2024-01-01T09:00:00.000Z',
      '2024-01-02T08:00:00.000Z',
      '2024-01-01T10:00:00.000Z',
      '2023-12-31T23:59:59.999Z',
    ];
    const sks = times.map((at, i) => `${at}#${String(i).padStart(6, '0')}#${scratchName('entry')}`);
    for (const [i, sk] of sks.entries()) {
      await db.client.send(
        new PutCommand({
          TableName: AUDIT(),
          Item: { pk, sk, at: times[i], action: `action-${i}` },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    }
    const newestFirst = [...sks].sort().reverse();

    await db.eventually(async () => {
      const seen: string[] = [];
      let startKey: Record<string, unknown> | undefined;
      let pages = 0;
      do {
        const page = await db.client.send(
          new QueryCommand({
            TableName: AUDIT(),
            ConsistentRead: true,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': pk },
            ScanIndexForward: false,
            Limit: 2,
            ExclusiveStartKey: startKey,
          }),
        );
        seen.push(...(page.Items ?? []).map((item) => String(item.sk)));
        startKey = page.LastEvaluatedKey;
        if (startKey !== undefined) expect(startKey).toEqual({ pk, sk: seen.at(-1) });
        pages += 1;
      } while (startKey !== undefined && pages < 10);
      expect(seen).toEqual(newestFirst);
      expect(pages).toBe(3);
    });
  });
});

// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Scan.html
describe('Scan', () => {
  it('Scan: Limit and ExclusiveStartKey page through every item exactly once, and LastEvaluatedKey is the table key {id}', async () => {
    // catalogue.ts pageDashboards/listDashboards; graphql/dashboards.ts accepts back exactly {id}.
    const prefix = scratchName('catalogue');
    const ids = Array.from({ length: 7 }, (_, i) => `${prefix}-${i}`);
    for (const id of ids)
      await db.client.send(
        new PutCommand({ TableName: DASHBOARDS(), Item: { id, dashboardName: id, isActive: true } }),
      );

    await db.eventually(async () => {
      const seen: string[] = [];
      let startKey: Record<string, unknown> | undefined;
      let pages = 0;
      do {
        const page = await db.client.send(
          new ScanCommand({ TableName: DASHBOARDS(), ConsistentRead: true, Limit: 3, ExclusiveStartKey: startKey }),
        );
        expect(page.Items!.length).toBeLessThanOrEqual(3);
        seen.push(...(page.Items ?? []).map((item) => String(item.id)));
        startKey = page.LastEvaluatedKey;
        if (startKey !== undefined) expect(startKey).toEqual({ id: seen.at(-1) });
        pages += 1;
      } while (startKey !== undefined && pages < 100);
      expect(startKey).toBeUndefined();
      expect(seen.length).toBe(new Set(seen).size);
      expect(seen).toEqual(expect.arrayContaining(ids));
    });
  });
});
