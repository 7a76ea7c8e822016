import { z } from 'zod';
import type { GraphqlClient } from '#web/lib/graphql.ts';

const LIST_TABLEAU_VIEWS = /* GraphQL */ `
  query ListTableauViews($filter: ModelTableauViewFilterInput, $limit: Int, $nextToken: String) {
    listTableauViews(filter: $filter, limit: $limit, nextToken: $nextToken) {
      items {
        id
        name
        createdBy
        userEmail
        quicksightDashboardId
        isDefault
        createdAt
        updatedAt
      }
      nextToken
    }
  }
`;

const viewSchema = z.object({
  id: z.string(),
  name: z.string().nullish(),
  createdBy: z.string().nullish(),
  userEmail: z.string().nullish(),
  quicksightDashboardId: z.string().nullish(),
  isDefault: z.boolean().nullish(),
  createdAt: z.string().nullish(),
  updatedAt: z.string().nullish(),
});

const listViewsSchema = z.object({
  listTableauViews: z.object({ items: z.array(viewSchema.nullable()), nextToken: z.string().nullish() }),
});

export interface DashboardView {
  readonly id: string;
  readonly name: string;
  readonly quicksightDashboardId: string | null;
  readonly isDefault: boolean;
}

/**
 * The signed-in user's saved views (first page only, as the spec says), the default first.
 * Views with a blank name are dropped. Throws when the list cannot be read.
 */
export async function fetchDashboardViews(client: GraphqlClient, loginId: string): Promise<DashboardView[]> {
  const data = await client.query(
    LIST_TABLEAU_VIEWS,
    { filter: { userEmail: { eq: loginId.toLowerCase() } } },
    listViewsSchema,
  );
  const views = data.listTableauViews.items.flatMap((item) =>
    item && item.name?.trim()
      ? [
          {
            id: item.id,
            name: item.name.trim(),
            quicksightDashboardId: item.quicksightDashboardId ?? null,
            isDefault: item.isDefault === true,
          },
        ]
      : [],
  );
  return [...views.filter((view) => view.isDefault), ...views.filter((view) => !view.isDefault)];
}

/** The views for the page's first load: a failure is logged and gives an empty list. */
export async function listDashboardViews(client: GraphqlClient, loginId: string): Promise<DashboardView[]> {
  try {
    return await fetchDashboardViews(client, loginId);
  } catch (error) {
    console.error('Error fetching dashboard views:', error instanceof Error ? error.message : error);
    return [];
  }
}

export const SELECTED_VIEW_KEY = 'selectedDashboardId';

/** The stored choice, then the default view, then the first. */
function chooseView(views: readonly DashboardView[], storedId: string | null): DashboardView | undefined {
  return views.find((view) => view.id === storedId) ?? views.find((view) => view.isDefault) ?? views[0];
}

/**
 * What a link names in `/dashboards/<id>`: the QuickSight dashboard of the view, which every
 * user who has it shares (view ids are each user's own), or the view id when it has none.
 */
export const viewLinkId = (view: DashboardView): string => view.quicksightDashboardId ?? view.id;

/** The view a link names, by its link id or its own id. */
const findLinkedView = (views: readonly DashboardView[], linkId: string): DashboardView | undefined =>
  views.find((view) => viewLinkId(view) === linkId) ?? views.find((view) => view.id === linkId);

export interface ViewChoice {
  readonly view: DashboardView | undefined;
  /** The link named a dashboard this user does not have: the default is shown instead. */
  readonly notAssigned: boolean;
}

/** The view a page shows: the linked one, else (for /home) the stored choice, the default, the first. */
export function viewFor(
  views: readonly DashboardView[],
  linkId: string | undefined,
  storedId: string | null,
): ViewChoice {
  if (linkId === undefined) return { view: chooseView(views, storedId), notAssigned: false };
  const linked = findLinkedView(views, linkId);
  return linked
    ? { view: linked, notAssigned: false }
    : { view: chooseView(views, null), notAssigned: views.length > 0 };
}
