import * as z from 'zod';
import { MESSAGES, adminEmail, dashboardId, dashboardLink, dashboardName } from './fields.ts';
import { importUserRequestSchema } from './user-import.ts';
import { checkInsightsRange, insightsRangeShape, insightUsersRequestShape } from './insights.ts';
import { DASHBOARD_SCOPES, companyRequestSchemas } from './companies.ts';

/** Target account of an action; a missing email gets the given spec message. */
const targetEmail = (requiredMessage: string) =>
  z.string({ error: requiredMessage }).trim().min(1, requiredMessage).pipe(adminEmail);

const userEmail = targetEmail(MESSAGES.userEmailRequired);
const companyName = z.string().trim().max(200, 'Company Name must be at most 200 characters');
const description = z.string().trim().max(2000, 'Description must be at most 2000 characters');
const recordId = z.string().trim().min(1, 'Record id is required').max(128);
const subscriptionId = z.uuid({ error: 'Subscription id must be the id of a subscription' });

export const QUICKSIGHT_ROLES = ['READER', 'AUTHOR', 'ADMIN'] as const;

/** POST bodies of the QuickSight management function (Admins only). */
export const quicksightAdminRequestSchema = z.discriminatedUnion('action', [
  /** `fullListing`: as GET_USERS of the user management function (contracts/user-admin.ts). */
  z.object({ action: z.literal('LIST_COGNITO_USERS_WITH_QUICKSIGHT_STATUS'), fullListing: z.boolean().optional() }),
  z.object({ action: z.literal('DELETE_USER'), userEmail }),
  z.object({
    action: z.literal('REGISTER_USER'),
    userEmail: targetEmail(MESSAGES.selectUserToRegister),
    userRole: z.enum(QUICKSIGHT_ROLES).default('READER'),
  }),
  z.object({ action: z.literal('GET_USER_DASHBOARDS'), userEmail }),
  z.object({
    action: z.literal('INVITE_TO_DASHBOARD'),
    userEmail,
    dashboardId,
    dashboardName,
    dashboardLink,
    makeDefault: z.boolean().default(false),
    /** Accepted for compatibility; the server derives the view id. */
    viewId: z.string().max(256).optional(),
    /** Accepted for compatibility; the server takes the company from the user's companies. */
    companyName: companyName.optional(),
    /** Confirms "shared data" for a dashboard that is not company-scoped (recorded on its catalogue entry). */
    confirmSharedData: z.boolean().default(false),
  }),
  z.object({
    action: z.literal('REMOVE_FROM_DASHBOARD'),
    userEmail,
    dashboardId,
    viewId: z.string().max(256).optional(),
  }),
  z.object({
    action: z.literal('SET_DASHBOARD_AS_DEFAULT'),
    userEmail,
    dashboardId,
    viewId: z.string().max(256).optional(),
  }),
  z.object({ action: z.literal('LIST_DASHBOARD_METADATA') }),
  z.object({
    action: z.literal('CREATE_DASHBOARD_METADATA'),
    dashboardId,
    dashboardName,
    dashboardLink,
    description: description.optional(),
  }),
  z.object({
    action: z.literal('UPDATE_DASHBOARD_METADATA'),
    metadataId: recordId,
    dashboardId,
    dashboardName,
    dashboardLink,
    description: description.optional(),
    isActive: z.boolean().optional(),
    /** The admin's confirmation that a dashboard that is not company-scoped may reach several companies. */
    sharedData: z.boolean().optional(),
  }),
  z.object({ action: z.literal('DELETE_DASHBOARD_METADATA'), metadataId: recordId }),
  /** Beyond the spec: one row of a bulk import (contracts/user-import.ts). */
  importUserRequestSchema,
  /** Dashboard usage for the Insights page (contracts/insights.ts). */
  z.object({ action: z.literal('GET_INSIGHTS'), ...insightsRangeShape }).superRefine(checkInsightsRange),
  z.object({ action: z.literal('GET_INSIGHT_USERS'), ...insightUsersRequestShape }),
  /** Companies and row-level security (contracts/companies.ts). */
  ...companyRequestSchemas,
  /** Every user's subscriptions, for the Deliveries page (the answers: contracts/admin-subscriptions.ts). */
  z.object({ action: z.literal('LIST_SUBSCRIPTIONS') }),
  /** Makes an active subscription due now: the next delivery run sends it. */
  z.object({ action: z.literal('SEND_SUBSCRIPTION_NOW'), subscriptionId }),
  /** Deletes a subscription, which frees its recipient's place under the limit. */
  z.object({ action: z.literal('CANCEL_SUBSCRIPTION'), subscriptionId }),
]);
export type QuicksightAdminRequest = z.infer<typeof quicksightAdminRequestSchema>;
export type QuicksightAdminAction = QuicksightAdminRequest['action'];

