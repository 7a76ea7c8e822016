import type { Logger } from '../shared/logger.ts';
import { COMPANY_KIND_LABELS, COMPANY_MESSAGES, type AccessDifference } from '#contracts/companies.ts';
import type { QuicksightAdminRequest } from '#contracts/quicksight-admin.ts';
import type { auditorFor } from '../shared/audit.ts';
import type { Caller } from '../shared/auth/caller.ts';
import { checkCompanyAccess } from '../shared/companies/check.ts';
import { readLastCheck, saveLastCheck } from '../shared/data/companies.ts';
import { writeAuditEntry } from '../shared/data/audit.ts';
import {
  createCompany,
  deleteCompany,
  listCompanySummaries,
  setUserCompaniesByName,
  updateCompany,
} from './companies.ts';

/**
 * The company actions of the QuickSight management function, one function per action: the
 * function's one dispatch (actions.ts) calls them; each change is audited with the auditor it
 * is given.
 */

type RequestOf<A extends QuicksightAdminRequest['action']> = Extract<QuicksightAdminRequest, { action: A }>;
type Audit = ReturnType<typeof auditorFor>;

const describeDifference = (difference: AccessDifference): string =>
  `${difference.kind}${difference.company ? ` (${difference.company})` : ''}: expected ${difference.expected}, found ${difference.found}`;

export const listCompaniesAction = async () => {
  const [companies, lastCheck] = await Promise.all([listCompanySummaries(), readLastCheck()]);
  return { companies, lastCheck };
};

export const createCompanyAction = (request: RequestOf<'CREATE_COMPANY'>, caller: Caller, audit: Audit) =>
  audit(
    request.name,
    async () => ({
      message: COMPANY_MESSAGES.created,
      company: await createCompany(request.name, request.kind, caller.email),
    }),
    (result) => `${COMPANY_KIND_LABELS[result.company.kind]}; QuickSight group ${result.company.groupName}`,
  );

export const updateCompanyAction = (request: RequestOf<'UPDATE_COMPANY'>, audit: Audit) =>
  audit(
    { before: request.companyId, fromResult: (result) => result.company.name },
    async () => {
      const { before, company } = await updateCompany(request.companyId, request.name, request.kind);
      return { message: COMPANY_MESSAGES.updated, company, before };
    },
    (result) =>
      [
        result.before.name === result.company.name ? null : `renamed from ${result.before.name}`,
        result.before.kind === result.company.kind ? null : `kind ${result.before.kind} -> ${result.company.kind}`,
      ]
        .filter((part) => part !== null)
        .join('; ') || 'no change',
  );

export const deleteCompanyAction = (request: RequestOf<'DELETE_COMPANY'>, audit: Audit) =>
  audit(
    { before: request.companyId, fromResult: (result) => result.company.name },
    async () => ({ message: COMPANY_MESSAGES.deleted, company: await deleteCompany(request.companyId) }),
    (result) => `QuickSight group ${result.company.groupName} deleted`,
  );

export const setUserCompaniesAction = (request: RequestOf<'SET_USER_COMPANIES'>, audit: Audit) => {
  const email = request.userEmail.toLowerCase();
  let canceled = 0;
  return audit(
    email,
    async () => {
      const result = await setUserCompaniesByName(email, request.companies, request.owner);
      // A subscription for one company the user is no longer in goes in the same step; the others
      // are re-scoped by themselves, as each file is made with the companies the user has then.
      const { cancelSubscriptionsOf } = await import('../shared/subscriptions/cancel.ts');
      const now = new Set(result.companies);
      canceled = (await cancelSubscriptionsOf(email, (s) => s.company !== null && !now.has(s.company))).length;
      return result;
    },
    (result) =>
      `companies ${result.before.length === 0 ? '(none)' : result.before.join(', ')} -> ${result.companies.join(', ')}${result.owner ? ' (owner account)' : ''}${canceled > 0 ? `; subscriptions canceled: ${canceled}` : ''}`,
  );
};

export const checkCompanyAccessAction = async (
  request: RequestOf<'CHECK_COMPANY_ACCESS'>,
  caller: Caller,
  logger: Logger,
  audit: Audit,
) => {
  const check = await audit(
    null,
    () =>
      checkCompanyAccess({
        fix: request.fix,
        checkedBy: caller.email,
        // Each mend is its own entry in the trail, done or not.
        onMend: async (difference) => {
          try {
            await writeAuditEntry({
              actor: caller.email,
              action: 'FIX_COMPANY_ACCESS',
              target: difference.subject ?? difference.company,
              outcome: difference.fixed ? 'success' : 'failure',
              detail: `${describeDifference(difference)}${difference.note ? `; ${difference.note}` : ''}`,
            });
          } catch (error) {
            logger.error('Audit entry could not be written', {
              action: 'FIX_COMPANY_ACCESS',
              error: error as Error,
            });
          }
        },
      }),
    (result) => `${result.fix ? 'fix' : 'check'}: ${result.differences.length} difference(s)`,
  );
  await saveLastCheck(check);
  return check;
};
