import { AdminCreateUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { type RowLevelPermissionFormatVersion, UpdateDashboardPermissionsCommand } from '@aws-sdk/client-quicksight';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COMPANY_MESSAGES } from '#contracts/companies.ts';
import { NAME_SPLITS_NOT_MENDED } from '#lambdas/shared/companies/name-check.ts';
import {
  acceptAccounts,
  type FakeQuickSight,
  fakeQuickSight,
  groupNameOf,
  RULES_DATA_SET_ARN,
  SAMPLE_COMPANIES,
  scopedDataSet,
  seedCompany,
  seedMembership,
  seedSampleCompanies,
} from './support/companies.ts';
import {
  ADMIN,
  type Handler,
  type Harness,
  invoke,
  loadHandler,
  OTHER_USER,
  startHarness,
  USER,
} from './support/harness.ts';

/**
 * Company names the row-level-security rules cannot split: QuickSight reads a comma in a rule's
 * value as a separator between values and a double quote as a quote, so a name with either is
 * refused wherever a name enters (create, rename, import, a user's companies), and one made
 * before is reported by the company-access check. And the *Company-scoped* label: only for
 * datasets that attach the rules in the format the portal writes (FormatVersion VERSION_2).
 */

let h: Harness;
let handler: Handler;
let qs: FakeQuickSight;
let adminToken: string;

const [{ id: NORTH }, { id: CONTOSO }, { id: FABRIKAM }] = SAMPLE_COMPANIES;

beforeAll(async () => {
  h = await startHarness();
  handler = await loadHandler('quicksight-admin');
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  adminToken = await h.token(ADMIN);
  qs = fakeQuickSight(h, [USER.email, OTHER_USER.email]);
  acceptAccounts(h, [USER.email, OTHER_USER.email, ADMIN.email]);
  h.quicksight.on(UpdateDashboardPermissionsCommand).resolves({});
  await seedSampleCompanies(h, qs);
});

const call = (body: unknown) => invoke(handler, { token: adminToken, body });
const SPLITTING = [
  'Evil, Contoso Distribution',
  'Fabrikam Industries,Contoso Distribution',
  'Acme "North" Works',
  'a,b',
];

describe('a company name with a comma or a double quote', () => {
  it.each(SPLITTING)('is refused on create with 400 stating why, and nothing changes: %s', async (name) => {
    const before = await h.tables.state();
    const res = await call({ action: 'CREATE_COMPANY', name, kind: 'manufacturer' });
    expect(res).toMatchObject({ status: 400, body: { error: COMPANY_MESSAGES.nameSplits, fields: ['name'] } });
    expect(await h.tables.state()).toEqual(before);
    expect(qs.changes).toEqual([]);
  });

  it('is refused on rename, and the company keeps its name', async () => {
    const before = await h.tables.state();
    const res = await call({
      action: 'UPDATE_COMPANY',
      companyId: FABRIKAM,
      name: 'Fabrikam Industries,Contoso Distribution',
      kind: 'manufacturer',
    });
    expect(res).toMatchObject({ status: 400, body: { error: COMPANY_MESSAGES.nameSplits, fields: ['name'] } });
    expect(await h.tables.state()).toEqual(before);
    expect(qs.changes).toEqual([]);
  });

  it('is refused in an imported row before any account is made', async () => {
    const res = await call({
      action: 'IMPORT_USER',
      userEmail: 'new.person@example.com',
      companyName: 'Evil, Contoso Distribution',
      dashboards: ['sales-performance'],
    });
    expect(res).toMatchObject({ status: 400, body: { error: COMPANY_MESSAGES.nameSplits, fields: ['companyName'] } });
    expect(h.cognito.commandCalls(AdminCreateUserCommand)).toEqual([]);
    expect(qs.changes).toEqual([]);
  });

  it("is refused among a user's companies, so no one joins a company made with such a name before", async () => {
    await seedCompany(h, 'c-evil', 'Evil, Contoso Distribution');
    const before = await h.tables.state();
    const res = await call({
      action: 'SET_USER_COMPANIES',
      userEmail: USER.email,
      companies: ['Evil, Contoso Distribution'],
    });
    expect(res).toMatchObject({ status: 400, body: { error: COMPANY_MESSAGES.nameSplits } });
    expect(await h.tables.state()).toEqual(before);
    expect(qs.changes).toEqual([]);
  });

  it('made before the rule, is reported by the access check with the companies it grants, and only a rename mends it', async () => {
    await seedCompany(h, 'c-evil', 'Evil, Contoso Distribution');
    qs.groups.set(groupNameOf('c-evil'), new Set());
    const difference = {
      kind: 'name-splits',
      company: 'Evil, Contoso Distribution',
      subject: null,
      expected: 'a name without a comma or a double quote',
      found:
        'QuickSight reads its rule as 2 companies (Evil; Contoso Distribution), granting the rows of Contoso Distribution',
    };
    const checked = await call({ action: 'CHECK_COMPANY_ACCESS' });
    expect(checked.status).toBe(200);
    expect(checked.body.differences).toEqual(expect.arrayContaining([difference]));
    const fixed = await call({ action: 'CHECK_COMPANY_ACCESS', fix: true });
    expect(fixed.body.differences).toEqual(
      expect.arrayContaining([{ ...difference, fixed: false, note: NAME_SPLITS_NOT_MENDED }]),
    );
    expect(
      (await h.tables.audit()).filter((entry) => entry.action === 'FIX_COMPANY_ACCESS' && entry.outcome === 'failure'),
    ).toEqual([expect.objectContaining({ target: 'Evil, Contoso Distribution' })]);
  });

  it('is not reported once renamed', async () => {
    await seedCompany(h, 'c-evil', 'Evil, Contoso Distribution');
    const renamed = await call({
      action: 'UPDATE_COMPANY',
      companyId: 'c-evil',
      name: 'Evil Works',
      kind: 'manufacturer',
    });
    expect(renamed.status).toBe(200);
    const checked = await call({ action: 'CHECK_COMPANY_ACCESS' });
    expect((checked.body.differences as { kind: string }[]).map((difference) => difference.kind)).not.toContain(
      'name-splits',
    );
  });
});

