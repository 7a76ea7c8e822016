import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATE_DUE_INDEX, tables } from '#contracts/tables.ts';
import { buildPortal, sharedPortalBuild, logicalIdAt, type PortalBuild } from './support/portal-build.ts';

describe('data (DynamoDB)', () => {
  let build: PortalBuild;
  beforeAll(() => {
    build = sharedPortalBuild();
  });
  afterAll(() => build.dispose());

  it('creates exactly the tables of contracts/tables.ts, with their keys and indexes', () => {
    build.template.resourceCountIs('AWS::DynamoDB::Table', tables.length);
    for (const definition of tables) {
      const keys = [
        { AttributeName: definition.partitionKey.name, KeyType: 'HASH' },
        ...(definition.sortKey ? [{ AttributeName: definition.sortKey.name, KeyType: 'RANGE' }] : []),
      ];
      build.template.hasResourceProperties('AWS::DynamoDB::Table', {
        KeySchema: keys,
        GlobalSecondaryIndexes: definition.globalSecondaryIndexes.length
          ? definition.globalSecondaryIndexes.map((index) =>
              Match.objectLike({
                IndexName: index.indexName,
                KeySchema: [
                  { AttributeName: index.partitionKey.name, KeyType: 'HASH' },
                  ...(index.sortKey ? [{ AttributeName: index.sortKey.name, KeyType: 'RANGE' }] : []),
                ],
              }),
            )
          : Match.absent(),
        TimeToLiveSpecification: definition.timeToLiveAttribute
          ? { AttributeName: definition.timeToLiveAttribute, Enabled: true }
          : Match.absent(),
      });
    }
  });

  it('indexes the active subscriptions of the State table by due time (byDueTime: dueKey, dueAt, all attributes)', () => {
    const state =
      build.template.toJSON().Resources[logicalIdAt(build.template, 'AWS::DynamoDB::Table', '/Data/State/')].Properties;
    expect(state.GlobalSecondaryIndexes).toEqual([
      {
        IndexName: STATE_DUE_INDEX,
        KeySchema: [
          { AttributeName: 'dueKey', KeyType: 'HASH' },
          { AttributeName: 'dueAt', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
    ]);
    expect(state.AttributeDefinitions).toEqual(
      expect.arrayContaining([
        { AttributeName: 'dueKey', AttributeType: 'S' },
        { AttributeName: 'dueAt', AttributeType: 'S' },
      ]),
    );
    expect(STATE_DUE_INDEX).toBe('byDueTime');
  });

  it('expires usage events and aggregates through TTL on expiresAt', () => {
    const usage =
      build.template.toJSON().Resources[logicalIdAt(build.template, 'AWS::DynamoDB::Table', '/Data/Usage/')].Properties;
    expect(usage.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect(usage.TimeToLiveSpecification).toEqual({ AttributeName: 'expiresAt', Enabled: true });
    expect(usage.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
  });

  it('makes every table on-demand, encrypted, point-in-time recoverable and protected from deletion', () => {
    const all = Object.values(build.template.findResources('AWS::DynamoDB::Table'));
    expect(all).toHaveLength(tables.length);
    for (const table of all) {
      expect(table.Properties).toMatchObject({
        BillingMode: 'PAY_PER_REQUEST',
        SSESpecification: { SSEEnabled: true },
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
      });
      expect(table.DeletionPolicy).toBe('Retain');
    }
  });

  it('drops deletion protection when configured off', () => {
    const unprotected = buildPortal({ context: { deletionProtection: 'false' } });
    try {
      for (const table of Object.values(unprotected.template.findResources('AWS::DynamoDB::Table'))) {
        expect(table.Properties).toMatchObject({
          DeletionProtectionEnabled: false,
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        });
        expect(table.DeletionPolicy).toBe('Delete');
      }
    } finally {
      unprotected.dispose();
    }
  });
});
