import { z } from 'zod';
import { DASHBOARD_ACTIONS } from './access.ts';
import {
  SAMPLE_DASHBOARDS,
  SAMPLE_DASHBOARDS_PUBLISHED_AT,
  findSampleDashboard,
  sampleSheetId,
  type SampleDashboard,
  type SampleVisual,
} from '#emulators/sample-dashboards/catalog.ts';
import { dashboardArn, dataSetArn, type AccountScope } from './arns.ts';
import { dashboardNotFound } from './errors.ts';
import { paginate, parseBody, requireAccount, requireParam } from './input.ts';
import { mergePermissions, requireValidPrincipals } from './resource-permissions.ts';
import type { ApiContext, ApiOperation, ApiRequest } from './api-types.ts';

/** ListDashboards, DescribeDashboard, DescribeDashboardDefinition and the dashboard permission operations. */

const PUBLISHED_AT_SECONDS = SAMPLE_DASHBOARDS_PUBLISHED_AT / 1000;
const MAX_PERMISSION_CHANGES = 100;

const permissionListSchema = z
  .array(
    z.object({
      Principal: z.string().min(1).max(256),
      Actions: z
        .array(z.enum(DASHBOARD_ACTIONS, { error: `must be among ${DASHBOARD_ACTIONS.join(', ')}` }))
        .min(1)
        .max(20),
    }),
  )
  .max(MAX_PERMISSION_CHANGES);

const updatePermissionsSchema = z.object({
  GrantPermissions: permissionListSchema.optional(),
  RevokePermissions: permissionListSchema.optional(),
  GrantLinkPermissions: z.array(z.unknown()).max(0, 'link sharing is not enabled in this account').optional(),
  RevokeLinkPermissions: z.array(z.unknown()).max(0, 'link sharing is not enabled in this account').optional(),
});

/** The sample dashboard a DashboardId names, or ResourceNotFoundException. */
export function dashboardById(dashboardId: string): SampleDashboard {
  const dashboard = findSampleDashboard(dashboardId);
  if (!dashboard) throw dashboardNotFound(dashboardId);
  return dashboard;
}

function targetDashboard(request: ApiRequest, context: ApiContext, operation: string): SampleDashboard {
  requireAccount(context.scope, request.params.AwsAccountId, operation);
  return dashboardById(requireParam(request.params, 'DashboardId'));
}

/** A version or alias of the query: the sample dashboards have version 1 only, $LATEST and $PUBLISHED. */
function requirePublishedVersion(request: ApiRequest, dashboard: SampleDashboard): void {
  const version = request.query.get('version-number');
  const alias = request.query.get('alias-name');
  if (version !== null && version !== '1') throw dashboardNotFound(`${dashboard.dashboardId} version ${version}`);
  if (alias !== null && alias !== '$LATEST' && alias !== '$PUBLISHED') {
    throw dashboardNotFound(`${dashboard.dashboardId} alias ${alias}`);
  }
}

/** The member of DescribeDashboardDefinition's Visual union each kind of sample visual is. */
const VISUAL_MEMBERS: Record<SampleVisual['type'], string> = {
  TABLE: 'TableVisual',
  PIVOT_TABLE: 'PivotTableVisual',
  KPI: 'KPIVisual',
  BAR_CHART: 'BarChartVisual',
};

/**
 * DescribeDashboardDefinition's Definition of a sample dashboard: its datasets and its sheets with
 * their visuals (IDs and titles; the emulator draws the charts itself and gives no chart configuration).
 */
function definitionOf(scope: AccountScope, dashboard: SampleDashboard) {
  return {
    DataSetIdentifierDeclarations: dashboard.dataSetIds.map((id) => ({
      Identifier: id,
      DataSetArn: dataSetArn(scope, id),
    })),
    Sheets: dashboard.sheets.map((name, index) => ({
      SheetId: sampleSheetId(dashboard, index),
      Name: name,
      Visuals: (index === 0 ? dashboard.visuals : []).map((visual) => ({
        [VISUAL_MEMBERS[visual.type]]: {
          VisualId: visual.visualId,
          Title: { Visibility: 'VISIBLE', FormatText: { PlainText: visual.title } },
        },
      })),
    })),
  };
}

