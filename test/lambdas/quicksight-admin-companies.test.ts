import { AdminGetUserCommand, UserNotFoundException } from '@aws-sdk/client-cognito-identity-provider';
import {
  AccessDeniedException,
  CreateGroupMembershipCommand,
  CreateIngestionCommand,
  LimitExceededException,
  ListGroupMembershipsCommand,
  ListUserGroupsCommand,
  ListUsersCommand,
  UpdateDashboardPermissionsCommand,
} from '@aws-sdk/client-quicksight';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COMPANY_MESSAGES } from '#contracts/companies.ts';
import {
  type FakeQuickSight,
  fakeQuickSight,
  groupArnOf,
  groupNameOf,
  rulesRows,
  scopedDataSet,
  seedCompany,
  seedMembership,
  unscopedDataSet,
} from './support/companies.ts';
import {
  ADMIN,
  COMPANY_SETTINGS,
  type Handler,
  type Harness,
  invoke,
  loadHandler,
  OTHER_USER,
  startHarness,
  USER,
} from './support/harness.ts';

let h: Harness;
let handler: Handler;
let adminToken: string;
let qs: FakeQuickSight;

const NORTH = 'c-north';
const CONTOSO = 'c-contoso';
const FABRIKAM = 'c-fabrikam';

beforeAll(async () => {
  h = await startHarness();
  handler = await loadHandler('quicksight-admin');
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  adminToken = await h.token(ADMIN);
  qs = fakeQuickSight(h, [USER.email, OTHER_USER.email]);
  h.cognito.on(AdminGetUserCommand).callsFake((input: { Username: string }) => {
    if (![USER.email, OTHER_USER.email, ADMIN.email].includes(input.Username))
      throw new UserNotFoundException({ message: 'User does not exist.', $metadata: {} });
    return { Username: input.Username, UserStatus: 'CONFIRMED' };
  });
  h.quicksight.on(UpdateDashboardPermissionsCommand).resolves({});
});

const call = (body: unknown, token = adminToken) => invoke(handler, { token, body });
const createCompany = async (name: string, kind = 'manufacturer') => {
  const res = await call({ action: 'CREATE_COMPANY', name, kind });
  expect(res.status).toBe(200);
  return res.body.company as { id: string; name: string; groupName: string };
};
/** Seeds three companies with their groups and rules, as earlier CREATE_COMPANY calls would have left them. */
const seedThree = async () => {
  await seedCompany(h, NORTH, 'Northwind Manufacturing');
  await seedCompany(h, CONTOSO, 'Contoso Distribution', 'distributor');
  await seedCompany(h, FABRIKAM, 'Fabrikam Industries');
  for (const id of [NORTH, CONTOSO, FABRIKAM]) qs.groups.set(groupNameOf(id), new Set());
};
const state = () => h.tables.state();
const membershipOf = async (email: string) =>
  (await state()).find((item) => item.pk === 'MEMBERSHIP' && item.sk === email);
const auditRows = async () => (await h.tables.audit()).map((entry) => [entry.action, entry.target, entry.outcome]);

/** The company each of a user's assignments shows in the admin portal's Dashboards panel. */
const shownCompanies = async (userEmail: string): Promise<(string | null)[]> => {
  const res = await call({ action: 'GET_USER_DASHBOARDS', userEmail });
  expect(res.status).toBe(200);
  return (res.body.dashboards as { companyName: string | null }[]).map((dashboard) => dashboard.companyName);
};

describe('admin only', () => {
  it.each([
    { action: 'LIST_COMPANIES' },
    { action: 'CREATE_COMPANY', name: 'Globex', kind: 'manufacturer' },
    { action: 'UPDATE_COMPANY', companyId: NORTH, name: 'Globex', kind: 'manufacturer' },
    { action: 'DELETE_COMPANY', companyId: NORTH },
    { action: 'SET_USER_COMPANIES', userEmail: USER.email, companies: ['Northwind Manufacturing'] },
    { action: 'CHECK_COMPANY_ACCESS', fix: true },
  ])('refuses $action from a Users caller with 403 and changes nothing', async (body) => {
    await seedThree();
    const before = await state();
    const res = await call(body, await h.token(USER));
    expect(res).toMatchObject({ status: 403, body: { error: "Access denied. You don't have admin privileges." } });
    expect(await state()).toEqual(before);
    expect(qs.changes).toEqual([]);
  });

  it('refuses a request without a token with 401', async () => {
    const res = await invoke(handler, { body: { action: 'LIST_COMPANIES' } });
    expect(res.status).toBe(401);
  });
});

