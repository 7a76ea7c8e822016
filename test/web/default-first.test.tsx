import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { UserDashboard } from '#contracts/quicksight-admin.ts';
import { fetchDashboardViews } from '#web/features/dashboard/api/views.ts';
import DashboardsPage from '#web/features/admin/routes/dashboards-page.tsx';
import type { GraphqlClient } from '#web/lib/graphql.ts';
import { cognitoUser, fakeAdminApi, registered, renderAdmin, stubViewport } from './admin/support.tsx';

/** Lists of a user's dashboards put the default first: the user's picker and the admin's view of them. */
describe('the default dashboard comes first', () => {
  it("in the user's picker, whatever order the views arrive in", async () => {
    const items = [
      { id: 'v1', name: 'Market Benchmarks', quicksightDashboardId: 'market', isDefault: false },
      { id: 'v2', name: 'Sales Performance', quicksightDashboardId: 'sales', isDefault: true },
      { id: 'v3', name: 'Distributor Scorecard', quicksightDashboardId: 'score', isDefault: false },
    ];
    const client = {
      query: vi.fn(async () => ({ listTableauViews: { items, nextToken: null } })),
    } as unknown as GraphqlClient;
    const views = await fetchDashboardViews(client, 'jane@example.com');
    expect(views.map((view) => view.name)).toEqual(['Sales Performance', 'Market Benchmarks', 'Distributor Scorecard']);
  });

  it("in an admin's list of a user's dashboards", async () => {
    stubViewport();
    const assigned: UserDashboard[] = [
      {
        id: 'v1',
        name: 'Market Benchmarks',
        link: 'https://dashboards.example.com/m',
        isDefault: false,
        companyName: null,
        quicksightDashboardId: 'market',
      },
      {
        id: 'v2',
        name: 'Sales Performance',
        link: 'https://dashboards.example.com/s',
        isDefault: true,
        companyName: 'Acme',
        quicksightDashboardId: 'sales',
      },
    ];
    const api = fakeAdminApi({
      quicksight: {
        listUsers: vi.fn(async () => [registered('jane.doe@example.com'), cognitoUser('new.hire@example.com')]),
        listCatalogue: vi.fn(async () => []),
        userDashboards: vi.fn(async () => assigned),
      },
    });
    renderAdmin(<DashboardsPage />, { api, path: '/admin/dashboard' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Actions for jane.doe@example.com' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Dashboards' }));
    const panel = await screen.findByRole('dialog', { name: 'Dashboards for jane.doe@example.com' });
    const items = await within(panel).findAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Sales Performance');
    expect(items[0]).toHaveTextContent('Default');
    expect(items[1]).toHaveTextContent('Market Benchmarks');
  });
});
