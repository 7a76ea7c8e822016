import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { InsightsResponse } from '#contracts/insights.ts';
import ActivityPage from '#web/features/admin/routes/activity-page.tsx';
import CompaniesPage from '#web/features/admin/routes/companies-page.tsx';
import DashboardsPage from '#web/features/admin/routes/dashboards-page.tsx';
import InsightsPage from '#web/features/admin/routes/insights-page.tsx';
import UsersPage from '#web/features/admin/routes/users-page.tsx';
import {
  apiError,
  catalogueEntry,
  cognitoUser,
  company,
  fakeAdminApi,
  listCompaniesOf,
  managedUser,
  registered,
  renderAdmin,
  stubViewport,
} from './support.tsx';

/**
 * Every admin list, empty and failed: an empty list says what to do next; a failed load shows
 * the error with Retry (never an empty table), and Retry loads it.
 */

beforeEach(() => stubViewport());

/** A load that fails once with `error`, then answers `value`. */
function failingOnce<T>(value: T, error = apiError(500, 'Service unavailable')) {
  return vi
    .fn<() => Promise<T>>()
    .mockRejectedValueOnce(error)
    .mockResolvedValue(value as Awaited<T>);
}

async function retryIn(alert: HTMLElement) {
  await userEvent.setup().click(within(alert).getByRole('button', { name: 'Retry' }));
}

describe('Manage Users', () => {
  const render = (listUsers: () => Promise<unknown>) =>
    renderAdmin(<UsersPage />, {
      api: fakeAdminApi({
        quicksight: { listCompanies: listCompaniesOf([]) },
        users: { listUsers: listUsers as never },
      }),
    });

  it('with no account, says how to add one', async () => {
    render(vi.fn(async () => []));
    expect(await screen.findByText('No users found')).toBeInTheDocument();
    expect(
      screen.getByText('Add one with Add New User, or several from a CSV file with Import Users.'),
    ).toBeInTheDocument();
  });

  it('with a search that finds nobody, says what to try', async () => {
    render(vi.fn(async () => [managedUser('jane@example.com')]));
    await screen.findByText('jane@example.com');
    await userEvent.setup().type(screen.getByLabelText('Search users'), 'zzz');
    expect(await screen.findByText('No users found matching your search')).toBeInTheDocument();
    expect(screen.getByText(/Check the spelling/)).toBeInTheDocument();
  });

  it('shows a failed load with its reason and Retry instead of an empty table', async () => {
    const listUsers = failingOnce([managedUser('jane@example.com')]);
    render(listUsers);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load users. Please try again.');
    expect(alert).toHaveTextContent('Service unavailable');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByText('No users found')).not.toBeInTheDocument();
    await retryIn(alert);
    expect(await screen.findByText('jane@example.com')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(listUsers).toHaveBeenCalledTimes(2);
  });
});

