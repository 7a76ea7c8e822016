import * as z from 'zod';
import type { Caller } from '../shared/auth/caller.ts';
import { companyLabelOfUser } from '../shared/data/companies.ts';
import { clearDefaultIfPointsTo, getDefaultViewId, setDefaultView } from '../shared/data/default-view.ts';
import { assignmentLease, withLease } from '../shared/data/lease.ts';
import { decodePageToken, encodePageToken, invalidPageToken } from '../shared/data/page-token.ts';
import { nowIso } from '../shared/data/tables.ts';
import {
  claimedViewId,
  deleteView,
  getView,
  hasViewOfDashboard,
  newViewId,
  pageViewsOfUser,
  putNewView,
  replaceView,
  type ViewItem,
  viewsOfUserForDashboard,
} from '../shared/data/views.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '../shared/errors.ts';
import { parseWith } from '../shared/validation.ts';
import { lowercaseEmailOperands, matchesFilter, type ModelFilter } from './filter.ts';
import { createViewArgs, DEFAULT_PAGE_SIZE, deleteArgs, idArgs, listArgs, updateViewArgs } from './inputs.ts';

/**
 * TableauView resolvers. A view is visible to its owner and to admins; the owner comes from
 * the token (an admin may name another user). A view exists only while its user holds the
 * dashboard in QuickSight, which only the admin portal grants and revokes, so here a view
 * can be added only for a dashboard the user already has, and the last view of a dashboard
 * cannot be deleted. Each change takes the same lease as the admin's assign/remove. View ids
 * are made here, never taken from input (see lambdas/shared/data/views.ts). A view's
 * companyName is its user's companies (the company model, written by the admin portal), read
 * from the company records when the view is answered: nobody sets or changes it here.
 *
 * An assignment belongs to the admin: a Users caller may make an admin-made view their
 * default, never change its dashboard, name or link (the admin portal's Dashboards panel
 * shows them and opens the link). Their own views they may name and move between the
 * dashboards they have; the link of a user's own view is always its assignment's.
 */
export interface TableauView extends ViewItem {
  isDefault: boolean;
  companyName: string | null;
}

/** A view as GraphQL answers it: its owner's default and companies, read where it is answered. */
const toTableauView = (view: ViewItem, defaultViewId: string | undefined, companyName: string | null): TableauView => ({
  ...view,
  isDefault: view.id === defaultViewId,
  companyName,
});

/** What every view of `owner` is answered with: their default view and their companies' label. */
const ownerContext = (owner: string): Promise<[string | undefined, string | null]> =>
  Promise.all([getDefaultViewId(owner), companyLabelOfUser(owner)]);

const NOT_YOUR_VIEW = 'Not authorized to access this view';
const CHANGED_CONCURRENTLY = 'The view was changed by someone else. Reload and try again.';
const CONDITION_FAILED = 'The conditional request failed';
const LAST_VIEW =
  "This is the user's last view of the dashboard. Removing the dashboard from a user is done in the admin portal (Remove), which also revokes access.";
const COMPANY_FROM_MODEL =
  "An assignment's company is the user's company: it is set in the admin portal (Companies, Edit User) and cannot be changed here.";
const ASSIGNMENT_IS_ADMINS =
  'This view is an assignment made by an administrator: its dashboard, name and link are set in the admin portal and cannot be changed here. You can make it your default or add a view of your own.';
const LINK_FROM_ASSIGNMENT =
  "A view's link is the link of the dashboard's assignment, set in the admin portal: it cannot be chosen here.";
const notAssigned = (dashboardId: string, userEmail: string) =>
  `Dashboard ${dashboardId} is not assigned to ${userEmail}. Dashboards are assigned in the admin portal.`;

const readableView = async (caller: Caller, id: string): Promise<ViewItem> => {
  const view = await getView(id);
  if (view === undefined) throw new NotFoundError('View not found');
  if (view.userEmail !== caller.email && !caller.isAdmin) throw new ForbiddenError(NOT_YOUR_VIEW);
  return view;
};

/**
 * Whether a view is the admin's: written by an assignment (its claim names the view) or made
 * by someone other than its owner (an admin naming the user, or a view older than createdBy).
 */
