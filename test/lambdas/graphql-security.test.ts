import { GenerateEmbedUrlForRegisteredUserCommand } from '@aws-sdk/client-quicksight';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FILTER_TERMS_LIMIT, FILTER_TERMS_PER_FIELD, RESOLVER_COUNT_LIMIT } from '#contracts/graphql-limits.ts';
import { seedCompany, seedMembership } from './support/companies.ts';
import {
  account,
  ADMIN,
  type Handler,
  type Harness,
  invoke,
  lambdaContext,
  loadHandler,
  observeDynamoCommands,
  OTHER_USER,
  type Resolver,
  startHarness,
  type TestAccount,
  USER,
} from './support/harness.ts';

/**
 * What a Users caller can do through GraphQL: assignments stay the admin's, the catalogue is
 * need-to-know, filters are capped in width, and text arguments follow the function URLs'
 * character rule.
 */

let h: Harness;
let graphql: Resolver;
let embedHandler: Handler;
let adminHandler: Handler;
const commandsSent: string[] = [];

const AT = '2026-01-01T00:00:00.000Z';
const link = (dashboard: string) => `https://bi.example.com/${dashboard}`;

beforeAll(async () => {
  h = await startHarness();
  graphql = (await loadHandler('graphql')) as Resolver;
  embedHandler = await loadHandler('embed');
  adminHandler = await loadHandler('quicksight-admin');
  await observeDynamoCommands((command) => commandsSent.push(command));
});
afterAll(() => h.close());

/** A view an admin's assignment wrote: made by the admin, and named by the assignment's claim. */
const assignedView = async (id: string, userEmail: string, dashboard: string, extra: Record<string, unknown> = {}) => {
  await h.tables.put('VIEWS_TABLE', {
    id,
    userEmail,
    quicksightDashboardId: dashboard,
    name: `Assigned ${dashboard}`,
    link: link(dashboard),
    createdAt: AT,
    updatedAt: AT,
    createdBy: ADMIN.email,
    ...extra,
  });
  await h.tables.put('STATE_TABLE', {
    pk: `USER#${userEmail}`,
    sk: `ASSIGNED#${dashboard}`,
    viewId: id,
    claimedAt: AT,
  });
};

const catalogueEntry = (dashboard: string) =>
  h.tables.put('DASHBOARDS_TABLE', {
    id: `m-${dashboard}`,
    dashboardId: dashboard,
    dashboardName: `Catalogue ${dashboard}`,
    dashboardLink: link(dashboard),
    description: `About ${dashboard}`,
    isActive: true,
    createdAt: AT,
    updatedAt: AT,
    createdBy: ADMIN.email,
  });

beforeEach(async () => {
  await h.reset();
  commandsSent.length = 0;
  // Each user's company is their membership; their views refer to the user only.
  await seedCompany(h, 'c-acme', 'Acme Tools');
  await seedCompany(h, 'c-bolt', 'Bolt Distribution');
  await seedMembership(h, USER.email, ['c-acme']);
  await seedMembership(h, OTHER_USER.email, ['c-bolt']);
  await assignedView('a-sales', USER.email, 'sales');
  await assignedView('a-stock', USER.email, 'stock');
  await assignedView('o-secret', OTHER_USER.email, 'secret');
  for (const dashboard of ['sales', 'stock', 'secret', 'unassigned']) await catalogueEntry(dashboard);
});

const gql = async (
  who: TestAccount,
  parentTypeName: 'Query' | 'Mutation',
  fieldName: string,
  args: Record<string, unknown> = {},
) =>
  graphql(
    {
      arguments: args,
      identity: {
        sub: who.username,
        username: who.username,
        claims: {},
        groups: who.groups,
        issuer: 'x',
        sourceIp: ['127.0.0.1'],
        defaultAuthStrategy: 'ALLOW',
      },
      source: null,
      request: { headers: { authorization: await h.token(who) } },
      info: { fieldName, parentTypeName, variables: {}, selectionSetList: [] },
      prev: null,
      stash: {},
    },
    lambdaContext(),
  ) as Promise<Record<string, unknown> | null>;

const viewById = async (id: string) => (await h.tables.views()).find((view) => view.id === id);
const refusal = (fieldName: string, args: Record<string, unknown>, who: TestAccount = USER) =>
  gql(who, 'Mutation', fieldName, args).then(
    () => undefined,
    (error: Error) => ({ name: error.name, message: error.message }),
  );

const ASSIGNMENT_IS_ADMINS = expect.stringContaining('This view is an assignment made by an administrator');