describe('CREATE_COMPANY', () => {
  it('records the company, creates its QuickSight group, writes one rule per company and loads the rules', async () => {
    const company = await createCompany('  Northwind Manufacturing ');
    expect(company).toMatchObject({
      name: 'Northwind Manufacturing',
      groupName: `${COMPANY_SETTINGS.groupPrefix}${company.id}`,
    });
    expect(qs.groups.has(company.groupName)).toBe(true);
    expect(rulesRows(qs)).toEqual([`,${groupArnOf(company.id)},Northwind Manufacturing`]);
    expect(JSON.parse(qs.objects.get('company-rules/manifest.json')!)).toMatchObject({
      fileLocations: [{ URIs: [`s3://${COMPANY_SETTINGS.bucket}/company-rules/rules.csv`] }],
    });
    // The data source and the dataset are created on first use, then each change loads the file again.
    expect(qs.changes.filter((change) => /^Create(DataSource|DataSet|Ingestion)/.test(change))).toEqual([
      `CreateDataSource ${COMPANY_SETTINGS.dataSourceId}`,
      `CreateDataSet ${COMPANY_SETTINGS.dataSetId}`,
      `CreateIngestion ${COMPANY_SETTINGS.dataSetId}`,
    ]);
    const rls = h.quicksight.commandCalls(CreateIngestionCommand)[0]!.args[0].input;
    expect(rls.IngestionType).toBe('FULL_REFRESH');

    const second = await createCompany('Contoso Distribution', 'distributor');
    expect(rulesRows(qs).sort()).toEqual(
      [`,${groupArnOf(company.id)},Northwind Manufacturing`, `,${groupArnOf(second.id)},Contoso Distribution`].sort(),
    );
    expect(qs.changes.filter((change) => change.startsWith('CreateData'))).toHaveLength(2);
    expect(await auditRows()).toEqual([
      ['CREATE_COMPANY', 'Contoso Distribution', 'success'],
      ['CREATE_COMPANY', 'Northwind Manufacturing', 'success'],
    ]);
  });

  it('refuses a name taken without regard to case with 409, changing nothing', async () => {
    await seedThree();
    const before = await state();
    const res = await call({ action: 'CREATE_COMPANY', name: 'NORTHWIND manufacturing', kind: 'manufacturer' });
    expect(res).toMatchObject({ status: 409, body: { error: COMPANY_MESSAGES.nameTaken('Northwind Manufacturing') } });
    expect(await state()).toEqual(before);
    expect(qs.changes).toEqual([]);
    expect(await auditRows()).toEqual([['CREATE_COMPANY', 'NORTHWIND manufacturing', 'failure']]);
  });

  it('accepts a name of exactly 100 characters', async () => {
    const name = 'N'.repeat(100);
    expect((await createCompany(name)).name).toBe(name);
  });

  it.each([
    ['an empty name', { name: '   ', kind: 'manufacturer' }, 'Company name is required'],
    [
      'a name of 101 characters',
      { name: 'x'.repeat(101), kind: 'manufacturer' },
      'Company name must be at most 100 characters',
    ],
    [
      'a control character',
      { name: 'North\u0007wind', kind: 'manufacturer' },
      'name must not contain control characters',
    ],
    [
      'a bidirectional override',
      { name: 'North\u202Ewind', kind: 'manufacturer' },
      'name must not contain control characters',
    ],
    [
      'a zero-width space',
      { name: 'North\u200Bwind', kind: 'manufacturer' },
      'Company name must not contain control or invisible formatting characters',
    ],
    ['an unknown kind', { name: 'Globex', kind: 'retailer' }, 'Kind must be manufacturer, distributor or owner'],
  ])('refuses %s with 400 and no call', async (_label, fields, message) => {
    const res = await call({ action: 'CREATE_COMPANY', ...fields });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(message);
    expect(await state()).toEqual([]);
    expect(qs.changes).toEqual([]);
  });

  it('undoes the group, the record and the name when QuickSight refuses to load the rules', async () => {
    h.quicksight.on(CreateIngestionCommand).rejects(new AccessDeniedException({ message: 'denied', $metadata: {} }));
    const res = await call({ action: 'CREATE_COMPANY', name: 'Globex', kind: 'manufacturer' });
    expect(res.status).toBe(502);
    expect(qs.groups.size).toBe(0);
    expect((await state()).filter((item) => String(item.pk).startsWith('COMPANY'))).toEqual([]);
    // The name is free again.
    h.quicksight.on(CreateIngestionCommand).resolves({});
    expect((await call({ action: 'CREATE_COMPANY', name: 'Globex', kind: 'manufacturer' })).status).toBe(200);
  });

  it("answers 429 and changes nothing when QuickSight's daily limit of rule loads is reached", async () => {
    h.quicksight
      .on(CreateIngestionCommand)
      .rejects(new LimitExceededException({ message: 'Rate limit of 32 per 24 hours exceeded', $metadata: {} }));
    const res = await call({ action: 'CREATE_COMPANY', name: 'Globex', kind: 'manufacturer' });
    expect(res).toMatchObject({
      status: 429,
      body: { error: expect.stringContaining('32 times in the last 24 hours') },
    });
    expect(qs.groups.size).toBe(0);
    expect((await state()).filter((item) => String(item.pk).startsWith('COMPANY'))).toEqual([]);
  });
});

