import type { Logger } from '../shared/logger.ts';
import type { AppSyncResolverEvent } from 'aws-lambda';
import { audited } from '../shared/audit.ts';
import type { Caller } from '../shared/auth/caller.ts';
import {
  createDashboardMetadata,
  deleteDashboardMetadata,
  getDashboardMetadata,
  listDashboardMetadata,
  updateDashboardMetadata,
} from './dashboards.ts';
import { ResolverError } from './resolver-error.ts';
import { listMySubscriptions, SUBSCRIPTION_MUTATIONS } from './subscriptions.ts';
import { createTableauView, deleteTableauView, getTableauView, listTableauViews, updateTableauView } from './views.ts';

type Resolver = (caller: Caller, args: unknown, logger: Logger) => Promise<unknown>;

const QUERIES: Record<string, Resolver> = {
  getTableauView,
  listTableauViews,
  getDashboardMetadata,
  listDashboardMetadata,
  listMySubscriptions,
};
const MUTATIONS: Record<string, Resolver> = {
  createTableauView,
  updateTableauView,
  deleteTableauView,
  createDashboardMetadata,
  updateDashboardMetadata,
  deleteDashboardMetadata,
  ...SUBSCRIPTION_MUTATIONS,
};

const targetOf = (args: Record<string, unknown>): string | null => {
  const input = args.input as { id?: unknown; dashboardId?: unknown } | undefined;
  const target = input?.dashboardId ?? input?.id;
  return typeof target === 'string' ? target : null;
};

type ResolverEvent = AppSyncResolverEvent<Record<string, unknown>>;

/**
 * Runs the field's resolver. Admins' mutations are audited here; the subscription mutations
 * are the caller's own and audit themselves, for every caller (subscriptions.ts).
 */
export const resolve = async (event: ResolverEvent, caller: Caller, logger: Logger): Promise<unknown> => {
  const field = event.info.fieldName;
  const args = event.arguments ?? {};
  const query = event.info.parentTypeName === 'Query' ? QUERIES[field] : undefined;
  if (query !== undefined) return query(caller, args, logger);
  const mutation = event.info.parentTypeName === 'Mutation' ? MUTATIONS[field] : undefined;
  if (mutation === undefined)
    throw new ResolverError('BadRequest', `Unknown field ${event.info.parentTypeName}.${field}`);
  if (!caller.isAdmin || Object.hasOwn(SUBSCRIPTION_MUTATIONS, field)) return mutation(caller, args, logger);
  return audited(logger, { caller, action: field, target: targetOf(args) }, () => mutation(caller, args, logger));
};
