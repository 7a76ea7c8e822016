import * as z from 'zod';
import type { Caller } from '../shared/auth/caller.ts';
import { createCatalogueEntry, deleteUnassignedCatalogueEntry, updateCatalogueEntry } from '../shared/catalogue.ts';
import { type DashboardItem, getDashboard, pageDashboards } from '../shared/data/catalogue.ts';
import { decodePageToken, encodePageToken } from '../shared/data/page-token.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '../shared/errors.ts';
import { parseWith } from '../shared/validation.ts';
import { matchesFilter, type ModelFilter } from './filter.ts';
import { createDashboardArgs, DEFAULT_PAGE_SIZE, deleteArgs, idArgs, listArgs, updateDashboardArgs } from './inputs.ts';

/**
 * DashboardMetadata resolvers: any signed-in user reads the catalogue; only admins write it,
 * under the same rules as the QuickSight management function (unique IDs, labels carried to
 * the views). Deleting here is refused while users have the dashboard, since revoking their
 * access needs QuickSight, which only the admin function calls.
 */
export const ADMIN_ONLY = "Access denied. You don't have admin privileges.";

const requireAdmin = (caller: Caller) => {
  if (!caller.isAdmin) throw new ForbiddenError(ADMIN_ONLY);
};

const checkCondition = (record: DashboardItem | undefined, condition: ModelFilter | null | undefined) => {
  if (condition !== null && condition !== undefined && !matchesFilter({ ...(record ?? {}) }, condition)) {
    throw new ConflictError('The conditional request failed');
  }
};

const catalogueKey = z.object({ id: z.string() }).strict();

export const getDashboardMetadata = async (_caller: Caller, args: unknown): Promise<DashboardItem | null> =>
  (await getDashboard(parseWith(idArgs, args).id)) ?? null;

export const listDashboardMetadata = async (_caller: Caller, args: unknown) => {
  const { filter, limit, nextToken } = parseWith(listArgs, args);
  const page = await pageDashboards(limit ?? DEFAULT_PAGE_SIZE, decodePageToken(nextToken, catalogueKey));
  return { items: page.items.filter((item) => matchesFilter({ ...item }, filter)), nextToken: encodePageToken(page.lastKey) };
};

export const createDashboardMetadata = async (caller: Caller, args: unknown): Promise<DashboardItem> => {
  requireAdmin(caller);
  const { input, condition } = parseWith(createDashboardArgs, args);
  checkCondition(undefined, condition);
  return createCatalogueEntry(input, caller.email, input.id);
};

export const updateDashboardMetadata = async (caller: Caller, args: unknown): Promise<DashboardItem> => {
  requireAdmin(caller);
  const { input, condition } = parseWith(updateDashboardArgs, args);
  const current = await getDashboard(input.id);
  if (current === undefined) throw new NotFoundError('Dashboard not found');
  checkCondition(current, condition);
  const { id, ...changes } = input;
  return (await updateCatalogueEntry(id, changes)).dashboard;
};

export const deleteDashboardMetadata = async (caller: Caller, args: unknown): Promise<DashboardItem> => {
  requireAdmin(caller);
  const { input, condition } = parseWith(deleteArgs, args);
  checkCondition(await getDashboard(input.id), condition);
  return deleteUnassignedCatalogueEntry(input.id);
};