describe('UPDATE_COMPANY and DELETE_COMPANY', () => {
  it("renames a company in its one record: the rules follow, the group and its members stay, and its users' assignments show the new name", async () => {
    await seedThree();
    await seedMembership(h, USER.email, [NORTH]);
    qs.groups.get(groupNameOf(NORTH))!.add(USER.email);
    await h.tables.put('VIEWS_TABLE', {
      id: 'v1',
      userEmail: USER.email,
      quicksightDashboardId: 'sales',
      name: 'Sales',
      createdAt: 't',
      updatedAt: 't',
    });
    const viewsBefore = await h.tables.views();
    const res = await call({
      action: 'UPDATE_COMPANY',
      companyId: NORTH,
      name: 'Northwind Industrial',
      kind: 'manufacturer',
    });
    expect(res).toMatchObject({
      status: 200,
      body: { message: COMPANY_MESSAGES.updated, company: { id: NORTH, name: 'Northwind Industrial', userCount: 1 } },
    });
    expect(rulesRows(qs)).toContain(`,${groupArnOf(NORTH)},Northwind Industrial`);
    expect(rulesRows(qs).join('\n')).not.toContain('Northwind Manufacturing');
    expect([...qs.groups.get(groupNameOf(NORTH))!]).toEqual([USER.email]);
    // The views are not written: they refer to the user, whose membership holds the company's id.
    expect(await h.tables.views()).toEqual(viewsBefore);
    expect(await shownCompanies(USER.email)).toEqual(['Northwind Industrial']);
    // The old name is free, the new one taken.
    expect((await call({ action: 'CREATE_COMPANY', name: 'northwind industrial', kind: 'manufacturer' })).status).toBe(
      409,
    );
    expect(
      (await call({ action: 'CREATE_COMPANY', name: 'Northwind Manufacturing', kind: 'manufacturer' })).status,
    ).toBe(200);
    expect((await auditRows())[2]).toEqual(['UPDATE_COMPANY', 'Northwind Industrial', 'success']);
  });

  it("refuses another company's name (409) and an unknown id (404)", async () => {
    await seedThree();
    expect(
      (await call({ action: 'UPDATE_COMPANY', companyId: NORTH, name: 'contoso distribution', kind: 'manufacturer' }))
        .status,
    ).toBe(409);
    const missing = await call({ action: 'UPDATE_COMPANY', companyId: 'nope', name: 'Globex', kind: 'manufacturer' });
    expect(missing).toMatchObject({ status: 404, body: { error: COMPANY_MESSAGES.notFound } });
    expect(qs.changes).toEqual([]);
  });

  it('refuses to delete a company that still has users with 409 naming the count', async () => {
    await seedThree();
    await seedMembership(h, USER.email, [NORTH]);
    await seedMembership(h, OTHER_USER.email, [NORTH, CONTOSO], true);
    const before = await state();
    const res = await call({ action: 'DELETE_COMPANY', companyId: NORTH });
    expect(res).toMatchObject({
      status: 409,
      body: { error: COMPANY_MESSAGES.hasUsers('Northwind Manufacturing', 2) },
    });
    expect(res.body.error).toBe(
      'Company "Northwind Manufacturing" still has 2 users. Move them to another company first.',
    );
    expect(await state()).toEqual(before);
    expect(qs.groups.has(groupNameOf(NORTH))).toBe(true);
  });

  it('deletes a company without users: its rule, its group and its record', async () => {
    await seedThree();
    const res = await call({ action: 'DELETE_COMPANY', companyId: FABRIKAM });
    expect(res).toMatchObject({
      status: 200,
      body: { message: COMPANY_MESSAGES.deleted, company: { name: 'Fabrikam Industries' } },
    });
    expect(qs.groups.has(groupNameOf(FABRIKAM))).toBe(false);
    expect(rulesRows(qs).sort()).toEqual([
      `,${groupArnOf(CONTOSO)},Contoso Distribution`,
      `,${groupArnOf(NORTH)},Northwind Manufacturing`,
    ]);
    expect(
      (await state())
        .filter((item) => item.pk === 'COMPANY')
        .map((item) => item.sk)
        .sort(),
    ).toEqual([CONTOSO, NORTH]);
    expect(await auditRows()).toEqual([['DELETE_COMPANY', 'Fabrikam Industries', 'success']]);
    expect((await call({ action: 'DELETE_COMPANY', companyId: FABRIKAM })).status).toBe(404);
  });
});

