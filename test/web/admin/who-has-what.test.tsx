import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { InviteFields } from '#web/features/admin/api/admin-api.ts';
import DashboardsPage from '#web/features/admin/routes/dashboards-page.tsx';
import {
  ADMIN_EMAIL,
  type AdminApiOverrides,
  catalogueEntry,
  chooseRowAction,
  cognitoUser,
  fakeAdminApi,
  registered,
  renderAdmin,
  stubViewport,
} from './support.tsx';

const sales = catalogueEntry('sales-performance', 'Sales Performance', {
  assignedUserEmails: ['jane.doe@example.com', 'sam@example.com'],
});
const scorecard = catalogueEntry('distributor-scorecard', 'Distributor Scorecard', {
  assignedUserEmails: ['jane.doe@example.com'],
});
const inventory = catalogueEntry('inventory-margins', 'Inventory and Margins', { assignedUserEmails: [] });

const directory = [
  registered(ADMIN_EMAIL, 'ADMIN', 'Admins'),
  registered('Jane.Doe@example.com'),
  registered('sam@example.com'),
  registered('idle@example.com'),
  cognitoUser('new.hire@example.com'),
];

function renderScreen(overrides: AdminApiOverrides['quicksight'] = {}) {
  const api = fakeAdminApi({
    quicksight: {
      listUsers: vi.fn(async () => directory),
      listCatalogue: vi.fn(async () => [sales, scorecard, inventory]),
      ...overrides,
    },
  });
  renderAdmin(<DashboardsPage />, { api, path: '/admin/dashboard' });
  return { api, user: userEvent.setup() };
}

const rowOf = async (email: string) => (await screen.findByText(email)).closest('tr') as HTMLElement;
const countButton = (row: HTMLElement) => within(row).getByRole('button', { name: /dashboards? assigned to/ });

beforeEach(() => stubViewport());

describe('Manage Dashboards: who has what', () => {
  it("shows each user's assigned dashboards as a count beside the spec's columns, from the catalogue already loaded", async () => {
    const { api } = renderScreen();
    const table = await screen.findByRole('table', { name: 'Cognito Users' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['User', 'Cognito Group', 'QuickSight Status', 'QuickSight Role', 'Dashboards', 'Actions']);
    await waitFor(() =>
      expect(
        countButton(within(table).getByText('Jane.Doe@example.com').closest('tr') as HTMLElement),
      ).toHaveTextContent('2 dashboards'),
    );
    expect(countButton(await rowOf('sam@example.com'))).toHaveTextContent('1 dashboard');
    expect(within(await rowOf('idle@example.com')).getByText('None')).toBeInTheDocument();
    expect(within(await rowOf(ADMIN_EMAIL)).getByText('None')).toBeInTheDocument();
    // No request per user: the names come from the catalogue's assigned users.
    expect(api.quicksight.userDashboards).not.toHaveBeenCalled();
    expect(api.quicksight.listCatalogue).toHaveBeenCalledTimes(1);
  });

  it('names the dashboards on demand, and Escape closes the list', async () => {
    const { user } = renderScreen();
    const jane = await rowOf('Jane.Doe@example.com');
    const button = await waitFor(() => countButton(jane));
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(
      screen.queryByRole('region', { name: 'Dashboards assigned to Jane.Doe@example.com' }),
    ).not.toBeInTheDocument();
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const list = screen.getByRole('region', { name: 'Dashboards assigned to Jane.Doe@example.com' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Distributor Scorecard', 'Sales Performance']);
    await user.keyboard('{Escape}');
    expect(
      screen.queryByRole('region', { name: 'Dashboards assigned to Jane.Doe@example.com' }),
    ).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });

  it('counts a new assignment at once, without reloading the catalogue', async () => {
    const invite = vi.fn(async (_fields: InviteFields) => ({ message: 'ok' }));
    const { api, user } = renderScreen({ invite });
    await rowOf('idle@example.com');
    await chooseRowAction(user, 'idle@example.com', 'Invite');
    const dialog = screen.getByRole('dialog', { name: 'Invite to Dashboard' });
    await user.click(within(dialog).getByRole('button', { name: /^Dashboards/ }));
    await user.click(within(dialog).getByLabelText(/Inventory and Margins/));
    await user.keyboard('{Escape}');
    await user.click(within(dialog).getByRole('button', { name: 'Invite' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Invite to Dashboard' })).not.toBeInTheDocument());
    expect(countButton(await rowOf('idle@example.com'))).toHaveTextContent('1 dashboard');
    expect(api.quicksight.listCatalogue).toHaveBeenCalledTimes(1);
  });

  it("drops a dashboard from the user's count after Remove in their Dashboards panel", async () => {
    const removeFromDashboard = vi.fn(async () => ({ message: 'ok' }));
    const userDashboards = vi.fn(async () => [
      {
        id: 'view-1',
        name: 'Sales Performance',
        link: 'https://dashboards.example.com/sales',
        isDefault: false,
        companyName: null,
        quicksightDashboardId: 'sales-performance',
      },
    ]);
    const { user } = renderScreen({ removeFromDashboard, userDashboards });
    await rowOf('sam@example.com');
    await chooseRowAction(user, 'sam@example.com', 'Dashboards');
    await user.click(await screen.findByRole('button', { name: 'Remove Sales Performance' }));
    await user.click(
      within(screen.getByRole('alertdialog', { name: 'Remove Dashboard' })).getByRole('button', { name: 'Remove' }),
    );
    await waitFor(() =>
      expect(removeFromDashboard).toHaveBeenCalledWith('sam@example.com', 'sales-performance', 'view-1'),
    );
    await user.click(
      within(screen.getByRole('dialog', { name: 'Dashboards for sam@example.com' })).getByRole('button', {
        name: 'Close',
      }),
    );
    expect(within(await rowOf('sam@example.com')).getByText('None')).toBeInTheDocument();
  });
});
