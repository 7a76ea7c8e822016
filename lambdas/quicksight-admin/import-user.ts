import type * as z from 'zod';
import { IMPORT_MESSAGES, type ImportUserResponse, type importUserRequestSchema } from '#contracts/user-import.ts';
import { ADMINS_GROUP, USERS_GROUP } from '#contracts/groups.ts';
import { type DashboardItem, listDashboards } from '../shared/data/catalogue.ts';
import { BadRequestError, ConflictError, HttpError } from '../shared/errors.ts';
import {
  accountExists,
  addToGroup,
  createInvitedAccount,
  deleteAccount,
  sendInvitation,
} from '../shared/invitation.ts';
import {
  deleteQuickSightUser,
  describeQuickSightUser,
  quicksightFailure,
  registerQuickSightUser,
} from '../shared/quicksight.ts';
import { assignDashboard, unassignDashboard } from './assignments.ts';
import { leaveCompanyGroups, resolveCompanyNames, applyCompanyMembership } from '../shared/companies/membership.ts';
import { deleteMembership, listCompanies } from '../shared/data/companies.ts';

export type ImportUserRequest = z.infer<typeof importUserRequestSchema>;

/** The catalogue entries a row names, by the row's ids (matched without case); unknown ids are a 400. */
const resolveDashboards = async (ids: readonly string[]): Promise<DashboardItem[]> => {
  const catalogue = new Map(
    (await listDashboards())
      .filter((item) => item.isActive !== false)
      .map((item) => [item.dashboardId.toLowerCase(), item]),
  );
  const unknown = ids.filter((id) => !catalogue.has(id.toLowerCase()));
  if (unknown.length > 0) {
    throw new BadRequestError(unknown.map(IMPORT_MESSAGES.unknownDashboard).join('; '), { fields: ['dashboards'] });
  }
  return ids.map((id) => catalogue.get(id.toLowerCase())!);
};

/** What a failed row had done so far, undone in reverse order. */
interface Progress {
  account: boolean;
  quicksightUser: boolean;
  company: boolean;
  dashboards: string[];
}

const undo = async (email: string, progress: Progress): Promise<string[]> => {
  const problems: string[] = [];
  const attempt = async (what: string, work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      problems.push(`${what}: ${error instanceof HttpError ? error.message : 'failed'}`);
    }
  };
  for (const dashboardId of progress.dashboards.reverse())
    await attempt(`remove ${dashboardId}`, () => unassignDashboard(email, dashboardId));
  if (progress.company) {
    await attempt('leave the company group', () => leaveCompanyGroups(email));
    await attempt('forget the company', () => deleteMembership(email));
  }
  if (progress.quicksightUser) await attempt('delete the QuickSight user', () => deleteQuickSightUser(email));
  if (progress.account) await attempt('delete the account', () => deleteAccount(email));
  return problems;
};

/**
 * One row of a bulk import, checked again here whatever the browser showed: a new account
 * with the invitation email, in Users (and Admins for an Admins row), registered in
 * QuickSight as READER, with the row's dashboards assigned through the same code path as
 * Assign Dashboard and the default set.
 *
 * - Idempotent: an existing account is answered 'exists' and nothing is changed, so a file
 *   can be imported again. Creating the account first (without an email) is also the claim
 *   on the address: of two imports of the same row, one creates and the other finds it.
 * - All or nothing per row: a failing step undoes the steps before it (assignments, the
 *   QuickSight user this row registered, the account) and the row fails with the reason.
 *   The invitation is sent last, so a failed row has sent no email.
 * - A QuickSight user of that name that exists already (left by an earlier deletion that
 *   only removed the account) is kept and used: the product names QuickSight users by email.
 */
export const importUser = async (request: ImportUserRequest, actor: string): Promise<ImportUserResponse> => {
  const email = request.userEmail.toLowerCase();
  const dashboards = await resolveDashboards(request.dashboards);
  const company = request.companyName
    ? resolveCompanyNames([request.companyName], await listCompanies())[0]
    : undefined;
  const defaultId = (request.defaultDashboard || request.dashboards[0]!).toLowerCase();
  if (await accountExists(email)) return { outcome: 'exists', message: IMPORT_MESSAGES.exists, userEmail: email };

  const progress: Progress = { account: false, quicksightUser: false, company: false, dashboards: [] };
  try {
    try {
      await createInvitedAccount(email, 'SUPPRESS');
    } catch (error) {
      if (error instanceof ConflictError)
        return { outcome: 'exists', message: IMPORT_MESSAGES.exists, userEmail: email };
      throw error;
    }
    progress.account = true;
    await addToGroup(email, USERS_GROUP);
    // PROMOTE_TO_ADMIN's rule: an admin keeps the Users membership beside Admins.
    if (request.role === ADMINS_GROUP) await addToGroup(email, ADMINS_GROUP);
    if ((await describeQuickSightUser(email)) === undefined) {
      try {
        await registerQuickSightUser(email, 'READER');
      } catch (error) {
        throw quicksightFailure('Failed to register the user in QuickSight', error, email);
      }
      progress.quicksightUser = true;
    }
    if (company !== undefined) {
      progress.company = true;
      await applyCompanyMembership(email, [company], false);
    }
    for (const dashboard of dashboards) {
      progress.dashboards.push(dashboard.dashboardId);
      await assignDashboard(
        {
          userEmail: email,
          dashboardId: dashboard.dashboardId,
          dashboardName: dashboard.dashboardName,
          dashboardLink: dashboard.dashboardLink,
          makeDefault: dashboard.dashboardId.toLowerCase() === defaultId,
        },
        actor,
      );
    }
    await sendInvitation(email);
  } catch (error) {
    const problems = await undo(email, progress);
    const failure = error instanceof HttpError ? error : quicksightFailure('Failed to import the user', error, email);
    throw problems.length === 0
      ? failure.withDetails({ userEmail: email })
      : failure.withDetails({
          userEmail: email,
          suggestion: `Some steps could not be undone (${problems.join('; ')}). Check the user in the portal.`,
        });
  }
  return { outcome: 'created', message: IMPORT_MESSAGES.created, userEmail: email };
};

/** The audit detail of an imported row. */
export const describeImport = (request: ImportUserRequest, result: ImportUserResponse): string =>
  result.outcome === 'exists'
    ? 'bulk import: account exists, nothing changed'
    : `bulk import: role ${request.role}; dashboards ${request.dashboards.join(', ')}; default ${request.defaultDashboard || request.dashboards[0]}${
        request.companyName ? `; company ${request.companyName}` : ''
      }; invitation sent`;