describe('SET_USER_COMPANIES', () => {
  const setCompanies = (companies: string[], owner = false, userEmail = USER.email) =>
    call({ action: 'SET_USER_COMPANIES', userEmail, companies, owner });

  it('moves a user from one company to another: out of the old group before into the new one, their assignments showing the new one', async () => {
    await seedThree();
    await seedMembership(h, USER.email, [NORTH]);
    qs.groups.get(groupNameOf(NORTH))!.add(USER.email);
    await h.tables.put('VIEWS_TABLE', {
      id: 'v1',
      userEmail: USER.email,
      quicksightDashboardId: 'sales',
      name: 'Sales',
      // Written by an older version, which copied the company's name onto each view: never read.
      companyName: 'Northwind Manufacturing',
      createdAt: 't',
      updatedAt: 't',
    });
    const res = await setCompanies(['contoso DISTRIBUTION']);
    expect(res).toMatchObject({
      status: 200,
      body: { message: COMPANY_MESSAGES.userCompaniesSet, companies: ['Contoso Distribution'], owner: false },
    });
    expect(qs.changes).toEqual([
      `DeleteGroupMembership ${groupNameOf(NORTH)} ${USER.email}`,
      `CreateGroupMembership ${groupNameOf(CONTOSO)} ${USER.email}`,
    ]);
    expect(await membershipOf(USER.email)).toMatchObject({ companyIds: [CONTOSO], owner: false });
    expect(await shownCompanies(USER.email)).toEqual(['Contoso Distribution']);
    expect((await h.tables.views())[0]).toMatchObject({ updatedAt: 't' });
    const [entry] = await h.tables.audit();
    expect(entry).toMatchObject({
      action: 'SET_USER_COMPANIES',
      target: USER.email,
      outcome: 'success',
      detail: 'companies Northwind Manufacturing -> Contoso Distribution',
    });
  });

  it('gives an owner account several companies, one group each', async () => {
    await seedThree();
    const res = await setCompanies(['Northwind Manufacturing', 'Contoso Distribution'], true);
    expect(res.status).toBe(200);
    expect([...qs.groups.get(groupNameOf(NORTH))!]).toEqual([USER.email]);
    expect([...qs.groups.get(groupNameOf(CONTOSO))!]).toEqual([USER.email]);
    expect([...qs.groups.get(groupNameOf(FABRIKAM))!]).toEqual([]);
    expect(await membershipOf(USER.email)).toMatchObject({ companyIds: [NORTH, CONTOSO], owner: true });
  });

  it('is idempotent: the same companies again change nothing in QuickSight', async () => {
    await seedThree();
    await setCompanies(['Northwind Manufacturing']);
    qs.changes.length = 0;
    expect((await setCompanies(['Northwind Manufacturing'])).status).toBe(200);
    expect(qs.changes).toEqual([]);
  });

  it('records the company of a user not yet registered in QuickSight, without touching groups', async () => {
    await seedThree();
    qs.users.delete(USER.email);
    expect((await setCompanies(['Fabrikam Industries'])).status).toBe(200);
    expect(await membershipOf(USER.email)).toMatchObject({ companyIds: [FABRIKAM] });
    expect(qs.changes).toEqual([]);
    // QuickSight is asked which groups the user is in, and answers it has no such user.
    expect(h.quicksight.commandCalls(ListUserGroupsCommand)).toHaveLength(1);
  });

  it.each([
    ['an unknown company', ['Globex'], false, 400, COMPANY_MESSAGES.unknownCompany('Globex')],
    [
      'two unknown companies',
      ['Globex', 'Initech'],
      true,
      400,
      'Company "Globex" does not exist; Company "Initech" does not exist',
    ],
    [
      'two companies for a non-owner',
      ['Northwind Manufacturing', 'Contoso Distribution'],
      false,
      400,
      COMPANY_MESSAGES.oneCompanyOnly,
    ],
    ['no company', [], false, 400, COMPANY_MESSAGES.atLeastOne],
    [
      'a company twice',
      ['Northwind Manufacturing', 'northwind manufacturing'],
      true,
      400,
      COMPANY_MESSAGES.duplicate('northwind manufacturing'),
    ],
  ])('refuses %s with 400 and changes nothing', async (_label, companies, owner, status, message) => {
    await seedThree();
    await seedMembership(h, USER.email, [NORTH]);
    const before = await state();
    const res = await setCompanies(companies, owner);
    expect(res.status).toBe(status);
    expect(res.body.error).toContain(message);
    expect(await state()).toEqual(before);
    expect(qs.changes).toEqual([]);
  });

  it('answers 404 for an account Cognito does not have', async () => {
    await seedThree();
    const res = await setCompanies(['Northwind Manufacturing'], false, 'ghost@example.com');
    expect(res).toMatchObject({ status: 404, body: { error: 'User not found' } });
    expect(await membershipOf('ghost@example.com')).toBeUndefined();
  });

  it('puts the user back in the old group when joining the new one fails, and keeps the portal record', async () => {
    await seedThree();
    await seedMembership(h, USER.email, [NORTH]);
    qs.groups.get(groupNameOf(NORTH))!.add(USER.email);
    h.quicksight.on(CreateGroupMembershipCommand).callsFake((input: { GroupName: string; MemberName: string }) => {
      if (input.GroupName === groupNameOf(CONTOSO))
        throw new AccessDeniedException({ message: 'denied', $metadata: {} });
      qs.groups.get(input.GroupName)!.add(input.MemberName);
      return {};
    });
    const res = await setCompanies(['Contoso Distribution']);
    expect(res.status).toBe(502);
    expect([...qs.groups.get(groupNameOf(NORTH))!]).toEqual([USER.email]);
    expect([...qs.groups.get(groupNameOf(CONTOSO))!]).toEqual([]);
    expect(await membershipOf(USER.email)).toMatchObject({ companyIds: [NORTH] });
    expect(await auditRows()).toEqual([['SET_USER_COMPANIES', USER.email, 'failure']]);
  });
});

