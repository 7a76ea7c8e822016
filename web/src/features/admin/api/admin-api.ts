import { z } from 'zod';
import type { PortalGroup } from '#contracts/groups.ts';
import {
  cognitoUserWithQuicksightSchema,
  listDashboardMetadataResponseSchema,
  listUsersWithQuicksightResponseSchema,
  saveDashboardMetadataResponseSchema,
  userDashboardsResponseSchema,
  type quicksightAdminRequestSchema,
} from '#contracts/quicksight-admin.ts';
import {
  auditExportResponseSchema,
  auditLogResponseSchema,
  getUsersResponseSchema,
  userFactorsSchema,
  type AuditFilter,
  type userAdminRequestSchema,
} from '#contracts/user-admin.ts';
import { importUserResponseSchema } from '#contracts/user-import.ts';
import { insightsResponseSchema, insightUsersResponseSchema } from '#contracts/insights.ts';
import {
  accessCheckSchema,
  deleteCompanyResponseSchema,
  listCompaniesResponseSchema,
  saveCompanyResponseSchema,
  setUserCompaniesResponseSchema,
  type CompanyKind,
} from '#contracts/companies.ts';
import type { ApiClient } from '#web/lib/api.ts';

/** The subscriptions' answers (the Deliveries page): loaded with its first call, not with the admin portal. */
const adminSubscriptions = () => import('#contracts/admin-subscriptions.ts');

/** Answer of the calls whose body the portal does not read beyond their message. */
const acknowledgementSchema = z.object({ message: z.string() });

/** A request body as sent (defaults such as `userRole` may be left to the server). */
type QuicksightBody = z.input<typeof quicksightAdminRequestSchema>;
type UserAdminBody = z.input<typeof userAdminRequestSchema>;

const registerResponseSchema = z.object({
  message: z.string(),
  user: cognitoUserWithQuicksightSchema.shape.quicksight.unwrap(),
});

/** The role a new QuickSight registration gets (admin-portal §9). */
const DEFAULT_REGISTRATION_ROLE = 'READER';

/** The audit page size the Activity tab asks for. */
const AUDIT_PAGE_SIZE = 50;

export interface DashboardFields {
  readonly dashboardId: string;
  readonly dashboardName: string;
  readonly dashboardLink: string;
  readonly description?: string;
  /**
   * Only when editing: the admin's confirmation that a dashboard that is not company-scoped may reach several
   * companies.
   */
  readonly sharedData?: boolean;
}

/** A company as the admin names it. */
export interface CompanyFields {
  readonly name: string;
  readonly kind: CompanyKind;
}

/** A user's companies: one, or several for an owner (private-equity) account. */
export interface UserCompanies {
  readonly companies: readonly string[];
  readonly owner: boolean;
}

/** One checked row of a bulk import. */
export interface ImportUserFields {
  readonly userEmail: string;
  readonly companyName?: string | undefined;
  readonly dashboards: readonly string[];
  readonly defaultDashboard?: string | undefined;
  readonly role: PortalGroup;
}

export interface InviteFields {
  readonly userEmail: string;
  readonly dashboardId: string;
  readonly dashboardName: string;
  readonly dashboardLink: string;
  readonly makeDefault: boolean;
  readonly companyName?: string;
  /** Confirms "shared data" for a dashboard that is not company-scoped, so that it may reach another company. */
  readonly confirmSharedData?: boolean;
}

/** A range of UTC days (YYYY-MM-DD) and optionally one company, for GET_INSIGHTS. */
export interface InsightsRange {
  readonly from: string;
  readonly to: string;
  readonly company?: string;
}

