import type { Logger } from '../shared/logger.ts';
import type { QuicksightAdminRequest } from '#contracts/quicksight-admin.ts';
import { auditorFor, describeUserDeletion } from '../shared/audit.ts';
import type { Caller } from '../shared/auth/caller.ts';
import { createCatalogueEntry, updateCatalogueEntry } from '../shared/catalogue.ts';
import { assertMayManage } from '../shared/protection.ts';
import { userDashboards } from '../shared/user-views.ts';
import { assignDashboard, makeDefaultDashboard, unassignDashboard } from './assignments.ts';
import { deleteDashboardEverywhere, listCatalogue, toMetadata } from './catalogue-actions.ts';
import { describeImport, importUser } from './import-user.ts';
import { readInsightUsersPage } from './insight-users.ts';
import { readInsights } from './insights.ts';
import { deleteRegisteredUser, listUsersWithQuickSightStatus, registerUser } from './users.ts';
import {
  checkCompanyAccessAction,
  createCompanyAction,
  deleteCompanyAction,
  listCompaniesAction,
  setUserCompaniesAction,
  updateCompanyAction,
} from './company-actions.ts';
import { checkCrossCompanyAssignment, recordSharedData } from './shared-data.ts';

/** The subscription actions, with the subscriptions' data layer and schedule: loaded on their first request. */
const subscriptionActions = () => import('./subscription-actions.ts');

/**
 * Cancels, in the step that makes them undeliverable, the subscriptions of `email` that `which`
 * selects: how many went, for the audit entry.
 */
const cancelSubscriptions = async (email: string, which?: (subscription: { dashboardId: string }) => boolean) =>
  (await (await import('../shared/subscriptions/cancel.ts')).cancelSubscriptionsOf(email, which)).length;

const canceledText = (count: number) => (count > 0 ? `; subscriptions canceled: ${count}` : '');