describe('CHECK_COMPANY_ACCESS', () => {
  /** Three companies in step with QuickSight: USER in Northwind, OTHER_USER owning Northwind and Contoso. */
  const inStep = async () => {
    for (const [name, kind] of [
      ['Northwind Manufacturing', 'manufacturer'],
      ['Contoso Distribution', 'distributor'],
      ['Fabrikam Industries', 'manufacturer'],
    ]) {
      await createCompany(name!, kind);
    }
    const ids = new Map(
      ((await call({ action: 'LIST_COMPANIES' })).body.companies as { id: string; name: string }[]).map((c) => [
        c.name,
        c.id,
      ]),
    );
    await call({ action: 'SET_USER_COMPANIES', userEmail: USER.email, companies: ['Northwind Manufacturing'] });
    await call({
      action: 'SET_USER_COMPANIES',
      userEmail: OTHER_USER.email,
      companies: ['Northwind Manufacturing', 'Contoso Distribution'],
      owner: true,
    });
    return ids;
  };

  it('finds nothing when QuickSight matches the portal, with list calls only', async () => {
    await inStep();
    h.quicksight.resetHistory();
    const res = await call({ action: 'CHECK_COMPANY_ACCESS' });
    expect(res).toMatchObject({ status: 200, body: { fix: false, checkedBy: ADMIN.email, differences: [] } });
    const operations = h.quicksight.calls().map((c) => c.args[0].constructor.name.replace(/Command$/, ''));
    expect(new Set(operations)).toEqual(new Set(['ListUsers', 'ListGroups', 'ListGroupMemberships', 'ListIngestions']));
    expect(typeof res.body.quicksightCalls).toBe('number');
    expect(h.quicksight.commandCalls(ListUsersCommand)).toHaveLength(1);
    expect(h.quicksight.commandCalls(ListGroupMembershipsCommand)).toHaveLength(3);
  });

  it('reports a membership removed behind the portal and a stray group, then mends them with fix, auditing each mend', async () => {
    const ids = await inStep();
    const northGroup = groupNameOf(ids.get('Northwind Manufacturing')!);
    qs.groups.get(northGroup)!.delete(USER.email);
    qs.groups.get(groupNameOf(ids.get('Fabrikam Industries')!))!.add(USER.email);
    qs.groups.set(`${COMPANY_SETTINGS.groupPrefix}stray`, new Set());
    qs.objects.set('company-rules/rules.csv', 'UserARN,GroupARN,company\n');

    const found = await call({ action: 'CHECK_COMPANY_ACCESS', fix: false });
    expect(found.status).toBe(200);
    const kinds = (found.body.differences as { kind: string; subject: string | null }[]).map((d) => [
      d.kind,
      d.subject,
    ]);
    expect(kinds).toEqual(
      expect.arrayContaining([
        ['member-missing', USER.email],
        ['member-unexpected', USER.email],
        ['group-unexpected', `${COMPANY_SETTINGS.groupPrefix}stray`],
        ['rules-outdated', null],
      ]),
    );
    expect(kinds).toHaveLength(4);
    expect((found.body.differences as unknown[])[0]).toMatchObject({
      expected: expect.any(String),
      found: expect.any(String),
    });
    // Checking changes nothing.
    expect(qs.groups.get(northGroup)!.has(USER.email)).toBe(false);

    const fixed = await call({ action: 'CHECK_COMPANY_ACCESS', fix: true });
    expect((fixed.body.differences as { fixed: boolean }[]).every((d) => d.fixed)).toBe(true);
    expect(qs.groups.get(northGroup)!.has(USER.email)).toBe(true);
    expect(qs.groups.has(`${COMPANY_SETTINGS.groupPrefix}stray`)).toBe(false);
    expect(rulesRows(qs)).toHaveLength(3);
    const mends = (await h.tables.audit()).filter((entry) => entry.action === 'FIX_COMPANY_ACCESS');
    expect(mends).toHaveLength(4);
    expect(mends.every((entry) => entry.outcome === 'success')).toBe(true);

    const again = await call({ action: 'CHECK_COMPANY_ACCESS' });
    expect(again.body.differences).toEqual([]);
    const listed = await call({ action: 'LIST_COMPANIES' });
    expect(listed.body.lastCheck).toMatchObject({ checkedBy: ADMIN.email, fix: false, differences: [] });
  });

  it('reports a dashboard shared by two companies whose dataset applies no rules, and cannot mend it', async () => {
    const ids = await inStep();
    await h.tables.put('DASHBOARDS_TABLE', {
      id: 'm-bench',
      dashboardId: 'bench',
      dashboardName: 'Bench',
      dashboardLink: 'https://bi.example.com/bench',
      isActive: true,
      createdAt: 't',
      updatedAt: 't',
    });
    for (const [id, email] of [
      ['v1', USER.email],
      ['v2', OTHER_USER.email],
    ]) {
      await h.tables.put('VIEWS_TABLE', {
        id,
        userEmail: email,
        quicksightDashboardId: 'bench',
        name: 'Bench',
        createdAt: 't',
        updatedAt: 't',
      });
    }
    qs.dashboards.set('bench', ['bench-data']);
    qs.dataSets.set('bench-data', unscopedDataSet('bench-data'));
    const res = await call({ action: 'CHECK_COMPANY_ACCESS', fix: true });
    expect(res.body.differences).toEqual([
      expect.objectContaining({
        kind: 'dashboard-not-scoped',
        subject: 'bench',
        company: 'Contoso Distribution, Northwind Manufacturing',
        fixed: false,
      }),
    ]);
    expect(ids.size).toBe(3);
    // The group rules alone: the tag rule an emailed file's rows are chosen by is missing, and only an author adds it.
    qs.dataSets.set('bench-data', scopedDataSet('bench-data'));
    expect((await call({ action: 'CHECK_COMPANY_ACCESS', fix: true })).body.differences).toEqual([
      expect.objectContaining({
        kind: 'dashboard-no-tag-rules',
        subject: 'bench',
        company: 'Contoso Distribution, Northwind Manufacturing',
        expected: 'a tag rule on every dataset: tag company, column company, delimiter ","',
        found: 'dataset bench-data: no tag rules',
        fixed: false,
        note: 'Only a QuickSight author can add the tag rule to its datasets',
      }),
    ]);
    qs.dataSets.set('bench-data', {
      ...scopedDataSet('bench-data'),
      RowLevelPermissionTagConfiguration: {
        Status: 'ENABLED',
        TagRules: [{ TagKey: 'company', ColumnName: 'company', TagMultiValueDelimiter: ',' }],
      },
    });
    expect((await call({ action: 'CHECK_COMPANY_ACCESS' })).body.differences).toEqual([]);
  });
});