describe('assignments belong to the admin', () => {
  it("refuses a Users caller's change of an admin-made assignment's dashboard, name, link or company, and changes nothing", async () => {
    const before = { views: await h.tables.views(), state: await h.tables.state() };
    for (const change of [
      { name: 'Hijacked' },
      { link: 'https://evil.example.net/login' },
      { quicksightDashboardId: 'stock' },
      { name: 'Assigned sales', link: 'https://evil.example.net/login' },
    ]) {
      expect(await refusal('updateTableauView', { input: { id: 'a-sales', ...change } })).toEqual({
        name: 'Unauthorized',
        message: ASSIGNMENT_IS_ADMINS,
      });
    }
    expect(
      await refusal('updateTableauView', { input: { id: 'a-sales', companyName: 'Bolt Distribution' } }),
    ).toMatchObject({
      name: 'Unauthorized',
      message: expect.stringContaining("An assignment's company is the user's company"),
    });
    expect({ views: await h.tables.views(), state: await h.tables.state() }).toEqual(before);
  });

  it('lets the user make the assignment their default, repeating its own fields unchanged', async () => {
    expect(
      await gql(USER, 'Mutation', 'updateTableauView', { input: { id: 'a-sales', isDefault: true } }),
    ).toMatchObject({ isDefault: true, name: 'Assigned sales' });
    const again = {
      id: 'a-sales',
      isDefault: true,
      name: 'Assigned sales',
      link: link('sales'),
      quicksightDashboardId: 'sales',
      companyName: 'Acme Tools',
    };
    expect(await gql(USER, 'Mutation', 'updateTableauView', { input: again })).toMatchObject({
      isDefault: true,
      name: 'Assigned sales',
      link: link('sales'),
    });
  });

  it("treats as the admin's a view an admin made for the user, and a claimed view whatever its createdBy says", async () => {
    await h.tables.put('VIEWS_TABLE', {
      id: 'by-admin',
      userEmail: USER.email,
      quicksightDashboardId: 'sales',
      name: 'For you',
      link: link('sales'),
      createdAt: AT,
      updatedAt: AT,
      createdBy: ADMIN.email,
    });
    await h.tables.put('VIEWS_TABLE', {
      id: 'legacy',
      userEmail: USER.email,
      quicksightDashboardId: 'sales',
      name: 'Old',
      link: link('sales'),
      createdAt: AT,
      updatedAt: AT,
    });
    // An admin who assigned a dashboard to their own account and was later moved to Users.
    await assignedView('self-assigned', USER.email, 'margin', { createdBy: USER.email });
    for (const id of ['by-admin', 'legacy', 'self-assigned']) {
      expect(await refusal('updateTableauView', { input: { id, name: 'Renamed' } })).toEqual({
        name: 'Unauthorized',
        message: ASSIGNMENT_IS_ADMINS,
      });
    }
    expect((await viewById('self-assigned'))?.name).toBe('Assigned margin');
  });

  it('still lets an admin edit an assignment', async () => {
    expect(
      await gql(ADMIN, 'Mutation', 'updateTableauView', { input: { id: 'a-sales', name: 'Sales (renamed by admin)' } }),
    ).toMatchObject({
      name: 'Sales (renamed by admin)',
    });
  });

  it("lets a user add, rename and move views of their own, which always carry their assignment's link", async () => {
    const own = await gql(USER, 'Mutation', 'createTableauView', {
      input: { name: 'My sales', quicksightDashboardId: 'sales' },
    });
    expect(own).toMatchObject({
      userEmail: USER.email,
      createdBy: USER.email,
      link: link('sales'),
      companyName: 'Acme Tools',
    });
    expect(
      await gql(USER, 'Mutation', 'updateTableauView', { input: { id: own?.id, name: 'My revenue' } }),
    ).toMatchObject({ name: 'My revenue', link: link('sales') });
    expect(
      await gql(USER, 'Mutation', 'updateTableauView', { input: { id: own?.id, quicksightDashboardId: 'stock' } }),
    ).toMatchObject({
      quicksightDashboardId: 'stock',
      link: link('stock'),
    });
    // Naming the link it carries is no change; another link is refused and writes nothing.
    expect(
      await gql(USER, 'Mutation', 'updateTableauView', { input: { id: own?.id, link: link('stock') } }),
    ).toMatchObject({ link: link('stock') });
    const stored = await viewById(String(own?.id));
    const linkRefused = {
      name: 'Unauthorized',
      message: expect.stringContaining("A view's link is the link of the dashboard's assignment"),
    };
    expect(
      await refusal('updateTableauView', { input: { id: own?.id, link: 'https://evil.example.net/login' } }),
    ).toEqual(linkRefused);
    expect(await viewById(String(own?.id))).toEqual(stored);
    const before = await h.tables.views();
    expect(
      await refusal('createTableauView', {
        input: { name: 'Planted', quicksightDashboardId: 'sales', link: 'https://evil.example.net/login' },
      }),
    ).toEqual(linkRefused);
    expect(await h.tables.views()).toEqual(before);
  });

  it("keeps the admin's labels in the admin portal, and counts the user's views in their own company, whatever the user sent", async () => {
    await refusal('updateTableauView', {
      input: { id: 'a-sales', companyName: 'Bolt Distribution', name: 'Phish', link: 'https://evil.example.net/login' },
    });
    await refusal('updateTableauView', { input: { id: 'a-sales', link: 'https://evil.example.net/login' } });
    await refusal('createTableauView', {
      input: { name: 'Bolt copy', quicksightDashboardId: 'sales', companyName: 'Bolt Distribution' },
    });

    const panel = await invoke(adminHandler, {
      token: await h.token(ADMIN),
      body: { action: 'GET_USER_DASHBOARDS', userEmail: USER.email },
    });
    expect(panel.status).toBe(200);
    expect(panel.body.dashboards).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: 'a-sales',
          name: 'Assigned sales',
          link: link('sales'),
          companyName: 'Acme Tools',
        }),
      ]),
    );
    expect(JSON.stringify(panel.body)).not.toContain('evil.example.net');

    h.quicksight
      .on(GenerateEmbedUrlForRegisteredUserCommand)
      .resolves({ EmbedUrl: 'https://quicksight.example.com/embed/abc', Status: 200, RequestId: 'r' });
    const embed = await invoke(embedHandler, {
      method: 'GET',
      token: await h.token(USER),
      headers: { 'x-dashboard-id': 'sales' },
    });
    expect(embed.status).toBe(200);
    const usage = await h.tables.scan('USAGE_TABLE');
    expect(usage.find((item) => String(item.pk).startsWith('EVENT#'))).toMatchObject({
      email: USER.email,
      company: 'Acme Tools',
      dashboardId: 'sales',
    });
    expect(usage.filter((item) => String(item.pk).includes('bolt'))).toEqual([]);
  });
});

