import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COMPANY_MESSAGES } from '#contracts/companies.ts';
import {
  acceptAccounts,
  type FakeQuickSight,
  fakeQuickSight,
  groupNameOf,
  SAMPLE_COMPANIES,
  seedMembership,
  seedSampleCompanies,
} from './support/companies.ts';
import {
  ADMIN,
  type CallResult,
  type Handler,
  type Harness,
  invoke,
  loadHandler,
  OTHER_ADMIN,
  startHarness,
  USER,
} from './support/harness.ts';

/**
 * One company change per user at a time (SET_USER_COMPANIES): each change holds a lease on the
 * user while it reads QuickSight's groups of the user, changes them and records the companies,
 * so concurrent changes by two administrators never leave the user in two companies' groups,
 * and removals follow the groups QuickSight really has the user in.
 */

let h: Harness;
let handler: Handler;
let qs: FakeQuickSight;
let tokens: string[];

const [NORTH, CONTOSO, FABRIKAM] = SAMPLE_COMPANIES;
type SampleCompany = (typeof SAMPLE_COMPANIES)[number];
const groupOf = (company: SampleCompany) => groupNameOf(company.id);

beforeAll(async () => {
  h = await startHarness();
  handler = await loadHandler('quicksight-admin');
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  tokens = [await h.token(ADMIN), await h.token(OTHER_ADMIN)];
  qs = fakeQuickSight(h, [USER.email]);
  acceptAccounts(h, [USER.email, ADMIN.email, OTHER_ADMIN.email]);
  await seedSampleCompanies(h, qs);
  // The user belongs to Northwind, in the portal and in QuickSight.
  await seedMembership(h, USER.email, [NORTH.id]);
  qs.groups.get(groupOf(NORTH))!.add(USER.email);
  await h.tables.put('VIEWS_TABLE', {
    id: 'v-sales',
    userEmail: USER.email,
    quicksightDashboardId: 'sales',
    name: 'Sales',
    // Written by an older version, which copied the company's name onto each view.
    companyName: NORTH.name,
    createdAt: 't',
    updatedAt: 't',
  });
});

const setCompany = (name: string, token = tokens[0]!) =>
  invoke(handler, { token, body: { action: 'SET_USER_COMPANIES', userEmail: USER.email, companies: [name] } });
/** The company groups QuickSight has the user in. */
const groupsOfUser = () =>
  [...qs.groups].flatMap(([group, members]) => (members.has(USER.email) ? [group] : [])).sort();
const membership = async () =>
  (await h.tables.state()).find((item) => item.pk === 'MEMBERSHIP' && item.sk === USER.email);

/**
 * The most company groups the user was in at any moment: the group changes QuickSight saw,
 * replayed in order from where the user started.
 */
const mostGroupsAtOnce = (start: readonly string[]) => {
  const held = new Set(start);
  let most = held.size;
  for (const change of qs.changes) {
    const [operation, group, member] = change.split(' ');
    if (member !== USER.email) continue;
    if (operation === 'CreateGroupMembership') held.add(group!);
    if (operation === 'DeleteGroupMembership') held.delete(group!);
    most = Math.max(most, held.size);
  }
  return most;
};

describe('the groups a change removes', () => {
  it('are those QuickSight has the user in, not those the portal recorded', async () => {
    // A membership left behind in QuickSight (a change that died part way, or one made outside the portal).
    qs.groups.get(groupOf(CONTOSO))!.add(USER.email);
    const res = await setCompany(FABRIKAM.name);
    expect(res).toMatchObject({ status: 200, body: { companies: [FABRIKAM.name], before: [NORTH.name] } });
    expect(groupsOfUser()).toEqual([groupOf(FABRIKAM)]);
    expect(await membership()).toMatchObject({ companyIds: [FABRIKAM.id] });
  });

  it('include none when QuickSight already matches, and the change adds nothing twice', async () => {
    expect((await setCompany(NORTH.name)).status).toBe(200);
    expect(qs.changes).toEqual([]);
    expect(groupsOfUser()).toEqual([groupOf(NORTH)]);
  });
});

