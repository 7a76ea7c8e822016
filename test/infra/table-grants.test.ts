import { App, Stack } from 'aws-cdk-lib';
import { BUNDLING_STACKS } from 'aws-cdk-lib/cx-api';
import * as logs from 'aws-cdk-lib/aws-logs';
import { beforeAll, describe, expect, it } from 'vitest';
import { VIEWS_BY_DASHBOARD_INDEX, VIEWS_BY_USER_INDEX } from '#contracts/tables.ts';
import { PortalData } from '#lib/data.ts';
import { PortalFunction } from '#lib/portal-function.ts';
import { asList, logicalIdAt, policyStatements, sharedPortalBuild, type PortalBuild } from './support/portal-build.ts';

/** The functions that read the Views table, and the indexes each reads it through (lambdas/shared/data/views.ts). */
const VIEWS_READERS: Record<string, readonly string[]> = {
  '/Functions/Embed/': [VIEWS_BY_USER_INDEX],
  '/Functions/UserAdmin/': [VIEWS_BY_USER_INDEX],
  '/Functions/QuickSightAdmin/': [VIEWS_BY_DASHBOARD_INDEX, VIEWS_BY_USER_INDEX],
  '/GraphQL/Resolver/': [VIEWS_BY_DASHBOARD_INDEX, VIEWS_BY_USER_INDEX],
  '/Companies/Check/': [VIEWS_BY_DASHBOARD_INDEX],
};

describe('table grants', () => {
  let build: PortalBuild;
  let views: string;
  beforeAll(() => {
    build = sharedPortalBuild();
    views = logicalIdAt(build.template, 'AWS::DynamoDB::Table', '/Data/Views/');
  });

  /** The Views resources a function's policy allows each action on, as text (`<table>` or `<table>/index/<name>`). */
  function viewsGrants(path: string): Record<string, string[]> {
    const policy = logicalIdAt(build.template, 'AWS::IAM::ManagedPolicy', `${path}Policy/`);
    const grants: Record<string, string[]> = {};
    for (const { resource, statement } of policyStatements(build.template)) {
      if (resource !== policy) continue;
      const onViews = asList(statement.Resource as unknown)
        .map((target) => JSON.stringify(target))
        .filter((target) => target.includes(`"${views}"`))
        .map((target) => {
          const index = /\/index\/(\w+)/.exec(target)?.[1];
          return index ? `<table>/index/${index}` : '<table>';
        });
      for (const action of asList(statement.Action as string | string[]))
        if (onViews.length > 0) grants[action] = [...(grants[action] ?? []), ...onViews].sort();
    }
    return grants;
  }

  it.each(Object.entries(VIEWS_READERS))(
    'lets %s Query the Views table through the indexes it reads only, never the base table',
    (path, indexes) => {
      expect(viewsGrants(path)['dynamodb:Query']).toEqual(indexes.map((index) => `<table>/index/${index}`).sort());
    },
  );

  it('authorizes item actions on the Views table itself, where DynamoDB checks them', () => {
    expect(viewsGrants('/Functions/QuickSightAdmin/')).toMatchObject({
      'dynamodb:PutItem': ['<table>'],
      'dynamodb:UpdateItem': ['<table>'],
      'dynamodb:DeleteItem': ['<table>'],
    });
    expect(viewsGrants('/Functions/UserAdmin/')).toMatchObject({ 'dynamodb:DeleteItem': ['<table>'] });
  });

  it('keeps Query of a table read by its own keys in one statement with its item actions, on the table', () => {
    const state = logicalIdAt(build.template, 'AWS::DynamoDB::Table', '/Data/State/');
    const policy = logicalIdAt(build.template, 'AWS::IAM::ManagedPolicy', '/Functions/Contact/Policy/');
    const grants = policyStatements(build.template).filter(
      ({ resource, statement }) => resource === policy && String(statement.Sid).startsWith('TableState'),
    );
    expect(grants.map(({ statement }) => statement)).toEqual([
      {
        Sid: 'TableState',
        Effect: 'Allow',
        Action: ['dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:Query'],
        Resource: { 'Fn::GetAtt': [state, 'Arn'] },
      },
    ]);
  });

  it("lets the GraphQL resolver read and change the caller's subscriptions on the State table itself, never its due index", () => {
    const state = logicalIdAt(build.template, 'AWS::DynamoDB::Table', '/Data/State/');
    const policy = logicalIdAt(build.template, 'AWS::IAM::ManagedPolicy', '/GraphQL/Resolver/Policy/');
    const grants = policyStatements(build.template).filter(
      ({ resource, statement }) => resource === policy && JSON.stringify(statement.Resource).includes(`"${state}"`),
    );
    expect(grants.map(({ statement }) => statement)).toEqual([
      {
        Sid: 'TableState',
        Effect: 'Allow',
        Action: [
          'dynamodb:DeleteItem',
          'dynamodb:GetItem',
          'dynamodb:PutItem',
          'dynamodb:Query',
          'dynamodb:UpdateItem',
        ],
        Resource: { 'Fn::GetAtt': [state, 'Arn'] },
      },
    ]);
  });
});

describe('bindTable', () => {
  /** A function bound to the Views table in an app of its own (no bundling). */
  const bind = (actions: Parameters<PortalFunction['bindTable']>[1], indexes: readonly string[]) => {
    const stack = new Stack(new App({ context: { [BUNDLING_STACKS]: [] } }), 'Scratch');
    const data = new PortalData(stack, 'Data', { deletionProtection: false });
    const fn = new PortalFunction(stack, 'Embed', {
      name: 'embed',
      description: 'Scratch',
      logRetention: logs.RetentionDays.ONE_DAY,
      retainLogs: false,
    });
    fn.bindTable(data.table('Views'), actions, { indexes });
  };

  it('refuses an index the table does not have, and indexes for actions that read none', () => {
    expect(() => bind(['dynamodb:Query'], ['byEmail'])).toThrow(
      'PortalFunction Embed: table Views has no index byEmail',
    );
    expect(() => bind(['dynamodb:GetItem'], [VIEWS_BY_USER_INDEX])).toThrow(
      'PortalFunction Embed: indexes of table Views are named for a Query or Scan only',
    );
    expect(() => bind(['dynamodb:Query'], [])).toThrow(/named for a Query or Scan only/);
    expect(() => bind(['dynamodb:Query'], [VIEWS_BY_USER_INDEX])).not.toThrow();
  });
});