describe('Manage Dashboards', () => {
  const render = (listUsers: () => Promise<unknown>, listCatalogue: () => Promise<unknown>) =>
    renderAdmin(<DashboardsPage />, {
      api: fakeAdminApi({ quicksight: { listUsers: listUsers as never, listCatalogue: listCatalogue as never } }),
      path: '/admin/dashboard',
    });

  it('with an empty catalogue and no account, says what to do next for each', async () => {
    render(
      vi.fn(async () => []),
      vi.fn(async () => []),
    );
    expect(await screen.findByText('No dashboards')).toBeInTheDocument();
    expect(screen.getByText(/Add the first one with Add First Dashboard/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add First Dashboard' })).toBeInTheDocument();
    expect(await screen.findByText('No users found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Manage Users' })).toHaveAttribute('href', '/admin/users');
  });

  it('shows a failed catalogue with Retry instead of a spinner or an empty list', async () => {
    const listCatalogue = failingOnce([catalogueEntry('sales', 'Sales Performance')]);
    render(
      vi.fn(async () => [cognitoUser('jane@example.com')]),
      listCatalogue,
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load dashboards');
    expect(screen.queryByText('Loading dashboards...')).not.toBeInTheDocument();
    expect(screen.queryByText('No dashboards')).not.toBeInTheDocument();
    await retryIn(alert);
    expect(await screen.findByRole('heading', { name: 'Sales Performance' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows failed Cognito users with Retry instead of an empty table', async () => {
    const listUsers = failingOnce([cognitoUser('jane@example.com')]);
    render(
      listUsers,
      vi.fn(async () => []),
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load Cognito users. Please try again.');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    await retryIn(alert);
    expect(await screen.findByText('jane@example.com')).toBeInTheDocument();
  });
});

describe("Manage Dashboards: a user's dashboards", () => {
  const open = async (userDashboards: () => Promise<unknown>) => {
    renderAdmin(<DashboardsPage />, {
      api: fakeAdminApi({
        quicksight: {
          listUsers: vi.fn(async () => [registered('jane@example.com')]),
          listCatalogue: vi.fn(async () => []),
          userDashboards: userDashboards as never,
        },
      }),
      path: '/admin/dashboard',
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Actions for jane@example.com' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Dashboards' }));
    return screen.findByRole('dialog', { name: 'Dashboards for jane@example.com' });
  };

  it('with none assigned, says how to give them one', async () => {
    const panel = await open(vi.fn(async () => []));
    expect(await within(panel).findByText('No dashboards assigned to this user.')).toBeInTheDocument();
    expect(within(panel).getByText(/choose Invite in the user's menu/)).toBeInTheDocument();
  });

  it('shows a failed load with Retry', async () => {
    const panel = await open(failingOnce([]));
    const alert = await within(panel).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load dashboards for user');
    await retryIn(alert);
    expect(await within(panel).findByText('No dashboards assigned to this user.')).toBeInTheDocument();
  });
});

describe('Companies', () => {
  const render = (listCompanies: () => Promise<unknown>) =>
    renderAdmin(<CompaniesPage />, {
      api: fakeAdminApi({
        quicksight: { listCompanies: listCompanies as never, listCatalogue: vi.fn(async () => []) },
      }),
      path: '/admin/companies',
    });

  it('with no company, says how to add one and give it to users', async () => {
    render(listCompaniesOf([]));
    expect(await screen.findByText('No companies yet')).toBeInTheDocument();
    expect(screen.getByText(/Add the first one with Add company/)).toBeInTheDocument();
  });

  it('shows a failed load with Retry instead of an empty table', async () => {
    const listCompanies = failingOnce({ companies: [company('Acme Tools')], lastCheck: null });
    render(listCompanies);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load companies');
    expect(screen.queryByRole('table', { name: /companies/i })).not.toBeInTheDocument();
    expect(screen.queryByText('No companies yet')).not.toBeInTheDocument();
    await retryIn(alert);
    expect(await screen.findByText('Acme Tools')).toBeInTheDocument();
  });
});

describe('Activity', () => {
  it('with nothing recorded, says what will appear', async () => {
    renderAdmin(<ActivityPage />, {
      api: fakeAdminApi({ users: { auditLog: vi.fn(async () => ({ entries: [], nextToken: null })) } }),
      path: '/admin/activity',
    });
    expect(await screen.findByText('No activity recorded yet')).toBeInTheDocument();
    expect(screen.getByText(/is listed here as it happens/)).toBeInTheDocument();
  });

  it('shows a failed load with Retry instead of an empty table', async () => {
    const auditLog = failingOnce({
      entries: [
        {
          id: 'a1',
          at: '2026-03-14T10:00:00.000Z',
          actor: 'demo.admin@example.com',
          action: 'CREATE_USER',
          target: 'jane@example.com',
          outcome: 'success' as const,
          detail: null,
        },
      ],
      nextToken: null,
    });
    renderAdmin(<ActivityPage />, { api: fakeAdminApi({ users: { auditLog } }), path: '/admin/activity' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load the activity log');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    await retryIn(alert);
    expect(await screen.findByText('jane@example.com')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('Insights', () => {
  const empty: InsightsResponse = {
    from: '2026-03-01',
    to: '2026-03-12',
    company: null,
    retentionDays: 400,
    totalViews: 0,
    weeks: [],
    dashboards: [],
  };

  it('with no dashboard and no user, says what to do next in each table', async () => {
    renderAdmin(<InsightsPage />, {
      api: fakeAdminApi({
        quicksight: {
          insights: vi.fn(async () => empty),
          insightUsers: vi.fn(async () => ({ users: [], nextToken: null })),
          listCompanies: listCompaniesOf([]),
        },
      }),
      path: '/admin/insights',
    });
    const perDashboard = await screen.findByRole('region', { name: 'Views per dashboard' });
    expect(within(perDashboard).getByText('No dashboards in the catalogue')).toBeInTheDocument();
    expect(within(perDashboard).getByText(/Add dashboards on Manage Dashboards/)).toBeInTheDocument();
    // Nothing in the catalogue is not "every dashboard was viewed".
    const notViewed = screen.getByRole('region', { name: 'Dashboards not viewed in this range' });
    expect(within(notViewed).queryByText(/was viewed in this range/)).not.toBeInTheDocument();
    expect(await screen.findByText('No users have dashboards assigned or recorded views')).toBeInTheDocument();
    expect(screen.getByText(/Assign dashboards to users on Manage Dashboards/)).toBeInTheDocument();
  });

  it('retries figures that could not be loaded', async () => {
    const insights = failingOnce(empty);
    renderAdmin(<InsightsPage />, {
      api: fakeAdminApi({
        quicksight: {
          insights,
          insightUsers: vi.fn(async () => ({ users: [], nextToken: null })),
          listCompanies: listCompaniesOf([]),
        },
      }),
      path: '/admin/insights',
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load insights');
    await retryIn(alert);
    await waitFor(() => expect(screen.getByText('Dashboard views in range')).toBeInTheDocument());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
