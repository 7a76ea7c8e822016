import { COMPANY_MESSAGES } from '#contracts/companies.ts';
import { type CompanyItem, type MembershipItem, getMembership, putMembership } from '../data/companies.ts';
import { withLease } from '../data/lease.ts';
import { BadRequestError, ConflictError } from '../errors.ts';
import { addMember, companyGroupsOfUser, groupNameOf, removeMember } from './groups.ts';

/**
 * A user's companies, in the portal and in QuickSight. The portal's membership record is the
 * truth; a registered QuickSight user is in exactly the groups of their companies.
 *
 * Every change of one user's companies takes turns under a lease on that user (a conditional
 * put in the State table, as promotions to admin do), and works out its group steps from the
 * groups QuickSight says the user is in (ListUserGroups), read inside the lease: two changes
 * never interleave, and a group left by an earlier failure or an outside change is removed
 * too. Removals come before additions, and a failure part way undoes the group steps already
 * taken, so a user is never left in a group they should not be in.
 */

/** The lease every change of one user's companies takes (lambdas/shared/data/lease.ts). */
const companiesLease = (email: string): string => `COMPANIES#${email.toLowerCase()}`;

/** Runs `work` as the only change of the user's companies in progress; 409 when another one holds on. */
const oneChangeAtATime = <T>(email: string, work: () => Promise<T>): Promise<T> =>
  withLease(
    companiesLease(email),
    work,
    () =>
      new ConflictError(COMPANY_MESSAGES.changeInProgress, {
        userEmail: email,
        reason: `Another request is changing the companies of ${email} and has not finished; this one changed nothing.`,
        suggestion: 'Refresh the user list to see the change that was made, then try again if it is still needed.',
      }),
  );

/** The companies a request names, by id; unknown names are one 400 naming each. */
export const resolveCompanyNames = (names: readonly string[], companies: readonly CompanyItem[]): CompanyItem[] => {
  const byName = new Map(companies.map((company) => [company.name.toLowerCase(), company]));
  const unknown = names.filter((name) => !byName.has(name.trim().toLowerCase()));
  if (unknown.length > 0) {
    throw new BadRequestError(unknown.map(COMPANY_MESSAGES.unknownCompany).join('; '), {
      fields: ['companies'],
      suggestion: 'Create the company on the Companies tab first.',
    });
  }
  return names.map((name) => byName.get(name.trim().toLowerCase())!);
};

type GroupStep = { readonly kind: 'add' | 'remove'; readonly groupName: string };

const runStep = (email: string, step: GroupStep) =>
  step.kind === 'add' ? addMember(step.groupName, email) : removeMember(step.groupName, email);

const inverse = (step: GroupStep): GroupStep => ({
  kind: step.kind === 'add' ? 'remove' : 'add',
  groupName: step.groupName,
});

/** Runs the steps in order; on a failure undoes the finished ones in reverse and rethrows. */
const runGroupSteps = async (email: string, steps: readonly GroupStep[]): Promise<void> => {
  const done: GroupStep[] = [];
  try {
    for (const step of steps) {
      await runStep(email, step);
      done.push(step);
    }
  } catch (error) {
    await undoGroupSteps(email, done);
    throw error;
  }
};

const undoGroupSteps = async (email: string, done: readonly GroupStep[]): Promise<void> => {
  for (const step of [...done].reverse()) {
    try {
      await runStep(email, inverse(step));
    } catch {
      // The daily check reports what could not be undone.
    }
  }
};

/** Removals first: a change never holds a user in more groups than either before or after it. */
const groupSteps = (fromGroups: readonly string[], toGroups: readonly string[]): GroupStep[] => [
  ...fromGroups
    .filter((groupName) => !toGroups.includes(groupName))
    .map((groupName): GroupStep => ({ kind: 'remove', groupName })),
  ...toGroups
    .filter((groupName) => !fromGroups.includes(groupName))
    .map((groupName): GroupStep => ({ kind: 'add', groupName })),
];

/**
 * The steps that put a QuickSight user in exactly the groups of `companyIds`, from the groups
 * QuickSight has them in; none when QuickSight has no such user (`registered` false).
 */
const stepsTowards = async (
  email: string,
  companyIds: readonly string[],
): Promise<{ steps: GroupStep[]; registered: boolean }> => {
  const actual = await companyGroupsOfUser(email);
  if (actual === undefined) return { steps: [], registered: false };
  return { steps: groupSteps(actual, companyIds.map(groupNameOf)), registered: true };
};

export interface UserCompaniesChange {
  readonly before: MembershipItem | undefined;
  readonly after: MembershipItem;
  readonly names: string[];
  /** Whether the QuickSight user exists (its groups were changed) or not (they follow at registration). */
  readonly registered: boolean;
}

/**
 * Applies a user's companies, given as the portal's companies (not names): the QuickSight groups
 * first (when the user is registered), then the portal record (the ids, which every view of the
 * user's companies reads); if the record cannot be written the group changes are undone. One change per
 * user at a time: a change that finds another one in progress for longer than the lease's wait
 * is refused (409) and changes nothing.
 */
export const applyCompanyMembership = async (
  email: string,
  companies: readonly CompanyItem[],
  owner: boolean,
): Promise<UserCompaniesChange> => {
  if (!owner && companies.length > 1)
    throw new BadRequestError(COMPANY_MESSAGES.oneCompanyOnly, { fields: ['companies'] });
  const toIds = companies.map((company) => company.id);
  const names = companies.map((company) => company.name);
  return oneChangeAtATime(email, async () => {
    const before = await getMembership(email);
    const { steps, registered } = await stepsTowards(email, toIds);
    await runGroupSteps(email, steps);
    let after: MembershipItem;
    try {
      after = await putMembership(email, toIds, owner);
    } catch (error) {
      await undoGroupSteps(email, steps);
      throw error;
    }
    return { before, after, names, registered };
  });
};

/**
 * Puts a newly registered QuickSight user in exactly the groups of their companies (the portal
 * may have recorded them before the registration). Undoes its own steps on failure.
 */
export const joinCompanyGroups = async (email: string): Promise<number> =>
  oneChangeAtATime(email, async () => {
    const companyIds = (await getMembership(email))?.companyIds ?? [];
    // A user QuickSight has just registered is in no group yet: without companies there is nothing to join.
    if (companyIds.length === 0) return 0;
    const { steps } = await stepsTowards(email, companyIds);
    await runGroupSteps(email, steps);
    return steps.filter((step) => step.kind === 'add').length;
  });

/** Removes a user from every company group QuickSight has them in (an undo of joinCompanyGroups). */
export const leaveCompanyGroups = async (email: string): Promise<void> =>
  oneChangeAtATime(email, async () => {
    const { steps } = await stepsTowards(email, []);
    await undoGroupSteps(email, steps.map(inverse));
  });
