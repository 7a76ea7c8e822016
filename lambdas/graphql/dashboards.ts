import * as z from 'zod';
import type { Caller } from '../shared/auth/caller.ts';
import { createCatalogueEntry, deleteUnassignedCatalogueEntry, updateCatalogueEntry } from '../shared/catalogue.ts';
import { type DashboardItem, getDashboard, pageDashboards } from '../shared/data/catalogue.ts';
import { decodePageToken, encodePageToken } from '../shared/data/page-token.ts';
import { hasViewOfDashboard, viewsOfUser } from '../shared/data/views.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '../shared/errors.ts';
import { parseWith } from '../shared/validation.ts';
import { matchesFilter, type ModelFilter } from './filter.ts';
import { createDashboardArgs, DEFAULT_PAGE_SIZE, deleteArgs, idArgs, listArgs, updateDashboardArgs } from './inputs.ts';

/**
 * DashboardMetadata resolvers. The catalogue is need-to-know: admins read all of it, a Users
 * caller only the entries of dashboards assigned to them (those they hold a view of), without
 * `createdBy` (the creating admin's email); another entry reads as missing. Only admins write
 * it, under the same rules as the QuickSight management function (unique IDs, labels carried
 * to the views). Deleting here is refused while users have the dashboard, since revoking
 * their access needs QuickSight, which only the admin function calls.
 */
const ADMIN_ONLY = "Access denied. You don't have admin privileges.";

const requireAdmin = (caller: Caller) => {
  if (!caller.isAdmin) throw new ForbiddenError(ADMIN_ONLY);
};

const checkCondition = (record: DashboardItem | undefined, condition: ModelFilter | null | undefined) => {
  if (condition !== null && condition !== undefined && !matchesFilter({ ...(record ?? {}) }, condition)) {
    throw new ConflictError('The conditional request failed');
  }
};

const catalogueKey = z.object({ id: z.string() }).strict();

/** A catalogue entry as a Users caller reads it: the fields of DashboardMetadata but createdBy. */
export type CatalogueEntry = Omit<DashboardItem, 'createdBy' | 'sharedData'>;

const forUser = ({ createdBy: _createdBy, sharedData: _sharedData, ...entry }: DashboardItem): CatalogueEntry => entry;

export const getDashboardMetadata = async (caller: Caller, args: unknown): Promise<CatalogueEntry | null> => {
  const item = await getDashboard(parseWith(idArgs, args).id);
  if (item === undefined) return null;
  if (caller.isAdmin) return item;
  return (await hasViewOfDashboard(caller.email, item.dashboardId)) ? forUser(item) : null;
};

export const listDashboardMetadata = async (caller: Caller, args: unknown) => {
  const { filter, limit, nextToken } = parseWith(listArgs, args);
  const [page, assigned] = await Promise.all([
    pageDashboards(limit ?? DEFAULT_PAGE_SIZE, decodePageToken(nextToken, catalogueKey)),
    caller.isAdmin
      ? undefined
      : viewsOfUser(caller.email).then((views) => new Set(views.map((view) => view.quicksightDashboardId))),
  ]);
  const visible: readonly CatalogueEntry[] =
    assigned === undefined ? page.items : page.items.filter((item) => assigned.has(item.dashboardId)).map(forUser);
  return {
    items: visible.filter((item) => matchesFilter({ ...item }, filter)),
    nextToken: encodePageToken(page.lastKey),
  };
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
