import { COMPANY_MESSAGES } from '#contracts/companies.ts';
import { dashboardScope } from '../shared/companies/scope.ts';
import { type DashboardItem, listDashboards, replaceDashboard } from '../shared/data/catalogue.ts';
import { companiesById, companyNamesOf, listCompanies, listMemberships } from '../shared/data/companies.ts';
import { nowIso } from '../shared/data/tables.ts';
import { viewsOfDashboard } from '../shared/data/views.ts';
import { ConflictError } from '../shared/errors.ts';

/**
 * "Scoped or shared, never by accident": a dashboard whose datasets do not apply the
 * portal's rules shows every row to everyone who has it. Giving it to a user of a company
 * that does not hold it yet is refused, naming the risk, until an administrator confirms
 * "shared data" for that dashboard, which is recorded on its catalogue entry.
 */

const NO_COMPANY = 'no company';

export type SharedDataDecision =
  | { readonly kind: 'allowed' }
  /** The admin's confirmation was needed and given: record it. */
  | {
      readonly kind: 'confirm';
      readonly entry: DashboardItem | undefined;
      readonly newCompanies: string[];
      readonly detail: string;
    };

const findEntry = async (dashboardId: string) =>
  (await listDashboards()).find((item) => item.dashboardId.toLowerCase() === dashboardId.toLowerCase());

export const checkCrossCompanyAssignment = async (
  email: string,
  dashboardId: string,
  confirmed: boolean,
): Promise<SharedDataDecision> => {
  const entry = await findEntry(dashboardId);
  if (entry?.sharedData === true) return { kind: 'allowed' };
  const [companies, memberships, views] = await Promise.all([
    listCompanies(),
    listMemberships(),
    viewsOfDashboard(dashboardId),
  ]);
  const byId = companiesById(companies);
  const namesOf = (userEmail: string) => {
    const names = companyNamesOf(memberships.get(userEmail), byId);
    return names.length === 0 ? [NO_COMPANY] : names;
  };
  const holders = new Set(views.filter((view) => view.userEmail !== email).flatMap((view) => namesOf(view.userEmail)));
  const newCompanies = namesOf(email).filter((name) => !holders.has(name));
  if (holders.size === 0 || newCompanies.length === 0) return { kind: 'allowed' };
  const verdict = await dashboardScope(dashboardId);
  if (verdict.scope === 'company-scoped') return { kind: 'allowed' };
  if (!confirmed) {
    throw new ConflictError(COMPANY_MESSAGES.notScoped(dashboardId, newCompanies.join(', '), [...holders].sort()), {
      userEmail: email,
      reason: verdict.detail,
      suggestion:
        'Attach the portal rules dataset to every dataset behind the dashboard, or confirm shared data if every company may see all of its rows.',
    });
  }
  return { kind: 'confirm', entry, newCompanies, detail: verdict.detail };
};

/** Records the confirmation on the catalogue entry (when the dashboard is in the catalogue). */
export const recordSharedData = async (entry: DashboardItem | undefined): Promise<void> => {
  if (entry === undefined || entry.sharedData === true) return;
  await replaceDashboard({ ...entry, sharedData: true, updatedAt: nowIso() }, entry.updatedAt);
};