export const cognitoUserWithQuicksightSchema = z.object({
  username: z.string(),
  email: z.string(),
  enabled: z.boolean(),
  status: z.string(),
  existsInQuickSight: z.boolean(),
  cognito: z.object({ cognitoGroup: z.string().nullable() }),
  quicksight: z.object({ role: z.string(), userName: z.string(), arn: z.string() }).nullable(),
  /** The user's companies (names); more than one only for an owner account. */
  companies: z.array(z.string()).default([]),
  owner: z.boolean().default(false),
});
export type CognitoUserWithQuicksight = z.infer<typeof cognitoUserWithQuicksightSchema>;
export const listUsersWithQuicksightResponseSchema = z.object({ users: z.array(cognitoUserWithQuicksightSchema) });

export const userDashboardSchema = z.object({
  id: z.string(),
  name: z.string(),
  link: z.string(),
  isDefault: z.boolean(),
  companyName: z.string().nullable(),
  quicksightDashboardId: z.string(),
});
export type UserDashboard = z.infer<typeof userDashboardSchema>;
export const userDashboardsResponseSchema = z.object({ dashboards: z.array(userDashboardSchema) });

export const dashboardMetadataSchema = z.object({
  id: z.string(),
  dashboardId: z.string(),
  dashboardName: z.string(),
  dashboardLink: z.string(),
  description: z.string().nullable().optional(),
  isActive: z.boolean().optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  createdBy: z.string().optional(),
  /** Number of users the dashboard is assigned to. */
  assignedUsers: z.number().optional(),
  /**
   * Emails of the users the dashboard is assigned to (LIST_DASHBOARD_METADATA), so that the
   * delete confirmation can name everyone it affects.
   */
  assignedUserEmails: z.array(z.string()).optional(),
  /** Whether every dataset behind the dashboard applies the portal's row-level security (LIST_DASHBOARD_METADATA). */
  scope: z.enum(DASHBOARD_SCOPES).optional(),
  /** Why the scope is what it is, e.g. the dataset that does not apply the rules. */
  scopeDetail: z.string().optional(),
  /** An admin confirmed that this dashboard's data may be shared across companies. */
  sharedData: z.boolean().optional(),
  /** Companies of the users the dashboard is assigned to. */
  companies: z.array(z.string()).optional(),
});
export type DashboardMetadata = z.infer<typeof dashboardMetadataSchema>;
export const listDashboardMetadataResponseSchema = z.object({ dashboards: z.array(dashboardMetadataSchema) });
export const saveDashboardMetadataResponseSchema = z.object({
  message: z.string(),
  dashboard: dashboardMetadataSchema,
  updatedUserAssignments: z.number().optional(),
});

/** Catalogue entries name dashboards QuickSight has (DescribeDashboard), checked on create. */
export const CATALOGUE_MESSAGES = {
  unknownDashboard: (dashboardId: string) =>
    `QuickSight has no dashboard with the ID "${dashboardId}". Copy the ID from the dashboard's address in QuickSight (…/dashboards/<ID>) and try again.`,
} as const;