describe('the Company-scoped label', () => {
  beforeEach(async () => {
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
    await seedMembership(h, USER.email, [NORTH]);
    await seedMembership(h, OTHER_USER.email, [CONTOSO]);
  });

  const scopeOfBench = async () => {
    const res = await call({ action: 'LIST_DASHBOARD_METADATA' });
    expect(res.status).toBe(200);
    const entry = (res.body.dashboards as { dashboardId: string; scope: string; scopeDetail: string }[]).find(
      (dashboard) => dashboard.dashboardId === 'bench',
    );
    return { scope: entry?.scope, detail: entry?.scopeDetail };
  };
  const attached = (FormatVersion?: RowLevelPermissionFormatVersion) => {
    const dataSet = scopedDataSet('bench-data');
    qs.dataSets.set('bench-data', {
      ...dataSet,
      RowLevelPermissionDataSet: { ...dataSet.RowLevelPermissionDataSet!, Arn: RULES_DATA_SET_ARN, FormatVersion },
    });
  };
  const invite = (userEmail: string) =>
    call({
      action: 'INVITE_TO_DASHBOARD',
      userEmail,
      dashboardId: 'bench',
      dashboardName: 'Bench',
      dashboardLink: 'https://bi.example.com/bench',
    });

  it.each<[string, RowLevelPermissionFormatVersion | undefined]>([
    ['VERSION_1', 'VERSION_1'],
    ['no FormatVersion (VERSION_1)', undefined],
  ])(
    'is not given to rules attached in %s, and the dashboard does not cross companies unconfirmed',
    async (_, version) => {
      attached(version);
      expect(await scopeOfBench()).toEqual({
        scope: 'not-scoped',
        detail: 'dataset bench-data: FormatVersion VERSION_1 (VERSION_2 expected)',
      });
      expect((await invite(USER.email)).status).toBe(200);
      expect(await invite(OTHER_USER.email)).toMatchObject({
        status: 409,
        body: { error: COMPANY_MESSAGES.notScoped('bench', 'Contoso Distribution', ['Northwind Manufacturing']) },
      });
    },
  );

  it('is given to rules attached in VERSION_2, the format the portal writes', async () => {
    attached('VERSION_2');
    expect(await scopeOfBench()).toEqual({
      scope: 'company-scoped',
      detail: "Its dataset applies the portal's company rules",
    });
    expect((await invite(USER.email)).status).toBe(200);
    expect((await invite(OTHER_USER.email)).status).toBe(200);
  });
});
