import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserDashboard } from '#contracts/quicksight-admin.ts';
import DashboardsPage from '#web/features/admin/routes/dashboards-page.tsx';
import {
  ADMIN_EMAIL,
  apiError,
  type AdminApiOverrides,
  catalogueEntry,
  chooseRowAction,
  cognitoUser,
  fakeAdminApi,
  registered,
  renderAdmin,
  rowActionItem,
  stubViewport,
} from './support.tsx';

const sales = catalogueEntry('sales-performance', 'Sales Performance', {
  assignedUserEmails: ['jane.doe@example.com', 'sam@example.com'],
});
const scorecard = catalogueEntry('distributor-scorecard', 'Distributor Scorecard', { assignedUserEmails: [] });

const directory = [
  registered(ADMIN_EMAIL, 'ADMIN', 'Admins'),
  registered('author@example.com', 'AUTHOR'),
  registered('jane.doe@example.com'),
  cognitoUser('new.hire@example.com'),
];

const janeDashboards: UserDashboard[] = [
  {
    id: 'view-1',
    name: 'Sales Performance',
    link: 'https://dashboards.example.com/sales',
    isDefault: true,
    companyName: 'Acme',
    quicksightDashboardId: 'sales-performance',
  },
  {
    id: 'view-2',
    name: 'Distributor Scorecard',
    link: 'https://dashboards.example.com/score',
    isDefault: false,
    companyName: null,
    quicksightDashboardId: 'distributor-scorecard',
  },
];

function renderScreen(overrides: AdminApiOverrides['quicksight'] = {}, path = '/admin/dashboard') {
  const api = fakeAdminApi({
    quicksight: {
      listUsers: vi.fn(async () => directory),
      listCatalogue: vi.fn(async () => [sales, scorecard]),
      ...overrides,
    },
  });
  renderAdmin(<DashboardsPage />, { api, path });
  return { api, user: userEvent.setup() };
}

const rowOf = async (email: string) => (await screen.findByText(email)).closest('tr')!;

beforeEach(() => stubViewport());