function summary(scope: AccountScope, dashboard: SampleDashboard) {
  return {
    Arn: dashboardArn(scope, dashboard.dashboardId),
    DashboardId: dashboard.dashboardId,
    Name: dashboard.name,
    CreatedTime: PUBLISHED_AT_SECONDS,
    LastUpdatedTime: PUBLISHED_AT_SECONDS,
    LastPublishedTime: PUBLISHED_AT_SECONDS,
    PublishedVersionNumber: 1,
  };
}

export const dashboardOperations: readonly ApiOperation[] = [
  {
    name: 'ListDashboards',
    method: 'GET',
    path: '/accounts/{AwsAccountId}/dashboards',
    handle(request, context) {
      requireAccount(context.scope, request.params.AwsAccountId, 'ListDashboards');
      const page = paginate(SAMPLE_DASHBOARDS, request.query, 'dashboards');
      return {
        body: { DashboardSummaryList: page.items.map((d) => summary(context.scope, d)), NextToken: page.nextToken },
      };
    },
  },
  {
    name: 'DescribeDashboard',
    method: 'GET',
    path: '/accounts/{AwsAccountId}/dashboards/{DashboardId}',
    handle(request, context) {
      const dashboard = targetDashboard(request, context, 'DescribeDashboard');
      requirePublishedVersion(request, dashboard);
      const arn = dashboardArn(context.scope, dashboard.dashboardId);
      return {
        body: {
          Dashboard: {
            DashboardId: dashboard.dashboardId,
            Arn: arn,
            Name: dashboard.name,
            CreatedTime: PUBLISHED_AT_SECONDS,
            LastPublishedTime: PUBLISHED_AT_SECONDS,
            LastUpdatedTime: PUBLISHED_AT_SECONDS,
            Version: {
              VersionNumber: 1,
              Status: 'CREATION_SUCCESSFUL',
              Arn: `${arn}/version/1`,
              CreatedTime: PUBLISHED_AT_SECONDS,
              Description: dashboard.description,
              Errors: [],
              Sheets: dashboard.sheets.map((name, index) => ({
                SheetId: sampleSheetId(dashboard, index),
                Name: name,
              })),
              DataSetArns: dashboard.dataSetIds.map((id) => dataSetArn(context.scope, id)),
            },
          },
        },
      };
    },
  },
  {
    name: 'DescribeDashboardDefinition',
    method: 'GET',
    path: '/accounts/{AwsAccountId}/dashboards/{DashboardId}/definition',
    handle(request, context) {
      const dashboard = targetDashboard(request, context, 'DescribeDashboardDefinition');
      requirePublishedVersion(request, dashboard);
      return {
        body: {
          DashboardId: dashboard.dashboardId,
          Name: dashboard.name,
          ResourceStatus: 'CREATION_SUCCESSFUL',
          Errors: [],
          Definition: definitionOf(context.scope, dashboard),
        },
      };
    },
  },
  {
    name: 'DescribeDashboardPermissions',
    method: 'GET',
    path: '/accounts/{AwsAccountId}/dashboards/{DashboardId}/permissions',
    handle(request, context) {
      const dashboard = targetDashboard(request, context, 'DescribeDashboardPermissions');
      return {
        body: {
          DashboardId: dashboard.dashboardId,
          DashboardArn: dashboardArn(context.scope, dashboard.dashboardId),
          Permissions: context.store.state.dashboardPermissions(dashboard.dashboardId),
          LinkSharingConfiguration: { Permissions: [] },
        },
      };
    },
  },
  {
    name: 'UpdateDashboardPermissions',
    method: 'PUT',
    path: '/accounts/{AwsAccountId}/dashboards/{DashboardId}/permissions',
    async handle(request, context) {
      const dashboard = targetDashboard(request, context, 'UpdateDashboardPermissions');
      const input = parseBody(updatePermissionsSchema, request.body);
      const grants = input.GrantPermissions ?? [];
      const revocations = input.RevokePermissions ?? [];
      requireValidPrincipals(context, grants, { mustExist: true, namespaces: true });
      requireValidPrincipals(context, revocations, { mustExist: false, namespaces: true });
      const permissions = mergePermissions(
        context.store.state.dashboardPermissions(dashboard.dashboardId),
        grants,
        revocations,
      );
      await context.store.commit({ type: 'setDashboardPermissions', dashboardId: dashboard.dashboardId, permissions });
      return {
        body: {
          DashboardId: dashboard.dashboardId,
          DashboardArn: dashboardArn(context.scope, dashboard.dashboardId),
          Permissions: permissions,
          LinkSharingConfiguration: { Permissions: [] },
        },
      };
    },
  },
];