/** The QuickSight management function (admin-portal §7), with the contract's schemas. */
export function createQuicksightAdminApi(client: ApiClient, url: string) {
  const call = <S extends z.ZodType>(body: QuicksightBody, schema: S) => client.request(url, { body, schema });
  return {
    /** `fullListing`: every account listed in Cognito now, not read from the portal's copy (the page's Refresh). */
    listUsers: async (fullListing = false) =>
      (
        await call(
          { action: 'LIST_COGNITO_USERS_WITH_QUICKSIGHT_STATUS', ...(fullListing ? { fullListing } : {}) },
          listUsersWithQuicksightResponseSchema,
        )
      ).users,
    registerUser: (userEmail: string) =>
      call({ action: 'REGISTER_USER', userEmail, userRole: DEFAULT_REGISTRATION_ROLE }, registerResponseSchema),
    deleteUser: (userEmail: string) => call({ action: 'DELETE_USER', userEmail }, acknowledgementSchema),
    userDashboards: async (userEmail: string) =>
      (await call({ action: 'GET_USER_DASHBOARDS', userEmail }, userDashboardsResponseSchema)).dashboards,
    invite: (fields: InviteFields) => call({ action: 'INVITE_TO_DASHBOARD', ...fields }, acknowledgementSchema),
    removeFromDashboard: (userEmail: string, dashboardId: string, viewId: string) =>
      call({ action: 'REMOVE_FROM_DASHBOARD', userEmail, dashboardId, viewId }, acknowledgementSchema),
    setDefaultDashboard: (userEmail: string, dashboardId: string, viewId: string) =>
      call({ action: 'SET_DASHBOARD_AS_DEFAULT', userEmail, dashboardId, viewId }, acknowledgementSchema),
    listCatalogue: async () =>
      (await call({ action: 'LIST_DASHBOARD_METADATA' }, listDashboardMetadataResponseSchema)).dashboards,
    // A new entry has no shared-data confirmation: that is decided once its scope is known.
    createDashboard: ({ sharedData: _notOnCreate, ...fields }: DashboardFields) =>
      call({ action: 'CREATE_DASHBOARD_METADATA', ...fields }, saveDashboardMetadataResponseSchema),
    updateDashboard: (metadataId: string, fields: DashboardFields) =>
      call(
        { action: 'UPDATE_DASHBOARD_METADATA', metadataId, ...fields, isActive: true },
        saveDashboardMetadataResponseSchema,
      ),
    deleteDashboard: (metadataId: string) =>
      call({ action: 'DELETE_DASHBOARD_METADATA', metadataId }, acknowledgementSchema),
    importUser: (row: ImportUserFields) =>
      call({ action: 'IMPORT_USER', ...row, dashboards: [...row.dashboards] }, importUserResponseSchema),
    insights: (range: InsightsRange) => call({ action: 'GET_INSIGHTS', ...range }, insightsResponseSchema),
    /** One page of the Insights users (all of them when `company` is absent), of at most `limit` users. */
    insightUsers: (company: string | undefined, nextToken?: string, limit?: number) =>
      call(
        {
          action: 'GET_INSIGHT_USERS',
          ...(company ? { company } : {}),
          ...(nextToken === undefined ? {} : { nextToken }),
          ...(limit === undefined ? {} : { limit }),
        },
        insightUsersResponseSchema,
      ),
    /** The companies and the last company-access check. */
    listCompanies: () => call({ action: 'LIST_COMPANIES' }, listCompaniesResponseSchema),
    createCompany: (fields: CompanyFields) => call({ action: 'CREATE_COMPANY', ...fields }, saveCompanyResponseSchema),
    updateCompany: (companyId: string, fields: CompanyFields) =>
      call({ action: 'UPDATE_COMPANY', companyId, ...fields }, saveCompanyResponseSchema),
    deleteCompany: (companyId: string) => call({ action: 'DELETE_COMPANY', companyId }, deleteCompanyResponseSchema),
    setUserCompanies: (userEmail: string, { companies, owner }: UserCompanies) =>
      call(
        { action: 'SET_USER_COMPANIES', userEmail, companies: [...companies], owner },
        setUserCompaniesResponseSchema,
      ),
    /** Compares the portal's companies with QuickSight; with `fix`, mends what it can. */
    checkCompanyAccess: (fix: boolean) => call({ action: 'CHECK_COMPANY_ACCESS', fix }, accessCheckSchema),
    /** Every user's subscriptions, by recipient then dashboard (the Deliveries page). */
    listSubscriptions: async () =>
      (await call({ action: 'LIST_SUBSCRIPTIONS' }, (await adminSubscriptions()).listSubscriptionsResponseSchema))
        .subscriptions,
    /** Makes an active subscription due now: the next delivery run sends it. */
    sendSubscriptionNow: async (subscriptionId: string) =>
      call(
        { action: 'SEND_SUBSCRIPTION_NOW', subscriptionId },
        (await adminSubscriptions()).subscriptionActionResponseSchema,
      ),
    cancelSubscription: async (subscriptionId: string) =>
      call(
        { action: 'CANCEL_SUBSCRIPTION', subscriptionId },
        (await adminSubscriptions()).subscriptionActionResponseSchema,
      ),
  };
}