/** Runs one validated action of the QuickSight management function (its one dispatch); mutations are audited. */
export const runQuicksightAdminAction = async (
  request: QuicksightAdminRequest,
  caller: Caller,
  logger: Logger,
): Promise<unknown> => {
  const audit = auditorFor(logger, caller, request.action);

  switch (request.action) {
    case 'LIST_COGNITO_USERS_WITH_QUICKSIGHT_STATUS':
      return { users: await listUsersWithQuickSightStatus(request.fullListing === true) };

    case 'DELETE_USER': {
      const email = request.userEmail.toLowerCase();
      return audit(
        email,
        async () => {
          await assertMayManage(caller, email, 'delete');
          // Without its QuickSight user and assignments, the account can receive no file.
          const canceledSubscriptions = await cancelSubscriptions(email);
          return {
            message: 'User deleted from QuickSight successfully',
            userEmail: email,
            ...(await deleteRegisteredUser(email)),
            canceledSubscriptions,
          };
        },
        describeUserDeletion,
      );
    }

    case 'REGISTER_USER': {
      const email = request.userEmail.toLowerCase();
      return audit(
        email,
        async () => ({
          message: 'User registered in QuickSight successfully',
          user: await registerUser(email, request.userRole),
        }),
        () => `role ${request.userRole}`,
      );
    }

    case 'GET_USER_DASHBOARDS':
      return { dashboards: await userDashboards(request.userEmail.toLowerCase()) };

    case 'INVITE_TO_DASHBOARD': {
      const email = request.userEmail.toLowerCase();
      return audit(
        email,
        async () => {
          const decision = await checkCrossCompanyAssignment(email, request.dashboardId, request.confirmSharedData);
          if (decision.kind === 'confirm') {
            await auditorFor(logger, caller, 'CONFIRM_SHARED_DATA')(
              request.dashboardId,
              () => recordSharedData(decision.entry),
              () => `shared data confirmed for ${decision.newCompanies.join(', ')} (${decision.detail})`,
            );
          }
          return {
            message: 'Dashboard assigned successfully',
            dashboard: await assignDashboard(
              {
                userEmail: email,
                dashboardId: request.dashboardId,
                dashboardName: request.dashboardName,
                dashboardLink: request.dashboardLink,
                makeDefault: request.makeDefault,
              },
              caller.email,
            ),
          };
        },
        () =>
          `dashboard ${request.dashboardId}${request.makeDefault ? ' (default)' : ''}${request.confirmSharedData ? ' (shared data confirmed)' : ''}`,
      );
    }

    case 'REMOVE_FROM_DASHBOARD': {
      const email = request.userEmail.toLowerCase();
      let canceled = 0;
      return audit(
        email,
        async () => {
          const removedViews = await unassignDashboard(email, request.dashboardId);
          canceled = await cancelSubscriptions(email, (s) => s.dashboardId === request.dashboardId);
          return { message: 'User removed from dashboard successfully', removedViews };
        },
        () => `dashboard ${request.dashboardId}${canceledText(canceled)}`,
      );
    }

    case 'SET_DASHBOARD_AS_DEFAULT': {
      const email = request.userEmail.toLowerCase();
      return audit(
        email,
        async () => ({
          message: 'Dashboard set as default successfully',
          viewId: await makeDefaultDashboard(email, request.dashboardId, request.viewId),
        }),
        () => `dashboard ${request.dashboardId}`,
      );
    }

    case 'LIST_DASHBOARD_METADATA':
      return { dashboards: await listCatalogue() };

    case 'CREATE_DASHBOARD_METADATA':
      return audit(request.dashboardId, async () => ({
        message: 'Dashboard created successfully',
        dashboard: toMetadata(await createCatalogueEntry(request, caller.email)),
      }));

    case 'UPDATE_DASHBOARD_METADATA':
      return audit(
        request.dashboardId,
        async () => {
          const { dashboard, updatedUserAssignments } = await updateCatalogueEntry(request.metadataId, {
            dashboardId: request.dashboardId,
            dashboardName: request.dashboardName,
            dashboardLink: request.dashboardLink,
            description: request.description,
            isActive: request.isActive,
            sharedData: request.sharedData,
          });
          return {
            message: 'Dashboard updated successfully',
            dashboard: toMetadata(dashboard),
            updatedUserAssignments,
          };
        },
        (result) =>
          `updated for ${result.updatedUserAssignments} user(s)${request.sharedData === undefined ? '' : `; shared data ${request.sharedData ? 'confirmed' : 'withdrawn'}`}`,
      );

    case 'GET_INSIGHTS':
      return readInsights({ from: request.from, to: request.to, company: request.company });

    case 'GET_INSIGHT_USERS':
      return readInsightUsersPage({ company: request.company, limit: request.limit, nextToken: request.nextToken });

    case 'DELETE_DASHBOARD_METADATA':
      // The trail names the dashboard by its ID, as the catalogue shows it, not by its record id.
      return audit(
        { before: request.metadataId, fromResult: (result) => result.dashboard.dashboardId },
        async () => {
          const { dashboard, removedUsers } = await deleteDashboardEverywhere(request.metadataId);
          return {
            message: 'Dashboard deleted successfully',
            dashboard: toMetadata(dashboard),
            removedUserAssignments: removedUsers,
          };
        },
        (result) => `${result.dashboard.dashboardName}; removed from ${result.removedUserAssignments} user(s)`,
      );

    case 'LIST_COMPANIES':
      return listCompaniesAction();
    case 'CREATE_COMPANY':
      return createCompanyAction(request, caller, audit);
    case 'UPDATE_COMPANY':
      return updateCompanyAction(request, audit);
    case 'DELETE_COMPANY':
      return deleteCompanyAction(request, audit);
    case 'SET_USER_COMPANIES':
      return setUserCompaniesAction(request, audit);
    case 'CHECK_COMPANY_ACCESS':
      return checkCompanyAccessAction(request, caller, logger, audit);

    case 'LIST_SUBSCRIPTIONS':
      return (await subscriptionActions()).listSubscriptionsAction();
    case 'SEND_SUBSCRIPTION_NOW':
      return (await subscriptionActions()).sendSubscriptionNowAction(request, audit);
    case 'CANCEL_SUBSCRIPTION':
      return (await subscriptionActions()).cancelSubscriptionAction(request, audit);

    case 'IMPORT_USER':
      return audit(
        request.userEmail.toLowerCase(),
        () => importUser(request, caller.email),
        (result) => describeImport(request, result),
      );
  }
};
