import { randomUUID } from 'node:crypto';
import { dashboardIdExistsMessage } from '#contracts/fields.ts';
import { mapWithLimit } from './concurrency.ts';
import {
  type DashboardItem,
  deleteDashboardRecord,
  getDashboard,
  putNewDashboard,
  replaceDashboard,
} from './data/catalogue.ts';
import { claimDashboardId, releaseDashboardId, type HoldsDashboardId } from './data/dashboard-claims.ts';
import { nowIso } from './data/tables.ts';
import { isDashboardAssigned, refreshViewLabels, viewsOfDashboard } from './data/views.ts';
import { ConflictError, NotFoundError } from './errors.ts';

/**
 * Catalogue rules shared by the QuickSight management function and the GraphQL resolvers:
 * case-insensitively unique dashboard IDs, name and link changes carried to every view of
 * the dashboard, and no change of ID while users have the dashboard.
 */
export interface CatalogueFields {
  dashboardId: string;
  dashboardName: string;
  dashboardLink: string;
  /** null or '' clears it. */
  description?: string | null;
  isActive?: boolean;
  sharedData?: boolean;
}

const DASHBOARD_NOT_FOUND = 'Dashboard not found';
const CHANGED_CONCURRENTLY = 'The dashboard was changed by someone else. Reload and try again.';
const ID_LOCKED_WHILE_ASSIGNED =
  'Dashboard ID cannot change while the dashboard is assigned to users. Remove it from every user first.';

const sameId = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

const holdsDashboardId: HoldsDashboardId = async (metadataId, dashboardId) => {
  const record = await getDashboard(metadataId);
  return record !== undefined && sameId(record.dashboardId, dashboardId);
};

const cleanDescription = (description: string | null | undefined) => (description ? description : undefined);

/**
 * A new catalogue entry, only for a dashboard QuickSight has (dashboard-check.ts, loaded by the
 * creates alone: the other catalogue paths never call QuickSight).
 */
export const createCatalogueEntry = async (
  fields: CatalogueFields,
  actor: string,
  id: string = randomUUID(),
): Promise<DashboardItem> => {
  await (await import('./dashboard-check.ts')).requireQuickSightDashboard(fields.dashboardId);
  await claimDashboardId(fields.dashboardId, id, holdsDashboardId);
  const now = nowIso();
  const item: DashboardItem = {
    id,
    dashboardId: fields.dashboardId,
    dashboardName: fields.dashboardName,
    dashboardLink: fields.dashboardLink,
    description: cleanDescription(fields.description),
    isActive: fields.isActive ?? true,
    createdAt: now,
    updatedAt: now,
    createdBy: actor,
  };
  let stored: boolean;
  try {
    stored = await putNewDashboard(item);
  } catch (error) {
    await releaseDashboardId(fields.dashboardId, id);
    throw error;
  }
  if (stored) return item;
  // The record id exists already: the same create done before (its claim stays), or an id
  // clash with another record (the claim just taken goes back).
  if (await holdsDashboardId(id, fields.dashboardId))
    throw new ConflictError(dashboardIdExistsMessage(fields.dashboardId));
  await releaseDashboardId(fields.dashboardId, id);
  throw new ConflictError('A dashboard record with this id already exists');
};

/**
 * Puts the record's name and link on every view of its dashboard; answers how many users
 * had a view changed. Converges: running it again fixes whatever a failed run left.
 */
const carryLabelsToViews = async (dashboard: DashboardItem): Promise<number> => {
  const views = await viewsOfDashboard(dashboard.dashboardId);
  const stale = views.filter((view) => view.name !== dashboard.dashboardName || view.link !== dashboard.dashboardLink);
  const changed = await mapWithLimit(stale, 10, async (view) =>
    (await refreshViewLabels(view.id, dashboard.dashboardName, dashboard.dashboardLink)) ? view.userEmail : undefined,
  );
  return new Set(changed.filter((email) => email !== undefined)).size;
};

export const updateCatalogueEntry = async (
  id: string,
  changes: Partial<CatalogueFields>,
): Promise<{ dashboard: DashboardItem; updatedUserAssignments: number }> => {
  const current = await getDashboard(id);
  if (current === undefined) throw new NotFoundError(DASHBOARD_NOT_FOUND);
  const next: DashboardItem = {
    ...current,
    dashboardId: changes.dashboardId ?? current.dashboardId,
    dashboardName: changes.dashboardName ?? current.dashboardName,
    dashboardLink: changes.dashboardLink ?? current.dashboardLink,
    description: changes.description === undefined ? current.description : cleanDescription(changes.description),
    isActive: changes.isActive ?? current.isActive,
    sharedData: changes.sharedData ?? current.sharedData ?? false,
    updatedAt: nowIso(),
  };
  if (next.dashboardId !== current.dashboardId && (await isDashboardAssigned(current.dashboardId))) {
    throw new ConflictError(ID_LOCKED_WHILE_ASSIGNED);
  }
  const claimMoves = !sameId(next.dashboardId, current.dashboardId);
  if (claimMoves) await claimDashboardId(next.dashboardId, id, holdsDashboardId);
  let replaced: boolean;
  try {
    replaced = await replaceDashboard(next, current.updatedAt);
  } catch (error) {
    if (claimMoves) await releaseDashboardId(next.dashboardId, id);
    throw error;
  }
  if (!replaced) {
    if (claimMoves) await releaseDashboardId(next.dashboardId, id);
    throw new ConflictError(CHANGED_CONCURRENTLY);
  }
  if (claimMoves) await releaseDashboardId(current.dashboardId, id);
  const labelsSent = changes.dashboardName !== undefined || changes.dashboardLink !== undefined;
  const updatedUserAssignments = labelsSent ? await carryLabelsToViews(next) : 0;
  return { dashboard: next, updatedUserAssignments };
};

/** Deletes the record, then gives its ID back (a crash between leaves a claim that goes stale). */
export const removeCatalogueRecord = async (record: DashboardItem): Promise<void> => {
  await deleteDashboardRecord(record.id);
  await releaseDashboardId(record.dashboardId, record.id);
};

/** Catalogue-only delete (GraphQL): refused while users have the dashboard, as it cannot revoke access. */
export const deleteUnassignedCatalogueEntry = async (id: string): Promise<DashboardItem> => {
  const record = await getDashboard(id);
  if (record === undefined) throw new NotFoundError(DASHBOARD_NOT_FOUND);
  if (await isDashboardAssigned(record.dashboardId)) {
    throw new ConflictError(
      'The dashboard is assigned to users: delete it from the admin portal, which also removes it from them.',
    );
  }
  await removeCatalogueRecord(record);
  return record;
};