describe('a change while another change of the same user is in progress', () => {
  it('is refused with 409 stating why once the other holds on past the wait, and changes nothing', async () => {
    // Another request holds the user's lease (lambdas/shared/data/lease.ts) and is not finishing.
    const now = Math.floor(Date.now() / 1000);
    await h.tables.put('STATE_TABLE', {
      pk: `LEASE#COMPANIES#${USER.email}`,
      sk: 'LEASE',
      holder: 'another-request',
      expiresAt: now + 30,
    });
    const before = await h.tables.state();
    const res = await setCompany(CONTOSO.name);
    expect(res).toMatchObject({
      status: 409,
      body: {
        error: COMPANY_MESSAGES.changeInProgress,
        reason: `Another request is changing the companies of ${USER.email} and has not finished; this one changed nothing.`,
        userEmail: USER.email,
      },
    });
    expect(await h.tables.state()).toEqual(before);
    expect(qs.changes).toEqual([]);
    expect(groupsOfUser()).toEqual([groupOf(NORTH)]);
    expect((await h.tables.audit()).map((entry) => [entry.action, entry.outcome])).toEqual([
      ['SET_USER_COMPANIES', 'failure'],
    ]);
  });

  it('goes ahead once a lease left by a request that died has expired', async () => {
    await h.tables.put('STATE_TABLE', {
      pk: `LEASE#COMPANIES#${USER.email}`,
      sk: 'LEASE',
      holder: 'a-request-that-died',
      expiresAt: Math.floor(Date.now() / 1000) - 1,
    });
    expect((await setCompany(CONTOSO.name)).status).toBe(200);
    expect(groupsOfUser()).toEqual([groupOf(CONTOSO)]);
  });
});

describe('simultaneous changes of one user by two administrators', () => {
  /**
   * Sends the changes at once, alternating the two administrators, and answers them in the
   * order they finished.
   */
  const race = async (targets: readonly SampleCompany[]) => {
    const finished: { target: SampleCompany; res: CallResult }[] = [];
    await Promise.all(
      targets.map(async (target, index) => {
        const res = await setCompany(target.name, tokens[index % 2]);
        finished.push({ target, res });
      }),
    );
    return finished;
  };

  it.each([
    ['two', [CONTOSO, FABRIKAM]],
    ['twelve', Array.from({ length: 12 }, (_, i) => [CONTOSO, FABRIKAM, NORTH][i % 3]!)],
  ])('%s end with the user in exactly the last change’s group, never in two at once', async (_, targets) => {
    const finished = await race(targets);
    for (const { res } of finished) {
      if (res.status !== 200)
        expect(res).toMatchObject({ status: 409, body: { error: COMPANY_MESSAGES.changeInProgress } });
    }
    const done = finished.filter(({ res }) => res.status === 200);
    expect(done.length).toBeGreaterThan(0);
    // One after the other: each change found the companies the change before it left.
    let companies: string[] = [NORTH.name];
    for (const { target, res } of done) {
      expect(res.body.before).toEqual(companies);
      companies = [target.name];
    }
    const last = done.at(-1)!.target;
    expect(groupsOfUser()).toEqual([groupOf(last)]);
    expect(await membership()).toMatchObject({ companyIds: [last.id] });
    // The user's assignment shows the last company, read from the records; the view itself was not written.
    const shown = await invoke(handler, {
      token: tokens[0]!,
      body: { action: 'GET_USER_DASHBOARDS', userEmail: USER.email },
    });
    expect((shown.body.dashboards as { companyName: string | null }[]).map((view) => view.companyName)).toEqual([
      last.name,
    ]);
    expect((await h.tables.views()).map((view) => view.updatedAt)).toEqual(['t']);
    expect(mostGroupsAtOnce([groupOf(NORTH)])).toBe(1);
    const successes = (await h.tables.audit()).filter(
      (entry) => entry.action === 'SET_USER_COMPANIES' && entry.outcome === 'success',
    );
    expect(successes).toHaveLength(done.length);
  });
});