describe("GraphQL text arguments follow the function URLs' character rule", () => {
  const unsafe = ['\u0000', '\u0007', '\u001b[31m', '\u2028', '\u202E', '\u2066', '\uD800'];

  it('refuses control, separator and bidirectional characters in inputs and filter operands, and writes nothing', async () => {
    const before = await h.tables.views();
    for (const character of unsafe) {
      expect(
        await refusal('createTableauView', {
          input: { name: `Sales ${character}gnp.exe`, quicksightDashboardId: 'sales' },
        }),
      ).toEqual({
        name: 'BadRequest',
        message:
          'input.name must not contain control characters, line separators or bidirectional formatting characters',
      });
      await expect(
        gql(USER, 'Query', 'listTableauViews', {
          filter: { or: [{ name: { eq: 'x' } }, { name: { beginsWith: character } }] },
        }),
      ).rejects.toMatchObject({
        name: 'BadRequest',
        message:
          'filter.or.1.name.beginsWith must not contain control characters, line separators or bidirectional formatting characters',
      });
    }
    expect(
      await refusal(
        'createDashboardMetadata',
        { input: { dashboardId: 'x', dashboardName: 'X', dashboardLink: link('x'), description: 'a\u202Eb' } },
        ADMIN,
      ),
    ).toMatchObject({
      name: 'BadRequest',
      message: expect.stringContaining('input.description must not contain'),
    });
    expect(await h.tables.views()).toEqual(before);
  });

  it('accepts tabs and line breaks, as the function URLs do', async () => {
    const created = await gql(USER, 'Mutation', 'createTableauView', {
      input: { name: 'Sales\tby region', quicksightDashboardId: 'sales' },
    });
    expect(created).toMatchObject({ name: 'Sales\tby region' });
  });
});

