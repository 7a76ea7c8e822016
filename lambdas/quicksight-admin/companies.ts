import { COMPANY_MESSAGES, type Company, type CompanyKind } from '#contracts/companies.ts';
import { mapWithLimit } from '../shared/concurrency.ts';
import { listDashboards } from '../shared/data/catalogue.ts';
import {
  type CompanyItem,
  claimCompanyName,
  companiesById,
  companyNamesOf,
  deleteCompanyRecord,
  listCompanies,
  listMemberships,
  newCompanyId,
  putCompany,
  releaseCompanyName,
  requireCompany,
} from '../shared/data/companies.ts';
import { nowIso } from '../shared/data/tables.ts';
import { viewsOfDashboard } from '../shared/data/views.ts';
import { ConflictError } from '../shared/errors.ts';
import { companyRules } from '../shared/companies/check.ts';
import { createGroup, deleteGroup, groupNameOf } from '../shared/companies/groups.ts';
import { resolveCompanyNames, applyCompanyMembership } from '../shared/companies/membership.ts';
import { publishRules } from '../shared/companies/rules.ts';
import { requireCognitoUser } from './users.ts';

/**
 * The company actions. Each change keeps portal and QuickSight in step: the company record,
 * its QuickSight group and the row-level-security rules; a failure part way undoes what the
 * change did before it (or, where QuickSight cannot be put back, leaves a difference the
 * access check reports).
 */

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Every company with its user count and the catalogue dashboards its users have. */
export const listCompanySummaries = async (): Promise<Company[]> => {
  const [companies, memberships, dashboards] = await Promise.all([
    listCompanies(),
    listMemberships(),
    listDashboards(),
  ]);
  const users = new Map<string, number>();
  for (const membership of memberships.values())
    for (const id of membership.companyIds) users.set(id, (users.get(id) ?? 0) + 1);
  const dashboardsOf = new Map<string, Set<string>>();
  await mapWithLimit(dashboards, 5, async (dashboard) => {
    for (const view of await viewsOfDashboard(dashboard.dashboardId)) {
      for (const id of memberships.get(view.userEmail)?.companyIds ?? []) {
        const set = dashboardsOf.get(id) ?? new Set<string>();
        set.add(dashboard.dashboardId);
        dashboardsOf.set(id, set);
      }
    }
  });
  return companies.map((company) => ({
    id: company.id,
    name: company.name,
    kind: company.kind,
    groupName: groupNameOf(company.id),
    userCount: users.get(company.id) ?? 0,
    dashboards: [...(dashboardsOf.get(company.id) ?? [])].sort(),
    createdAt: company.createdAt,
    updatedAt: company.updatedAt,
  }));
};

const toCompany = (company: CompanyItem, userCount = 0, dashboards: string[] = []): Company => ({
  id: company.id,
  name: company.name,
  kind: company.kind,
  groupName: groupNameOf(company.id),
  userCount,
  dashboards,
  createdAt: company.createdAt,
  updatedAt: company.updatedAt,
});

/** Runs the undo steps, newest first; a failing one does not stop the others. */
const undoAll = async (steps: readonly (() => Promise<unknown>)[]) => {
  for (const step of [...steps].reverse()) {
    try {
      await step();
    } catch {
      // The access check reports what remains.
    }
  }
};

/** A change as steps: each done step leaves its undo, and a failure undoes them all. */
const inSteps = async <T>(work: (done: (undo: () => Promise<unknown>) => void) => Promise<T>): Promise<T> => {
  const undos: (() => Promise<unknown>)[] = [];
  try {
    return await work((undo) => undos.push(undo));
  } catch (error) {
    await undoAll(undos);
    throw error;
  }
};