describe('shared data: assigning a dashboard that is not company-scoped', () => {
  const invite = (userEmail: string, extra: Record<string, unknown> = {}) =>
    call({
      action: 'INVITE_TO_DASHBOARD',
      userEmail,
      dashboardId: 'bench',
      dashboardName: 'Bench',
      dashboardLink: 'https://bi.example.com/bench',
      ...extra,
    });

  beforeEach(async () => {
    await seedThree();
    await seedMembership(h, USER.email, [NORTH]);
    await seedMembership(h, OTHER_USER.email, [CONTOSO]);
    await h.tables.put('DASHBOARDS_TABLE', {
      id: 'm-bench',
      dashboardId: 'bench',
      dashboardName: 'Bench',
      dashboardLink: 'https://bi.example.com/bench',
      isActive: true,
      createdAt: 't',
      updatedAt: 't',
    });
    qs.dashboards.set('bench', ['bench-data']);
    qs.dataSets.set('bench-data', unscopedDataSet('bench-data'));
    expect((await invite(USER.email)).status).toBe(200);
  });

  it('refuses another company with 409 naming the risk, until the admin confirms shared data', async () => {
    const refused = await invite(OTHER_USER.email);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe(
      COMPANY_MESSAGES.notScoped('bench', 'Contoso Distribution', ['Northwind Manufacturing']),
    );
    expect((await h.tables.views()).filter((view) => view.userEmail === OTHER_USER.email)).toEqual([]);

    const confirmed = await invite(OTHER_USER.email, { confirmSharedData: true });
    expect(confirmed.status).toBe(200);
    expect((await h.tables.dashboards()).find((entry) => entry.dashboardId === 'bench')).toMatchObject({
      sharedData: true,
    });
    expect(await auditRows()).toEqual(
      expect.arrayContaining([
        ['CONFIRM_SHARED_DATA', 'bench', 'success'],
        ['INVITE_TO_DASHBOARD', OTHER_USER.email, 'failure'],
      ]),
    );
    // Once confirmed, the dashboard may reach further companies without asking again.
    await seedMembership(h, ADMIN.email, [FABRIKAM]);
    qs.users.add(ADMIN.email);
    expect((await invite(ADMIN.email)).status).toBe(200);
  });

  it('assigns a company-scoped dashboard across companies without asking', async () => {
    qs.dataSets.set('bench-data', scopedDataSet('bench-data'));
    expect((await invite(OTHER_USER.email)).status).toBe(200);
  });

  it('does not accept a dataset that applies rules other than the portal’s', async () => {
    qs.dataSets.set(
      'bench-data',
      scopedDataSet('bench-data', 'arn:aws:quicksight:us-east-2:123456789012:dataset/someone-elses-rules'),
    );
    expect((await invite(OTHER_USER.email)).status).toBe(409);
  });
});