/**
 * The user management function (admin-portal §7, plus invitations, RESET_USER_MFA, PROMOTE_TO_ADMIN and the audit
 * trail).
 */
export function createUserAdminApi(client: ApiClient, url: string) {
  const call = <S extends z.ZodType>(body: UserAdminBody, schema: S) => client.request(url, { body, schema });
  return {
    /** `fullListing`: every account listed in Cognito now, not read from the portal's copy (the page's Refresh). */
    listUsers: async (fullListing = false) =>
      (await call({ action: 'GET_USERS', ...(fullListing ? { fullListing } : {}) }, getUsersResponseSchema)).users,
    createUser: (userEmail: string, password: string) =>
      call({ action: 'CREATE_USER', userEmail, password }, acknowledgementSchema),
    /** Cognito generates the temporary password and emails the invitation. */
    inviteUser: (userEmail: string) =>
      call({ action: 'CREATE_USER', userEmail, sendInvitation: true }, acknowledgementSchema),
    resendInvitation: (userEmail: string) => call({ action: 'RESEND_INVITATION', userEmail }, acknowledgementSchema),
    /** Only the password is ever changed from the portal: the email is read-only there. */
    updatePassword: (userEmail: string, newPassword: string) =>
      call({ action: 'UPDATE_USER', userEmail, newPassword }, acknowledgementSchema),
    enableUser: (userEmail: string) => call({ action: 'ENABLE_USER', userEmail }, acknowledgementSchema),
    disableUser: (userEmail: string) => call({ action: 'DISABLE_USER', userEmail }, acknowledgementSchema),
    deleteUser: (userEmail: string) => call({ action: 'DELETE_USER', userEmail }, acknowledgementSchema),
    resetMfa: (userEmail: string) => call({ action: 'RESET_USER_MFA', userEmail }, acknowledgementSchema),
    /** What the account signs in with besides its password: authenticator app and passkeys (read only). */
    userFactors: (userEmail: string) => call({ action: 'GET_USER_FACTORS', userEmail }, userFactorsSchema),
    promoteToAdmin: (userEmail: string) => call({ action: 'PROMOTE_TO_ADMIN', userEmail }, acknowledgementSchema),
    auditLog: (filter: AuditFilter, nextToken?: string) =>
      call(
        { action: 'GET_AUDIT_LOG', limit: AUDIT_PAGE_SIZE, filter, ...(nextToken === undefined ? {} : { nextToken }) },
        auditLogResponseSchema,
      ),
    exportAuditLog: (filter: AuditFilter, format: 'csv' | 'json') =>
      call({ action: 'EXPORT_AUDIT_LOG', format, filter }, auditExportResponseSchema),
  };
}

export type QuicksightAdminApi = ReturnType<typeof createQuicksightAdminApi>;
export type UserAdminApi = ReturnType<typeof createUserAdminApi>;

export interface AdminApi {
  readonly quicksight: QuicksightAdminApi;
  readonly users: UserAdminApi;
}