describe('dashboard catalogue', () => {
  it('shows each entry as a card with the count badge', async () => {
    renderScreen();
    expect(screen.getByRole('heading', { level: 1, name: 'Cognito Users' })).toBeInTheDocument();
    const section = await screen.findByRole('region', { name: /^Dashboards/ });
    await within(section).findByText('Sales Performance');
    expect(within(section).getByText('2', { exact: false })).toHaveTextContent('2 dashboards');
    expect(within(section).getByText('sales-performance')).toBeInTheDocument();
    const link = within(section).getByRole('link', { name: 'dashboards.example.com/sales-performance' });
    expect(link).toHaveAttribute('href', sales.dashboardLink);
    expect(link).toHaveAttribute('title', sales.dashboardLink);
    expect(link).toHaveAttribute('target', '_blank');
    // A long address may break after a slash, not inside a word.
    expect(link.querySelectorAll('wbr')).toHaveLength(1);
    expect(within(section).getByText('Sales Performance for distributors')).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Add Dashboard' })).toBeInTheDocument();
    expect(
      within(section).getByRole('button', { name: 'Actions for dashboard Sales Performance' }),
    ).toBeInTheDocument();
  });

  it('shows the scope of each entry with its reason, Shared data once confirmed, and the companies that use it', async () => {
    const scoped = catalogueEntry('sales-performance', 'Sales Performance', {
      scope: 'company-scoped',
      scopeDetail: 'Every dataset applies the portal rules',
      companies: ['Globex Distribution', 'Acme Manufacturing'],
    });
    const shared = catalogueEntry('market-index', 'Market Index', {
      scope: 'not-scoped',
      scopeDetail: 'Dataset market-prices does not apply the portal rules',
      sharedData: true,
    });
    const unknown = catalogueEntry('distributor-scorecard', 'Distributor Scorecard', {
      scope: 'unknown',
      scopeDetail: 'QuickSight did not describe the dataset',
    });
    renderScreen({ listCatalogue: vi.fn(async () => [scoped, shared, unknown]) });
    const section = await screen.findByRole('region', { name: /^Dashboards/ });
    const cardOf = async (name: string) => (await within(section).findByRole('heading', { name })).closest('li')!;

    const scopedCard = await cardOf('Sales Performance');
    expect(within(scopedCard).getByText('Company-scoped')).toHaveAttribute(
      'title',
      'Every dataset applies the portal rules',
    );
    expect(within(scopedCard).getByText('Every dataset applies the portal rules')).toBeInTheDocument();
    expect(within(scopedCard).queryByText('Shared data')).not.toBeInTheDocument();
    expect(within(scopedCard).getByText('Acme Manufacturing, Globex Distribution')).toBeInTheDocument();

    const sharedCard = await cardOf('Market Index');
    expect(within(sharedCard).getByText('Not scoped')).toHaveAttribute(
      'title',
      'Dataset market-prices does not apply the portal rules',
    );
    expect(within(sharedCard).getByText('Shared data')).toBeInTheDocument();

    const unknownCard = await cardOf('Distributor Scorecard');
    expect(within(unknownCard).getByText('Scope unknown')).toHaveAttribute(
      'title',
      'QuickSight did not describe the dataset',
    );
  });

  it("offers 'Add First Dashboard' when the catalogue is empty", async () => {
    renderScreen({ listCatalogue: vi.fn(async () => []) });
    expect(await screen.findByText('No dashboards')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add First Dashboard' })).toBeInTheDocument();
  });

  it("alerts 'Dashboard updated successfully!' with the users it reached", async () => {
    const updateDashboard = vi.fn(async () => ({
      message: 'Dashboard updated successfully',
      dashboard: sales,
      updatedUserAssignments: 2,
    }));
    const { user } = renderScreen({ updateDashboard });
    await chooseRowAction(user, 'dashboard Sales Performance', 'Edit');
    await user.clear(screen.getByLabelText('Dashboard Name'));
    await user.type(screen.getByLabelText('Dashboard Name'), 'Sales KPIs');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Dashboard updated successfully! Updated for 2 user(s).')).toBeInTheDocument();
    expect(updateDashboard).toHaveBeenCalledWith(
      'rec-sales-performance',
      expect.objectContaining({ dashboardName: 'Sales KPIs' }),
    );
  });

  it('names the users a deletion affects before deleting', async () => {
    const deleteDashboard = vi.fn(async () => ({ message: 'Dashboard deleted successfully' }));
    const { user, api } = renderScreen({ deleteDashboard });
    await chooseRowAction(user, 'dashboard Sales Performance', 'Delete');
    const dialog = screen.getByRole('alertdialog', { name: 'Delete Dashboard' });
    expect(dialog).toHaveTextContent('It is also removed from every user who has it.');
    expect(within(dialog).getByText('These 2 user(s) will lose access to it:')).toBeInTheDocument();
    expect(within(dialog).getByText('jane.doe@example.com')).toBeInTheDocument();
    expect(within(dialog).getByText('sam@example.com')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(deleteDashboard).toHaveBeenCalledWith('rec-sales-performance'));
    await waitFor(() => expect(api.quicksight.listCatalogue).toHaveBeenCalledTimes(2));
  });

  it('keeps the confirmation open with the reason when the deletion fails', async () => {
    const { user } = renderScreen({
      deleteDashboard: vi.fn(async () => Promise.reject(apiError(502, 'QuickSight failed'))),
    });
    await chooseRowAction(user, 'dashboard Distributor Scorecard', 'Delete');
    expect(screen.getByText('No user has this dashboard assigned.')).toBeInTheDocument();
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    const alert = await within(screen.getByRole('alertdialog')).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to delete dashboard');
    expect(alert).toHaveTextContent('QuickSight failed');
  });

  it('reports a catalogue that cannot be loaded', async () => {
    renderScreen({ listCatalogue: vi.fn(async () => Promise.reject(apiError(500, 'Internal server error'))) });
    expect(await screen.findByText('Failed to load dashboards')).toBeInTheDocument();
  });
});

describe('Cognito users table', () => {
  it('shows the counts, the status and role of each user, and highlights admins', async () => {
    const { user } = renderScreen({}, '/admin/quicksight');
    const table = await screen.findByRole('table', { name: 'Cognito Users' });
    await within(table).findByText('jane.doe@example.com');
    expect(screen.getByText('4 users')).toBeInTheDocument();
    expect(screen.getByText('1 admin')).toBeInTheDocument();
    const admin = await rowOf(ADMIN_EMAIL);
    expect(admin).toHaveClass('is-admin');
    expect(within(admin).getByText('Admin')).toBeInTheDocument();
    expect(within(await rowOf('author@example.com')).getByText('Author')).toBeInTheDocument();
    expect(within(await rowOf('jane.doe@example.com')).getByText('READER')).toBeInTheDocument();
    const hire = await rowOf('new.hire@example.com');
    expect(hire).not.toHaveClass('is-admin');
    expect(within(hire).getByText('Not Registered')).toBeInTheDocument();
    expect(within(hire).getByText('N/A')).toBeInTheDocument();
    const menuItems = async (email: string) => {
      await user.click(screen.getByRole('button', { name: `Actions for ${email}` }));
      const names = screen.getAllByRole('menuitem').map((item) => item.querySelector('.menu-item-label')?.textContent);
      await user.keyboard('{Escape}');
      return names;
    };
    expect(await menuItems('new.hire@example.com')).toEqual(['Register User']);
    const jane = await rowOf('jane.doe@example.com');
    expect(within(jane).getByText('Registered')).toBeInTheDocument();
    expect(await menuItems('jane.doe@example.com')).toEqual(['Dashboards', 'Invite', 'Delete from QuickSight']);
    expect(await rowActionItem(user, ADMIN_EMAIL, 'Delete from QuickSight')).toHaveAccessibleDescription(
      'Cannot delete your own account',
    );
  });

  it('shows no counts until the directory has loaded', async () => {
    let answer: (users: typeof directory) => void = () => undefined;
    renderScreen({ listUsers: vi.fn(() => new Promise<typeof directory>((resolve) => (answer = resolve))) });
    expect(await screen.findByText('Loading users...')).toBeInTheDocument();
    const card = screen.getByRole('region', { name: 'Cognito Users' });
    expect(card).not.toHaveTextContent(/\d+ (users?|admins?)\b/);
    answer(directory);
    expect(await within(card).findByText('4 users')).toBeInTheDocument();
    expect(within(card).getByText('1 admin')).toBeInTheDocument();
    expect(within(card).getByText('4 of 4 users')).toBeInTheDocument();
  });

  it('searches username or email without case, with both empty states', async () => {
    const { user } = renderScreen();
    await rowOf('jane.doe@example.com');
    await user.type(screen.getByPlaceholderText('Search users...'), 'AUTHOR');
    await waitFor(() => expect(screen.queryByText('jane.doe@example.com')).not.toBeInTheDocument());
    expect(screen.getByText('author@example.com')).toBeInTheDocument();
    await user.type(screen.getByPlaceholderText('Search users...'), '-nobody');
    expect(await screen.findByText('No users found matching your search')).toBeInTheDocument();
  });

  it("says 'No users found' for an empty directory", async () => {
    renderScreen({ listUsers: vi.fn(async () => []) });
    expect(await screen.findByText('No users found')).toBeInTheDocument();
  });

  it('reports a directory that cannot be loaded', async () => {
    renderScreen({ listUsers: vi.fn(async () => Promise.reject(apiError(500, 'Internal server error'))) });
    expect(await screen.findByText('Failed to load Cognito users. Please try again.')).toBeInTheDocument();
  });

  it('registers a user as a reader', async () => {
    const registerUser = vi.fn(async () => ({
      message: 'User registered in QuickSight successfully',
      user: { role: 'READER', userName: 'new.hire@example.com', arn: 'arn' },
    }));
    const { user } = renderScreen({ registerUser });
    await rowOf('new.hire@example.com');
    await chooseRowAction(user, 'new.hire@example.com', 'Register User');
    await waitFor(() =>
      expect(
        within(screen.getByText('new.hire@example.com').closest('tr')!).getByText('Registered'),
      ).toBeInTheDocument(),
    );
    expect(registerUser).toHaveBeenCalledWith('new.hire@example.com');
  });

  it('shows the reason, suggestion, email and missing variables of a failed registration', async () => {
    const registerUser = vi.fn(async () =>
      Promise.reject(
        apiError(500, 'The function is not fully configured', {
          reason: 'Missing environment variables: QUICKSIGHT_ACCOUNT_ID',
          suggestion: 'Set the missing variables.',
          userEmail: 'new.hire@example.com',
          missing: ['QUICKSIGHT_ACCOUNT_ID'],
        }),
      ),
    );
    const { user } = renderScreen({ registerUser });
    await rowOf('new.hire@example.com');
    await chooseRowAction(user, 'new.hire@example.com', 'Register User');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to register user');
    expect(within(alert).getByText('Reason: Missing environment variables: QUICKSIGHT_ACCOUNT_ID')).toBeInTheDocument();
    expect(within(alert).getByText('Suggestion: Set the missing variables.')).toBeInTheDocument();
    expect(within(alert).getByText('User Email: new.hire@example.com')).toBeInTheDocument();
    expect(within(alert).getByText('Missing Environment Variables: QUICKSIGHT_ACCOUNT_ID')).toBeInTheDocument();
  });

  it('removes a registered user from QuickSight after a confirmation', async () => {
    const deleteUser = vi.fn(async () => ({ message: 'User deleted from QuickSight successfully' }));
    const { user } = renderScreen({ deleteUser });
    await rowOf('jane.doe@example.com');
    await chooseRowAction(user, 'jane.doe@example.com', 'Delete from QuickSight');
    await user.click(
      within(screen.getByRole('alertdialog', { name: 'Delete QuickSight User' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    await waitFor(() => expect(deleteUser).toHaveBeenCalledWith('jane.doe@example.com'));
    await waitFor(() =>
      expect(
        within(screen.getByText('jane.doe@example.com').closest('tr')!).getByText('Not Registered'),
      ).toBeInTheDocument(),
    );
  });
});

describe("a user's Dashboards panel", () => {
  it('lists the assignments with the Default badge, company and View in a new tab', async () => {
    const { user } = renderScreen({ userDashboards: vi.fn(async () => janeDashboards) });
    await rowOf('jane.doe@example.com');
    await chooseRowAction(user, 'jane.doe@example.com', 'Dashboards');
    const panel = screen.getByRole('dialog', { name: 'Dashboards for jane.doe@example.com' });
    const items = await within(panel).findAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Default');
    expect(items[0]).toHaveTextContent('Company: Acme');
    expect(within(items[0]!).queryByRole('button', { name: /Set Default/ })).not.toBeInTheDocument();
    expect(within(items[1]!).getByRole('button', { name: 'Set Default (Distributor Scorecard)' })).toBeInTheDocument();
    const view = within(items[1]!).getByRole('link', { name: /View Distributor Scorecard/ });
    expect(view).toHaveAttribute('href', 'https://dashboards.example.com/score');
    expect(view).toHaveAttribute('target', '_blank');
    await user.click(within(panel).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('sets the default after a confirmation', async () => {
    const setDefaultDashboard = vi.fn(async () => ({ message: 'ok' }));
    const userDashboards = vi.fn(async () => janeDashboards);
    const { user } = renderScreen({ userDashboards, setDefaultDashboard });
    await rowOf('jane.doe@example.com');
    await chooseRowAction(user, 'jane.doe@example.com', 'Dashboards');
    await user.click(await screen.findByRole('button', { name: 'Set Default (Distributor Scorecard)' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Set Default Dashboard' });
    await user.click(within(confirm).getByRole('button', { name: 'Set Default' }));
    await waitFor(() =>
      expect(setDefaultDashboard).toHaveBeenCalledWith('jane.doe@example.com', 'distributor-scorecard', 'view-2'),
    );
    await waitFor(() => expect(userDashboards).toHaveBeenCalledTimes(2));
    expect(screen.getByRole('dialog', { name: 'Dashboards for jane.doe@example.com' })).toBeInTheDocument();
  });

  it('reports a removal that failed', async () => {
    const removeFromDashboard = vi.fn(async () =>
      Promise.reject(apiError(404, 'This dashboard is not assigned to the user')),
    );
    const { user } = renderScreen({ userDashboards: vi.fn(async () => janeDashboards), removeFromDashboard });
    await rowOf('jane.doe@example.com');
    await chooseRowAction(user, 'jane.doe@example.com', 'Dashboards');
    await user.click(await screen.findByRole('button', { name: 'Remove Sales Performance' }));
    await user.click(
      within(screen.getByRole('alertdialog', { name: 'Remove Dashboard' })).getByRole('button', { name: 'Remove' }),
    );
    const panel = screen.getByRole('dialog', { name: 'Dashboards for jane.doe@example.com' });
    const alert = await within(panel).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to remove user from dashboard');
    expect(alert).toHaveTextContent('This dashboard is not assigned to the user');
  });

  it('reports dashboards that cannot be loaded', async () => {
    const { user } = renderScreen({ userDashboards: vi.fn(async () => Promise.reject(apiError(502, 'Bad gateway'))) });
    await rowOf('jane.doe@example.com');
    await chooseRowAction(user, 'jane.doe@example.com', 'Dashboards');
    expect(await screen.findByText('Failed to load dashboards for user')).toBeInTheDocument();
  });
});
