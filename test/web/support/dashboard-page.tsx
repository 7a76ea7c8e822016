import { screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { RuntimeConfig } from '#contracts/config.ts';
import HomePage from '#web/features/dashboard/routes/home-page.tsx';
import { testConfig } from './config.ts';
import { fakeAuth, jsonResponse, renderPage, userSession } from './render.tsx';

export interface ViewItem {
  id: string;
  name: string | null;
  quicksightDashboardId: string | null;
  isDefault: boolean | null;
}

export const VIEWS: ViewItem[] = [
  { id: 'v-sales', name: 'Sales Performance', quicksightDashboardId: 'sales', isDefault: false },
  { id: 'v-blank', name: '   ', quicksightDashboardId: 'blank', isDefault: false },
  { id: 'v-inventory', name: 'Inventory & Margins', quicksightDashboardId: 'inventory', isDefault: true },
  { id: 'v-scorecard', name: 'Distributor Scorecard', quicksightDashboardId: 'scorecard', isDefault: false },
];

export type EmbedAnswer = (dashboardId: string) => Response;

/** Stubs the GraphQL API and the embed function; records what was asked. */
export function stubBackend(views: ViewItem[] | 'error', embed: EmbedAnswer) {
  const calls: { graphql: unknown[]; embed: string[]; sources: string[] } = { graphql: [], embed: [], sources: [] };
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const headers = new Headers(init?.headers);
    if (url === testConfig.graphqlUrl) {
      calls.graphql.push({ body: JSON.parse(String(init?.body)), authorization: headers.get('authorization') });
      if (views === 'error') return jsonResponse({ errors: [{ message: 'Unauthorized' }] }, { status: 401 });
      return jsonResponse({ data: { listTableauViews: { items: views, nextToken: null } } });
    }
    if (url === testConfig.functions.embed) {
      const dashboardId = headers.get('x-dashboard-id') ?? '';
      calls.embed.push(dashboardId);
      calls.sources.push(headers.get('x-embed-source') ?? '');
      expect(headers.get('authorization')).toBe('Bearer access-token');
      return embed(dashboardId);
    }
    throw new Error(`unexpected request to ${url}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

export const embedOk =
  (minutes = 60, origin = 'https://embed.example.com'): EmbedAnswer =>
  (dashboardId) =>
    jsonResponse({
      url: `${origin}/embed/${dashboardId}?n=${Math.random()}`,
      sessionExpiresAt: new Date(Date.now() + minutes * 60_000).toISOString(),
    });

/** The page at /home or at a view's own address, mounted at both routes as the app does. */
export const renderHome = (path = '/home', config: RuntimeConfig = testConfig) =>
  renderPage(<HomePage />, {
    auth: fakeAuth({ session: userSession() }),
    path,
    route: ['/home', '/dashboards/:viewId'],
    config,
  });

export const frameSource = () => screen.getByTitle('QuickSight Analytics Dashboard').getAttribute('src');