describe('the catalogue is need-to-know', () => {
  type Entry = Record<string, unknown>;
  const list = async (who: TestAccount) =>
    ((await gql(who, 'Query', 'listDashboardMetadata')) as { items: Entry[] }).items;

  it('gives a Users caller only the entries of dashboards assigned to them, without the creating admin', async () => {
    const items = await list(USER);
    expect(items.map((item) => item.dashboardId).sort()).toEqual(['sales', 'stock']);
    for (const item of items) {
      expect(item).toMatchObject({
        dashboardName: `Catalogue ${item.dashboardId}`,
        dashboardLink: link(String(item.dashboardId)),
      });
      expect(item.createdBy ?? null).toBeNull();
    }
    expect(await gql(USER, 'Query', 'getDashboardMetadata', { id: 'm-sales' })).toMatchObject({
      dashboardId: 'sales',
      description: 'About sales',
    });
    expect((await gql(USER, 'Query', 'getDashboardMetadata', { id: 'm-sales' }))?.createdBy ?? null).toBeNull();
  });

  it("reads another company's dashboard, or one assigned to nobody, as missing", async () => {
    expect(await gql(USER, 'Query', 'getDashboardMetadata', { id: 'm-secret' })).toBeNull();
    expect(await gql(USER, 'Query', 'getDashboardMetadata', { id: 'm-unassigned' })).toBeNull();
    expect((await list(OTHER_USER)).map((item) => item.dashboardId)).toEqual(['secret']);
    // A filter cannot reach past the caller's own entries either.
    const probe = (await gql(USER, 'Query', 'listDashboardMetadata', {
      filter: { dashboardId: { eq: 'secret' } },
    })) as { items: Entry[] };
    expect(probe.items).toEqual([]);
  });

  it('gives a fresh self sign-up nothing', async () => {
    const newcomer = account('newcomer@example.com', ['Users']);
    expect(await list(newcomer)).toEqual([]);
    expect(await gql(newcomer, 'Query', 'getDashboardMetadata', { id: 'm-sales' })).toBeNull();
  });

  it('gives admins the whole catalogue with createdBy', async () => {
    const items = await list(ADMIN);
    expect(items.map((item) => item.dashboardId).sort()).toEqual(['sales', 'secret', 'stock', 'unassigned']);
    for (const item of items) expect(item.createdBy).toBe(ADMIN.email);
    expect(await gql(ADMIN, 'Query', 'getDashboardMetadata', { id: 'm-secret' })).toMatchObject({
      dashboardId: 'secret',
      createdBy: ADMIN.email,
    });
  });
});

describe('filter width', () => {
  /** An `or` of `n` comparisons: n parts and n comparisons, 2n terms. */
  const orOf = (n: number) => ({ or: Array.from({ length: n }, (_, i) => ({ name: { eq: `View ${i}` } })) });
  const widthMessage = (argument: string) =>
    `${argument} has more than 50 terms (each comparison and each and, or and not part counts one): a request may hold at most 500 filter terms, 50 in each root field`;

  it('is capped at 500 terms per request: 50 in each of its at most 10 root fields', () => {
    expect(FILTER_TERMS_LIMIT).toBe(500);
    expect(RESOLVER_COUNT_LIMIT).toBe(10);
    expect(FILTER_TERMS_PER_FIELD).toBe(50);
  });

  it('evaluates a filter of 50 terms', async () => {
    const filter = { or: [...orOf(24).or, { name: { eq: 'Assigned sales' } }] };
    const result = (await gql(USER, 'Query', 'listTableauViews', { filter })) as { items: { id: string }[] };
    expect(result.items.map((view) => view.id)).toEqual(['a-sales']);
  });

  it('refuses a wider filter or condition before any session check or table read, however wide', async () => {
    for (const filter of [{ ...orOf(25), name: { attributeExists: true } }, orOf(45_000)]) {
      commandsSent.length = 0;
      h.cognito.resetHistory();
      await expect(gql(USER, 'Query', 'listTableauViews', { filter })).rejects.toMatchObject({
        name: 'BadRequest',
        message: widthMessage('filter'),
      });
      expect(commandsSent).toEqual([]);
      expect(h.cognito.calls()).toEqual([]);
    }
    await expect(gql(USER, 'Query', 'listDashboardMetadata', { filter: orOf(45_000) })).rejects.toMatchObject({
      message: widthMessage('filter'),
    });
    await expect(
      gql(USER, 'Mutation', 'updateTableauView', { input: { id: 'a-sales', isDefault: true }, condition: orOf(26) }),
    ).rejects.toMatchObject({
      name: 'BadRequest',
      message: widthMessage('condition'),
    });
    expect(await h.tables.state()).not.toContainEqual(expect.objectContaining({ sk: 'DEFAULT' }));
  });

  it('counts every operator of a comparison, and each not', async () => {
    const operators = {
      ne: 'a',
      eq: 'b',
      le: 'c',
      lt: 'd',
      ge: 'e',
      gt: 'f',
      contains: 'g',
      notContains: 'h',
      beginsWith: 'i',
      attributeExists: true,
    };
    // 5 fields of 10 operators are 50 terms; a not of one more comparison makes 52.
    const fifty = Object.fromEntries(
      ['name', 'link', 'userEmail', 'companyName', 'createdBy'].map((field) => [field, operators]),
    );
    await expect(gql(USER, 'Query', 'listTableauViews', { filter: fifty })).resolves.toMatchObject({ items: [] });
    await expect(
      gql(USER, 'Query', 'listTableauViews', { filter: { ...fifty, not: { id: { eq: 'x' } } } }),
    ).rejects.toMatchObject({
      name: 'BadRequest',
      message: widthMessage('filter'),
    });
  });
});