const isAdminMade = async (view: ViewItem): Promise<boolean> =>
  view.createdBy !== view.userEmail || (await claimedViewId(view.userEmail, view.quicksightDashboardId)) === view.id;

/**
 * The assignment among a user's views of one dashboard: the view the admin's assignment wrote, else one an admin
 * made, else any.
 */
const assignmentAmong = async (
  userEmail: string,
  dashboardId: string,
  views: readonly ViewItem[],
): Promise<ViewItem | undefined> => {
  const claimed = await claimedViewId(userEmail, dashboardId);
  return views.find((view) => view.id === claimed) ?? views.find((view) => view.createdBy !== userEmail) ?? views[0];
};

/** The link a Users caller's own view carries: its assignment's; another one asked for is refused. */
const assignmentLink = (asked: string | undefined, assigned: string | undefined): string | undefined => {
  if (asked !== undefined && asked !== assigned) throw new ForbiddenError(LINK_FROM_ASSIGNMENT);
  return assigned;
};

const differs = <T>(asked: T | undefined, current: T): boolean => asked !== undefined && asked !== current;

const checkCondition = async (view: ViewItem | undefined, condition: ModelFilter | null | undefined) => {
  if (condition === null || condition === undefined) return;
  const current = view === undefined ? {} : toTableauView(view, ...(await ownerContext(view.userEmail)));
  if (!matchesFilter(current as Record<string, unknown>, lowercaseEmailOperands(condition)))
    throw new ConflictError(CONDITION_FAILED);
};

const userViewsKey = z.object({ id: z.string(), userEmail: z.string(), quicksightDashboardId: z.string() }).strict();

export const listTableauViews = async (caller: Caller, args: unknown) => {
  const { filter, limit, nextToken } = parseWith(listArgs, args);
  const normalized = lowercaseEmailOperands(filter);
  const requested = (normalized?.userEmail as { eq?: unknown } | undefined)?.eq;
  // Always a Query on the caller's own partition; admins may name another user's.
  const owner = caller.isAdmin && typeof requested === 'string' ? requested : caller.email;
  const startKey = decodePageToken(nextToken, userViewsKey);
  if (startKey !== undefined && startKey.userEmail !== owner) throw invalidPageToken();
  const [page, [defaultViewId, companyName]] = await Promise.all([
    pageViewsOfUser(owner, limit ?? DEFAULT_PAGE_SIZE, startKey),
    ownerContext(owner),
  ]);
  const items = page.items
    .map((view) => toTableauView(view, defaultViewId, companyName))
    .filter((view) => matchesFilter({ ...view }, normalized));
  return { items, nextToken: encodePageToken(page.lastKey) };
};

export const getTableauView = async (caller: Caller, args: unknown): Promise<TableauView | null> => {
  const { id } = parseWith(idArgs, args);
  const view = await getView(id);
  if (view === undefined) return null;
  if (view.userEmail !== caller.email && !caller.isAdmin) throw new ForbiddenError(NOT_YOUR_VIEW);
  return toTableauView(view, ...(await ownerContext(view.userEmail)));
};

export const createTableauView = async (caller: Caller, args: unknown): Promise<TableauView> => {
  const { input, condition } = parseWith(createViewArgs, args);
  const owner = caller.isAdmin && input.userEmail !== undefined ? input.userEmail.toLowerCase() : caller.email;
  await checkCondition(undefined, condition);
  return withLease(assignmentLease(owner, input.quicksightDashboardId), async () => {
    const views = await viewsOfUserForDashboard(owner, input.quicksightDashboardId);
    const assignment = await assignmentAmong(owner, input.quicksightDashboardId, views);
    if (assignment === undefined) throw new ForbiddenError(notAssigned(input.quicksightDashboardId, owner));
    const companyName = await companyLabelOfUser(owner);
    if (input.companyName !== undefined && (input.companyName || null) !== companyName)
      throw new ForbiddenError(COMPANY_FROM_MODEL);
    const now = nowIso();
    const view: ViewItem = {
      id: newViewId(),
      userEmail: owner,
      quicksightDashboardId: input.quicksightDashboardId,
      name: input.name,
      link: caller.isAdmin ? input.link : assignmentLink(input.link, assignment.link),
      createdAt: now,
      updatedAt: now,
      createdBy: caller.email,
    };
    await putNewView(view);
    if (input.isDefault === true) await setDefaultView(owner, view.id);
    return toTableauView(view, await getDefaultViewId(owner), companyName);
  });
};

