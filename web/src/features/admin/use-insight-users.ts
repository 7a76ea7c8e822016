import { useEffect, useState } from 'react';
import { FIRST_INSIGHT_USERS_PAGE_SIZE, INSIGHT_USERS_PAGE_SIZE, type InsightsUser } from '#contracts/insights.ts';
import type { QuicksightAdminApi } from './api/admin-api.ts';

export interface InsightUsersState {
  readonly users: readonly InsightsUser[];
  /** Every page has arrived. */
  readonly complete: boolean;
  readonly error: unknown;
}

/**
 * The Insights users of a company (or all), page after page: the first rows show at once (a
 * smaller first page) and the rest follow. A new company or `generation` starts over; late pages of an earlier
 * request are dropped.
 */
export function useInsightUsers(
  api: QuicksightAdminApi,
  company: string | undefined,
  generation: number,
): InsightUsersState {
  const [state, setState] = useState<InsightUsersState>({ users: [], complete: false, error: null });
  useEffect(() => {
    let current = true;
    setState({ users: [], complete: false, error: null });
    const loadFrom = async (nextToken: string | undefined) => {
      try {
        const limit = nextToken === undefined ? FIRST_INSIGHT_USERS_PAGE_SIZE : INSIGHT_USERS_PAGE_SIZE;
        const page = await api.insightUsers(company, nextToken, limit);
        if (!current) return;
        setState((previous) => ({
          users: [...previous.users, ...page.users],
          complete: page.nextToken === null,
          error: null,
        }));
        if (page.nextToken !== null) await loadFrom(page.nextToken);
      } catch (error) {
        if (current) setState((previous) => ({ ...previous, error }));
      }
    };
    void loadFrom(undefined);
    return () => {
      current = false;
    };
  }, [api, company, generation]);
  return state;
}
