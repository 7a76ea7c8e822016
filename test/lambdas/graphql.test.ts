import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dashboardIdExistsMessage } from '#contracts/fields.ts';
import { seedCompany, seedMembership } from './support/companies.ts';
import {
  ADMIN,
  type Harness,
  lambdaContext,
  loadHandler,
  observeDynamoCommands,
  OTHER_USER,
  type Resolver,
  startHarness,
  type TestAccount,
  USER,
} from './support/harness.ts';

let h: Harness;
let handler: Resolver;
const commandsSent: string[] = [];

beforeAll(async () => {
  h = await startHarness();
  handler = (await loadHandler('graphql')) as Resolver;
  await observeDynamoCommands((command) => commandsSent.push(command));
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  commandsSent.length = 0;
  const view = (id: string, userEmail: string, dashboard: string, name: string) =>
    h.tables.put('VIEWS_TABLE', {
      id,
      userEmail,
      quicksightDashboardId: dashboard,
      name,
      link: `https://bi.example.com/${dashboard}`,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
  await view('u-sales', USER.email, 'sales', 'Sales');
  await view('u-stock', USER.email, 'stock', 'Stock');
  await view('u-margin', USER.email, 'margin', 'Margins');
  await view('o-secret', OTHER_USER.email, 'secret', 'Secret');
  await h.tables.put('STATE_TABLE', { pk: `USER#${USER.email}`, sk: 'DEFAULT', viewId: 'u-stock' });
});

const gql = async (
  who: TestAccount,
  parentTypeName: 'Query' | 'Mutation',
  fieldName: string,
  args: Record<string, unknown> = {},
) =>
  handler(
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
type Connection = { items: { id: string; isDefault: boolean; userEmail: string }[]; nextToken: string | null };

describe('listTableauViews', () => {
  it("returns only the caller's views, with the default derived from the pointer, by Query never Scan", async () => {
    const result = (await gql(USER, 'Query', 'listTableauViews', {
      filter: { userEmail: { eq: 'User@Example.com' } },
    })) as Connection;
    expect(result.items.map((v) => [v.id, v.isDefault])).toEqual([
      ['u-margin', false],
      ['u-sales', false],
      ['u-stock', true],
    ]);
    expect(commandsSent).toContain('QueryCommand');
    expect(commandsSent).not.toContain('ScanCommand');
  });

  it("gives a user nothing when the filter names another user's email", async () => {
    const result = (await gql(USER, 'Query', 'listTableauViews', {
      filter: { userEmail: { eq: OTHER_USER.email } },
    })) as Connection;
    expect(result.items).toEqual([]);
    expect(commandsSent).not.toContain('ScanCommand');
  });

  it("lets an admin list another user's views", async () => {
    const result = (await gql(ADMIN, 'Query', 'listTableauViews', {
      filter: { userEmail: { eq: OTHER_USER.email } },
    })) as Connection;
    expect(result.items.map((v) => v.id)).toEqual(['o-secret']);
  });

  it('honours limit and nextToken, and applies the other conditions', async () => {
    const first = (await gql(USER, 'Query', 'listTableauViews', { limit: 2 })) as Connection;
    expect(first.items).toHaveLength(2);
    const second = (await gql(USER, 'Query', 'listTableauViews', {
      limit: 2,
      nextToken: first.nextToken,
    })) as Connection;
    expect(second.items.map((v) => v.id)).toEqual(['u-stock']);
    const filtered = (await gql(USER, 'Query', 'listTableauViews', {
      filter: { or: [{ name: { beginsWith: 'Sa' } }, { isDefault: { eq: true } }] },
    })) as Connection;
    expect(filtered.items.map((v) => v.id)).toEqual(['u-sales', 'u-stock']);
  });

  it("refuses a page token from another user's listing", async () => {
    const adminPage = (await gql(ADMIN, 'Query', 'listTableauViews', {
      filter: { userEmail: { eq: OTHER_USER.email } },
      limit: 1,
    })) as Connection;
    expect(adminPage.nextToken).not.toBeNull();
    await expect(gql(USER, 'Query', 'listTableauViews', { nextToken: adminPage.nextToken })).rejects.toMatchObject({
      name: 'BadRequest',
      message: 'Invalid nextToken',
    });
  });
});

describe('view access', () => {
  it('lets the owner and admins read a view, and nobody else', async () => {
    expect(await gql(USER, 'Query', 'getTableauView', { id: 'u-sales' })).toMatchObject({
      name: 'Sales',
      isDefault: false,
    });
    expect(await gql(ADMIN, 'Query', 'getTableauView', { id: 'u-stock' })).toMatchObject({ isDefault: true });
    await expect(gql(OTHER_USER, 'Query', 'getTableauView', { id: 'u-sales' })).rejects.toMatchObject({
      name: 'Unauthorized',
    });
    expect(await gql(USER, 'Query', 'getTableauView', { id: 'nope' })).toBeNull();
  });

  it('creates a view for an assigned dashboard with the owner from the token, and moves the default', async () => {
    const created = await gql(USER, 'Mutation', 'createTableauView', {
      input: { name: 'Sales by region', quicksightDashboardId: 'sales', userEmail: OTHER_USER.email, isDefault: true },
    });
    expect(created).toMatchObject({ userEmail: USER.email, isDefault: true, createdBy: USER.email });
    const list = (await gql(USER, 'Query', 'listTableauViews')) as Connection;
    expect(list.items.filter((v) => v.isDefault).map((v) => v.id)).toEqual([created?.id]);
  });

  it('refuses a view of a dashboard the owner does not have', async () => {
    await expect(
      gql(USER, 'Mutation', 'createTableauView', { input: { name: 'Peek', quicksightDashboardId: 'secret' } }),
    ).rejects.toMatchObject({
      name: 'Unauthorized',
      message: expect.stringContaining('is not assigned to user@example.com'),
    });
    expect((await h.tables.views()).filter((v) => v.name === 'Peek')).toEqual([]);
  });

  it('lets an admin create a view for another user', async () => {
    const created = await gql(ADMIN, 'Mutation', 'createTableauView', {
      input: { name: 'Secret copy', quicksightDashboardId: 'secret', userEmail: OTHER_USER.email },
    });
    expect(created).toMatchObject({ userEmail: OTHER_USER.email, createdBy: ADMIN.email });
    expect(await h.tables.audit()).toEqual([
      expect.objectContaining({ action: 'createTableauView', actor: ADMIN.email, outcome: 'success' }),
    ]);
  });

  it('updates only views the caller may change', async () => {
    expect(
      await gql(USER, 'Mutation', 'updateTableauView', { input: { id: 'u-sales', isDefault: true } }),
    ).toMatchObject({ name: 'Sales', isDefault: true });
    const list = (await gql(USER, 'Query', 'listTableauViews')) as Connection;
    expect(list.items.filter((v) => v.isDefault).map((v) => v.id)).toEqual(['u-sales']);
    const own = await gql(USER, 'Mutation', 'createTableauView', {
      input: { name: 'Sales by region', quicksightDashboardId: 'sales' },
    });
    expect(await gql(USER, 'Mutation', 'updateTableauView', { input: { id: own?.id, name: 'Revenue' } })).toMatchObject(
      { name: 'Revenue' },
    );
    await expect(
      gql(OTHER_USER, 'Mutation', 'updateTableauView', { input: { id: own?.id, name: 'Hijack' } }),
    ).rejects.toMatchObject({ name: 'Unauthorized' });
    await expect(
      gql(USER, 'Mutation', 'updateTableauView', { input: { id: own?.id, quicksightDashboardId: 'secret' } }),
    ).rejects.toMatchObject({ name: 'Unauthorized' });
    await expect(
      gql(USER, 'Mutation', 'updateTableauView', {
        input: { id: own?.id, name: 'X' },
        condition: { name: { eq: 'Other' } },
      }),
    ).rejects.toMatchObject({ name: 'Conflict' });
  });

  it("shows each view with its user's company, read from the company records, which nobody sets here", async () => {
    await seedCompany(h, 'c-north', 'Northwind Manufacturing');
    await seedMembership(h, USER.email, ['c-north']);
    await h.tables.put('VIEWS_TABLE', {
      id: 'u-bench',
      userEmail: USER.email,
      quicksightDashboardId: 'bench',
      name: 'Bench',
      link: 'https://bi.example.com/bench',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    const created = await gql(USER, 'Mutation', 'createTableauView', {
      input: { name: 'Bench copy', quicksightDashboardId: 'bench' },
    });
    expect(created).toMatchObject({ companyName: 'Northwind Manufacturing' });
    const before = await h.tables.views();
    for (const who of [USER, ADMIN]) {
      await expect(
        gql(who, 'Mutation', 'updateTableauView', { input: { id: 'u-bench', companyName: 'Contoso Distribution' } }),
      ).rejects.toMatchObject({
        name: 'Unauthorized',
        message: expect.stringContaining("An assignment's company is the user's company"),
      });
      await expect(
        gql(who, 'Mutation', 'updateTableauView', { input: { id: 'u-bench', companyName: '' } }),
      ).rejects.toMatchObject({ name: 'Unauthorized' });
    }
    await expect(
      gql(USER, 'Mutation', 'createTableauView', {
        input: { name: 'Planted', quicksightDashboardId: 'bench', companyName: 'Contoso Distribution' },
      }),
    ).rejects.toMatchObject({ name: 'Unauthorized' });
    expect(await h.tables.views()).toEqual(before);
    // Naming the company it already has changes nothing else.
    expect(
      await gql(USER, 'Mutation', 'updateTableauView', {
        input: { id: created?.id, name: 'Bench (mine)', companyName: 'Northwind Manufacturing' },
      }),
    ).toMatchObject({
      name: 'Bench (mine)',
      companyName: 'Northwind Manufacturing',
    });
    // Stored, the views name no company: a rename of the company changes its record only.
    expect((await h.tables.views()).filter((view) => 'companyName' in view)).toEqual([]);
    await h.tables.put('STATE_TABLE', {
      ...(await h.tables.state()).find((item) => item.pk === 'COMPANY' && item.sk === 'c-north'),
      name: 'Northwind Industrial',
    });
    const listed = await gql(USER, 'Query', 'listTableauViews', {
      filter: { companyName: { eq: 'Northwind Industrial' } },
    });
    expect((listed as { items: { id: string; companyName: string }[] }).items.map((view) => view.companyName)).toEqual(
      expect.arrayContaining(['Northwind Industrial']),
    );
    expect(
      (listed as { items: { companyName: string }[] }).items.every(
        (view) => view.companyName === 'Northwind Industrial',
      ),
    ).toBe(true);
  });

  it("refuses to delete a user's last view of a dashboard, and deletes a second one", async () => {
    await expect(gql(USER, 'Mutation', 'deleteTableauView', { input: { id: 'u-sales' } })).rejects.toMatchObject({
      name: 'Conflict',
    });
    const extra = await gql(USER, 'Mutation', 'createTableauView', {
      input: { name: 'Sales 2', quicksightDashboardId: 'sales' },
    });
    await expect(gql(OTHER_USER, 'Mutation', 'deleteTableauView', { input: { id: extra?.id } })).rejects.toMatchObject({
      name: 'Unauthorized',
    });
    expect(await gql(USER, 'Mutation', 'deleteTableauView', { input: { id: extra?.id } })).toMatchObject({
      id: extra?.id,
    });
    expect((await h.tables.views()).map((v) => v.id)).not.toContain(extra?.id);
  });

  it('refuses a client-chosen view id and writes nothing', async () => {
    const before = await h.tables.views();
    for (const id of ['my-own-id', 'u-margin', '4e8c3c2b-3f1a-5b6c-9d0e-112233445566']) {
      await expect(
        gql(USER, 'Mutation', 'createTableauView', {
          input: { id, name: 'Planted', quicksightDashboardId: 'sales', companyName: 'Evil' },
        }),
      ).rejects.toMatchObject({
        name: 'BadRequest',
        message: 'id is assigned by the server: leave it out',
      });
    }
    expect(await h.tables.views()).toEqual(before);
    expect(commandsSent.filter((command) => /Put|Update|Delete/.test(command))).toEqual([]);
  });

  it('gives every new view a random id made by the server', async () => {
    const ids = await Promise.all(
      ['A', 'B', 'C'].map(
        async (name) =>
          (
            await gql(USER, 'Mutation', 'createTableauView', {
              input: { id: null, name, quicksightDashboardId: 'sales' },
            })
          )?.id,
      ),
    );
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(3);
  });

  it("tells a user probing another user's views nothing: the same answer whether the view or assignment exists or not", async () => {
    const probe = async (args: Record<string, unknown>) => {
      const error = await gql(OTHER_USER, 'Mutation', 'createTableauView', args).then(
        () => undefined,
        (reason: Error) => ({ name: reason.name, message: reason.message }),
      );
      return error;
    };
    // By id: an existing view of USER against one that does not exist.
    const existingId = await probe({ input: { id: 'u-sales', name: 'Probe', quicksightDashboardId: 'secret' } });
    const unknownId = await probe({ input: { id: 'no-such-view', name: 'Probe', quicksightDashboardId: 'secret' } });
    expect(existingId).toEqual({ name: 'BadRequest', message: 'id is assigned by the server: leave it out' });
    expect(unknownId).toEqual(existingId);
    // By (email, dashboard): a dashboard USER has against one nobody has.
    const assigned = await probe({ input: { name: 'Probe', quicksightDashboardId: 'sales', userEmail: USER.email } });
    const unassigned = await probe({
      input: { name: 'Probe', quicksightDashboardId: 'nobody-has-it', userEmail: USER.email },
    });
    expect(assigned?.name).toBe('Unauthorized');
    expect(assigned?.message.replace('sales', 'X')).toBe(unassigned?.message.replace('nobody-has-it', 'X'));
    expect(assigned?.message).toContain(`assigned to ${OTHER_USER.email}.`);
    expect((await h.tables.views()).filter((v) => v.name === 'Probe')).toEqual([]);
  });

  it('validates arguments', async () => {
    await expect(
      gql(USER, 'Mutation', 'createTableauView', { input: { name: ' ', quicksightDashboardId: 'sales' } }),
    ).rejects.toMatchObject({
      name: 'BadRequest',
      message: 'View name is required',
    });
    await expect(gql(USER, 'Query', 'listTableauViews', { limit: 0 })).rejects.toMatchObject({ name: 'BadRequest' });
  });
});

describe(`filters nested more than 10 levels deep`, () => {
  const nest = (levels: number, wrap: (inner: Record<string, unknown>) => Record<string, unknown>) => {
    let filter: Record<string, unknown> = { name: { eq: 'Sales' } };
    for (let level = 1; level < levels; level += 1) filter = wrap(filter);
    return filter;
  };
  const not = (inner: Record<string, unknown>) => ({ not: inner });
  const and = (inner: Record<string, unknown>) => ({ and: [inner, { name: { attributeExists: true } }] });

  it(`evaluates a filter of 10 levels`, async () => {
    const result = (await gql(USER, 'Query', 'listTableauViews', {
      filter: nest(10, and),
    })) as Connection;
    expect(result.items.map((v) => v.id)).toEqual(['u-sales']);
  });

  it('refuses a deeper filter or condition with a clear BadRequest, however deep, and changes nothing', async () => {
    for (const levels of [11, 60_000]) {
      for (const wrap of [not, and]) {
        await expect(gql(USER, 'Query', 'listTableauViews', { filter: nest(levels, wrap) })).rejects.toMatchObject({
          name: 'BadRequest',
          message: `filter is nested more than 10 levels deep (and, or and not each add a level)`,
        });
      }
    }
    await expect(gql(USER, 'Query', 'listDashboardMetadata', { filter: nest(60_000, not) })).rejects.toMatchObject({
      name: 'BadRequest',
    });
    await expect(
      gql(USER, 'Mutation', 'updateTableauView', {
        input: { id: 'u-sales', name: 'Changed' },
        condition: nest(60_000, not),
      }),
    ).rejects.toMatchObject({
      name: 'BadRequest',
      message: `condition is nested more than 10 levels deep (and, or and not each add a level)`,
    });
    expect((await h.tables.views()).find((v) => v.id === 'u-sales')).toMatchObject({ name: 'Sales' });
  });

  it('refuses a filter of the wrong shape instead of failing on it', async () => {
    await expect(
      gql(USER, 'Query', 'listTableauViews', { filter: { and: { name: { eq: 'x' } } } }),
    ).rejects.toMatchObject({
      name: 'BadRequest',
      message: 'filter and must be a list of filters',
    });
    await expect(gql(USER, 'Query', 'listTableauViews', { filter: { or: ['x'] } })).rejects.toMatchObject({
      name: 'BadRequest',
    });
  });
});

describe('DashboardMetadata', () => {
  const input = { dashboardId: 'sales', dashboardName: 'Sales', dashboardLink: 'https://bi.example.com/sales' };

  it('is readable by the users a dashboard is assigned to and writable by admins only', async () => {
    await expect(gql(USER, 'Mutation', 'createDashboardMetadata', { input })).rejects.toMatchObject({
      name: 'Unauthorized',
      message: "Access denied. You don't have admin privileges.",
    });
    const created = await gql(ADMIN, 'Mutation', 'createDashboardMetadata', { input });
    expect(await gql(USER, 'Query', 'getDashboardMetadata', { id: created?.id })).toMatchObject(input);
    expect(((await gql(USER, 'Query', 'listDashboardMetadata')) as { items: unknown[] }).items).toHaveLength(1);
    await expect(
      gql(USER, 'Mutation', 'deleteDashboardMetadata', { input: { id: created?.id } }),
    ).rejects.toMatchObject({ name: 'Unauthorized' });
  });

  it('keeps dashboard IDs unique case-insensitively', async () => {
    await gql(ADMIN, 'Mutation', 'createDashboardMetadata', { input });
    await expect(
      gql(ADMIN, 'Mutation', 'createDashboardMetadata', { input: { ...input, dashboardId: 'SALES' } }),
    ).rejects.toMatchObject({
      name: 'Conflict',
      message: dashboardIdExistsMessage('SALES'),
    });
  });

  it('carries a renamed dashboard to the views and refuses deleting one users have', async () => {
    const created = await gql(ADMIN, 'Mutation', 'createDashboardMetadata', { input });
    expect(
      await gql(ADMIN, 'Mutation', 'updateDashboardMetadata', {
        input: { id: created?.id, dashboardName: 'Sales 2026' },
      }),
    ).toMatchObject({ dashboardName: 'Sales 2026' });
    expect((await h.tables.views()).find((v) => v.id === 'u-sales')).toMatchObject({ name: 'Sales 2026' });
    await expect(
      gql(ADMIN, 'Mutation', 'deleteDashboardMetadata', { input: { id: created?.id } }),
    ).rejects.toMatchObject({ name: 'Conflict' });
    const unassigned = await gql(ADMIN, 'Mutation', 'createDashboardMetadata', {
      input: { ...input, dashboardId: 'unused' },
    });
    expect(await gql(ADMIN, 'Mutation', 'deleteDashboardMetadata', { input: { id: unassigned?.id } })).toMatchObject({
      dashboardId: 'unused',
    });
    expect((await h.tables.audit()).map((e) => [e.action, e.outcome])).toEqual([
      ['deleteDashboardMetadata', 'success'],
      ['createDashboardMetadata', 'success'],
      ['deleteDashboardMetadata', 'failure'],
      ['updateDashboardMetadata', 'success'],
      ['createDashboardMetadata', 'success'],
    ]);
  });
});