/** Runs `work` under the leases of both assignments, taken in a fixed order. */
const withAssignmentLeases = async <T>(
  userEmail: string,
  dashboardIds: string[],
  work: () => Promise<T>,
): Promise<T> => {
  const [first, ...rest] = [...new Set(dashboardIds)].sort();
  if (first === undefined) return work();
  return withLease(assignmentLease(userEmail, first), () => withAssignmentLeases(userEmail, rest, work));
};

export const updateTableauView = async (caller: Caller, args: unknown): Promise<TableauView> => {
  const { input, condition } = parseWith(updateViewArgs, args);
  const current = await readableView(caller, input.id);
  await checkCondition(current, condition);
  // The owner's companies, read once: for the check here and for the answer.
  const companyName = await companyLabelOfUser(current.userEmail);
  if (input.companyName !== undefined && (input.companyName || null) !== companyName)
    throw new ForbiddenError(COMPANY_FROM_MODEL);
  const targetDashboard = input.quicksightDashboardId ?? current.quicksightDashboardId;
  return withAssignmentLeases(current.userEmail, [current.quicksightDashboardId, targetDashboard], async () => {
    let link = input.link ?? current.link;
    if (!caller.isAdmin) {
      if (await isAdminMade(current)) {
        if (
          differs(input.quicksightDashboardId, current.quicksightDashboardId) ||
          differs(input.name, current.name) ||
          differs(input.link, current.link)
        ) {
          throw new ForbiddenError(ASSIGNMENT_IS_ADMINS);
        }
      } else {
        const others = (await viewsOfUserForDashboard(current.userEmail, targetDashboard)).filter(
          (view) => view.id !== current.id,
        );
        const assignment = await assignmentAmong(current.userEmail, targetDashboard, others);
        link = assignmentLink(input.link, assignment === undefined ? current.link : assignment.link);
      }
    }
    if (targetDashboard !== current.quicksightDashboardId) {
      if (!(await hasViewOfDashboard(current.userEmail, targetDashboard))) {
        throw new ForbiddenError(notAssigned(targetDashboard, current.userEmail));
      }
      if ((await viewsOfUserForDashboard(current.userEmail, current.quicksightDashboardId)).length <= 1) {
        throw new ConflictError(LAST_VIEW);
      }
    }
    const next: ViewItem = {
      ...current,
      quicksightDashboardId: targetDashboard,
      name: input.name ?? current.name,
      link,
      updatedAt: nowIso(),
    };
    if (!(await replaceView(next, current.updatedAt))) throw new ConflictError(CHANGED_CONCURRENTLY);
    if (input.isDefault === true) await setDefaultView(next.userEmail, next.id);
    if (input.isDefault === false) await clearDefaultIfPointsTo(next.userEmail, next.id);
    return toTableauView(next, await getDefaultViewId(next.userEmail), companyName);
  });
};

export const deleteTableauView = async (caller: Caller, args: unknown): Promise<TableauView> => {
  const { input, condition } = parseWith(deleteArgs, args);
  const current = await readableView(caller, input.id);
  await checkCondition(current, condition);
  return withLease(assignmentLease(current.userEmail, current.quicksightDashboardId), async () => {
    const siblings = await viewsOfUserForDashboard(current.userEmail, current.quicksightDashboardId);
    if (!siblings.some((view) => view.id !== current.id)) throw new ConflictError(LAST_VIEW);
    const [defaultViewId, companyName] = await ownerContext(current.userEmail);
    if (!(await deleteView(current.id, current.updatedAt))) throw new ConflictError(CHANGED_CONCURRENTLY);
    await clearDefaultIfPointsTo(current.userEmail, current.id);
    return toTableauView(current, defaultViewId, companyName);
  });
};
