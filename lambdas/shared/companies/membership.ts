import { COMPANY_MESSAGES, companiesLabel } from '#contracts/companies.ts';
import {
  type CompanyItem,
  type MembershipItem,
  companyNamesOfUser,
  getMembership,
  putMembership,
} from '../data/companies.ts';
import { BadRequestError, HttpError } from '../errors.ts';
import { describeQuickSightUser } from '../quicksight.ts';
import { addMember, groupNameOf, removeMember } from './groups.ts';

/**
 * A user's companies, in the portal and in QuickSight. The portal's membership record is the
 * truth; a registered QuickSight user is in exactly the groups of their companies. Changes
 * remove before they add, and a failure part way undoes the group steps already taken, so a
 * user is never left in a group they should not be in.
 */

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

const groupSteps = (fromIds: readonly string[], toIds: readonly string[]): GroupStep[] => [
  ...fromIds
    .filter((id) => !toIds.includes(id))
    .map((id): GroupStep => ({ kind: 'remove', groupName: groupNameOf(id) })),
  ...toIds.filter((id) => !fromIds.includes(id)).map((id): GroupStep => ({ kind: 'add', groupName: groupNameOf(id) })),
];

export interface UserCompaniesChange {
  readonly before: MembershipItem | undefined;
  readonly after: MembershipItem;
  readonly names: string[];
  /** Whether the QuickSight user exists (its groups were changed) or not (they follow at registration). */
  readonly registered: boolean;
}

/**
 * Sets a user's companies: the QuickSight groups first (when the user is registered), then
 * the portal record; if the record cannot be written the group changes are undone.
 */
export const setUserCompanies = async (
  email: string,
  companies: readonly CompanyItem[],
  owner: boolean,
): Promise<UserCompaniesChange> => {
  if (!owner && companies.length > 1)
    throw new BadRequestError(COMPANY_MESSAGES.oneCompanyOnly, { fields: ['companies'] });
  const before = await getMembership(email);
  const toIds = companies.map((company) => company.id);
  const registered = (await describeQuickSightUser(email)) !== undefined;
  const steps = registered ? groupSteps(before?.companyIds ?? [], toIds) : [];
  await runGroupSteps(email, steps);
  let after: MembershipItem;
  try {
    after = await putMembership(email, toIds, owner);
  } catch (error) {
    await undoGroupSteps(email, steps);
    throw error;
  }
  return { before, after, names: companies.map((company) => company.name), registered };
};

/**
 * Puts a newly registered QuickSight user in the groups of their companies (the portal may
 * have recorded them before the registration). Undoes its own additions on failure.
 */
export const joinCompanyGroups = async (email: string): Promise<number> => {
  const membership = await getMembership(email);
  const steps = (membership?.companyIds ?? []).map((id): GroupStep => ({ kind: 'add', groupName: groupNameOf(id) }));
  await runGroupSteps(email, steps);
  return steps.length;
};

/** Removes a user from the groups of their companies (an undo of joinCompanyGroups). */
export const leaveCompanyGroups = async (email: string): Promise<void> => {
  const membership = await getMembership(email);
  const steps = (membership?.companyIds ?? []).map((id): GroupStep => ({ kind: 'remove', groupName: groupNameOf(id) }));
  await undoGroupSteps(email, steps.map(inverse));
};

/** The text an assignment carries as its company: the user's companies, from the company model. */
export const companyLabelOf = async (email: string): Promise<string | undefined> =>
  companiesLabel(await companyNamesOfUser(email)) || undefined;

/** An HttpError keeps its answer; anything else is reported as the step that failed. */
export const describeFailure = (error: unknown): string => (error instanceof HttpError ? error.message : 'failed');
