import middy, { type MiddlewareObj } from '@middy/core';
import type { AppSyncResolverEvent } from 'aws-lambda';
import { audited } from '../shared/audit.ts';
import { authenticate, type Caller, requirePortalMember, tokenFromHeader } from '../shared/auth/caller.ts';
import { confirmAdmin } from '../shared/auth/live-admin.ts';
import type { CallerContext } from '../shared/http.ts';
import { createLogger } from '../shared/logger.ts';
import {
  createDashboardMetadata,
  deleteDashboardMetadata,
  getDashboardMetadata,
  listDashboardMetadata,
  updateDashboardMetadata,
} from './dashboards.ts';
import { ResolverError, resolverLog } from './resolver-error.ts';
import { createTableauView, deleteTableauView, getTableauView, listTableauViews, updateTableauView } from './views.ts';

const logger = createLogger('graphql');

type Resolver = (caller: Caller, args: unknown) => Promise<unknown>;

const QUERIES: Record<string, Resolver> = { getTableauView, listTableauViews, getDashboardMetadata, listDashboardMetadata };
const MUTATIONS: Record<string, Resolver> = {
  createTableauView,
  updateTableauView,
  deleteTableauView,
  createDashboardMetadata,
  updateDashboardMetadata,
  deleteDashboardMetadata,
};

const targetOf = (args: Record<string, unknown>): string | null => {
  const input = args.input as { id?: unknown; dashboardId?: unknown } | undefined;
  const target = input?.dashboardId ?? input?.id;
  return typeof target === 'string' ? target : null;
};

type ResolverEvent = AppSyncResolverEvent<Record<string, unknown>>;

/**
 * The token is verified again here (not only by AppSync) and the session checked live, so
 * local mode and AWS enforce the same rules; an account in neither portal group is refused.
 * A token that claims Admins is confirmed with Cognito, so admin operations (catalogue
 * writes, other users' views) follow the group as it is now. AppSync passes the bare token.
 */
const appsyncCaller = (): MiddlewareObj<ResolverEvent, unknown, Error, CallerContext> => ({
  before: async (request) => {
    const token = tokenFromHeader(request.event.request?.headers?.authorization, { allowBare: true });
    // AppSync invokes the resolver once per root field: one request's fields share one session check.
    request.context.caller = requirePortalMember(await confirmAdmin(await authenticate(token, { reuseRecentCheck: true })));
  },
});

/** Runs the field's resolver; admin mutations are audited. */
const resolve = async (event: ResolverEvent, caller: Caller): Promise<unknown> => {
  const field = event.info.fieldName;
  const args = event.arguments ?? {};
  const query = event.info.parentTypeName === 'Query' ? QUERIES[field] : undefined;
  if (query !== undefined) return query(caller, args);
  const mutation = event.info.parentTypeName === 'Mutation' ? MUTATIONS[field] : undefined;
  if (mutation === undefined) throw new ResolverError('BadRequest', `Unknown field ${event.info.parentTypeName}.${field}`);
  if (!caller.isAdmin) return mutation(caller, args);
  return audited(logger, { caller, action: field, target: targetOf(args) }, () => mutation(caller, args));
};

/** AppSync direct Lambda resolver for every field of contracts/schema.graphql. */
export const handler = middy<ResolverEvent, unknown, Error, CallerContext>()
  .use(resolverLog({ logger }))
  .use(appsyncCaller())
  .handler((event, context) => resolve(event, context.caller));