export const createCompany = async (name: string, kind: CompanyKind, actor: string): Promise<Company> => {
  const others = await listCompanies();
  const taken = others.find((company) => sameName(company.name, name));
  if (taken) throw new ConflictError(COMPANY_MESSAGES.nameTaken(taken.name), { fields: ['name'] });
  const now = nowIso();
  const company: CompanyItem = {
    id: newCompanyId(),
    name: name.trim(),
    kind,
    createdAt: now,
    updatedAt: now,
    createdBy: actor,
  };
  return inSteps(async (done) => {
    await claimCompanyName(company.name, company.id);
    done(() => releaseCompanyName(company.name, company.id));
    await createGroup(groupNameOf(company.id), company.name);
    done(() => deleteGroup(groupNameOf(company.id)));
    await putCompany(company);
    done(() => deleteCompanyRecord(company.id));
    await publishRules(companyRules([...others, company]));
    return toCompany(company);
  });
};

export const updateCompany = async (
  id: string,
  name: string,
  kind: CompanyKind,
): Promise<{ before: CompanyItem; company: Company }> => {
  const before = await requireCompany(id);
  const companies = await listCompanies();
  const clash = companies.find((company) => company.id !== id && sameName(company.name, name));
  if (clash) throw new ConflictError(COMPANY_MESSAGES.nameTaken(clash.name), { fields: ['name'] });
  const next: CompanyItem = { ...before, name: name.trim(), kind, updatedAt: nowIso() };
  const renamed = next.name !== before.name;
  const claimMoves = !sameName(next.name, before.name);
  await inSteps(async (done) => {
    if (claimMoves) {
      await claimCompanyName(next.name, id);
      done(() => releaseCompanyName(next.name, id));
    }
    await putCompany(next);
    done(() => putCompany(before));
    if (renamed) await publishRules(companyRules(companies.map((company) => (company.id === id ? next : company))));
  });
  if (claimMoves) await releaseCompanyName(before.name, id);
  const summary = (await listCompanySummaries()).find((company) => company.id === id);
  return { before, company: summary ?? toCompany(next) };
};

export const deleteCompany = async (id: string): Promise<Company> => {
  const company = await requireCompany(id);
  const members = [...(await listMemberships()).values()].filter((membership) => membership.companyIds.includes(id));
  if (members.length > 0) {
    throw new ConflictError(COMPANY_MESSAGES.hasUsers(company.name, members.length), {
      reason: `Users of ${company.name}: ${members
        .slice(0, 10)
        .map((membership) => membership.email)
        .join(', ')}${members.length > 10 ? ', ...' : ''}`,
      suggestion: 'Change the company of these users in Edit User, then delete the company.',
    });
  }
  const companies = await listCompanies();
  const remaining = companies.filter((other) => other.id !== id);
  await inSteps(async (done) => {
    // The rules first: a rule for a group about to go away is harmless; a group without a
    // company is not.
    await publishRules(companyRules(remaining));
    done(() => publishRules(companyRules(companies)));
    await deleteGroup(groupNameOf(id));
    done(() => createGroup(groupNameOf(id), company.name));
    await deleteCompanyRecord(id);
  });
  await releaseCompanyName(company.name, id);
  return toCompany(company);
};

export interface UserCompaniesResult {
  readonly message: string;
  readonly userEmail: string;
  readonly companies: string[];
  readonly owner: boolean;
  readonly before: string[];
}

/**
 * SET_USER_COMPANIES as requested: companies by name, resolved to the portal's companies, for an account Cognito has;
 * the change itself is applyCompanyMembership (membership.ts), which the import also uses.
 */
export const setUserCompaniesByName = async (
  email: string,
  names: readonly string[],
  owner: boolean,
): Promise<UserCompaniesResult> => {
  const companies = await listCompanies();
  const chosen = resolveCompanyNames(names, companies);
  await requireCognitoUser(email);
  const change = await applyCompanyMembership(email, chosen, owner);
  return {
    message: COMPANY_MESSAGES.userCompaniesSet,
    userEmail: email,
    companies: change.names,
    owner,
    before: companyNamesOf(change.before, companiesById(companies)),
  };
};
