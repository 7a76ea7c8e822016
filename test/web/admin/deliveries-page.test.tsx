import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AdminSubscription } from '#contracts/admin-subscriptions.ts';
import { SUBSCRIPTION_MESSAGES } from '#contracts/subscriptions.ts';
import AdminApp from '#web/features/admin/admin-app.tsx';
import { createQuicksightAdminApi } from '#web/features/admin/api/admin-api.ts';
import DeliveriesPage from '#web/features/admin/routes/deliveries-page.tsx';
import type { ApiClient } from '#web/lib/api.ts';
import { apiError, fakeAdminApi, renderAdmin, rowActionItem, type AdminApiOverrides } from './support.tsx';

/**
 * The Deliveries page (/admin/deliveries): who receives what, on which schedule, how the last
 * delivery went; Send now and Cancel subscription per row; empty, failed and filtered lists.
 */

const subscription = (id: string, overrides: Partial<AdminSubscription> = {}): AdminSubscription => ({
  id,
  email: 'ann@example.com',
  dashboardId: 'sales-performance',
  dashboardName: 'Sales Performance',
  format: 'PDF',
  frequency: 'WEEKLY',
  weekday: 'MONDAY',
  dayOfMonth: null,
  time: '08:00',
  timeZone: 'Europe/London',
  company: null,
  status: 'ACTIVE',
  nextDeliveryAt: '2026-03-16T08:00:00.000Z',
  lastDeliveryAt: '2026-03-09T08:02:00.000Z',
  lastOutcome: 'DELIVERED',
  lastError: null,
  createdAt: '2026-03-01T09:00:00.000Z',
  dueAt: '2026-03-16T08:00:00.000Z',
  companies: ['Acme Manufacturing'],
  ...overrides,
});

const FAILURE = 'QuickSight refused the snapshot job: the dashboard is not company-scoped';

const weekly = subscription('s-weekly');
const paused = subscription('s-paused', {
  dashboardId: 'inventory-margins',
  dashboardName: 'Inventory Margins',
  format: 'CSV',
  frequency: 'MONTHLY',
  weekday: null,
  dayOfMonth: 15,
  time: '09:30',
  timeZone: 'America/New_York',
  status: 'PAUSED',
  nextDeliveryAt: null,
  lastDeliveryAt: null,
  lastOutcome: null,
  dueAt: null,
});
const failed = subscription('s-failed', {
  email: 'bob@example.com',
  frequency: 'DAILY',
  weekday: null,
  time: '07:00',
  timeZone: 'UTC',
  company: 'Globex Distribution',
  companies: ['Globex Distribution', 'Harbor Capital'],
  lastOutcome: 'FAILED',
  lastError: FAILURE,
  nextDeliveryAt: '2026-03-10T07:00:00.000Z',
  dueAt: '2026-03-10T07:00:00.000Z',
});
const retrying = subscription('s-retrying', {
  email: 'cara@example.com',
  dashboardId: 'old-dashboard',
  dashboardName: null,
  companies: [],
  lastOutcome: 'RETRYING',
  lastError: 'ThrottlingException: Rate exceeded',
  dueAt: '2026-03-09T08:15:00.000Z',
});
const ALL = [paused, weekly, failed, retrying];

function renderDeliveries(overrides: AdminApiOverrides['quicksight'] = {}, rows: readonly AdminSubscription[] = ALL) {
  const api = fakeAdminApi({ quicksight: { listSubscriptions: vi.fn(async () => [...rows]), ...overrides } });
  renderAdmin(<DeliveriesPage />, { api, path: '/admin/deliveries' });
  return { api, user: userEvent.setup() };
}

/** The row of one recipient's subscription to one dashboard. */
const rowOf = async (email: string, dashboard: string) => {
  await screen.findAllByText(email);
  const row = screen
    .getAllByRole('row')
    .find((candidate) => within(candidate).queryByText(email) && within(candidate).queryByText(dashboard));
  if (!row) throw new Error(`no row for ${email}, ${dashboard}`);
  return row;
};

describe('Deliveries page: the table', () => {
  it('shows who receives what: recipient, dashboard, companies, format, schedule, status, runs', async () => {
    renderDeliveries();
    expect(screen.getByRole('heading', { level: 1, name: 'Deliveries' })).toBeInTheDocument();
    const ann = await rowOf('ann@example.com', 'Sales Performance');
    const table = screen.getByRole('table', { name: 'Subscriptions' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual([
      'Recipient',
      'Dashboard',
      'Companies',
      'Format',
      'Schedule',
      'Status',
      'Last run',
      'Next run',
      'Actions',
    ]);
    expect(within(ann).getByText('sales-performance')).toBeInTheDocument();
    expect(within(ann).getByText('Acme Manufacturing')).toBeInTheDocument();
    expect(within(ann).getByText('PDF')).toBeInTheDocument();
    expect(within(ann).getByText('Weekly on Monday at 08:00 (Europe/London)')).toBeInTheDocument();
    expect(within(ann).getByText('Active')).toBeInTheDocument();
    expect(within(ann).getByText('Delivered')).toBeInTheDocument();
    expect(ann.querySelector('time[datetime="2026-03-09T08:02:00.000Z"]')).not.toBeNull();
    expect(ann.querySelector('time[datetime="2026-03-16T08:00:00.000Z"]')).not.toBeNull();

    const annPaused = await rowOf('ann@example.com', 'Inventory Margins');
    expect(within(annPaused).getByText('CSV')).toBeInTheDocument();
    expect(within(annPaused).getByText('Monthly on the 15th at 09:30 (America/New_York)')).toBeInTheDocument();
    expect(within(annPaused).getByText('Paused')).toBeInTheDocument();
    expect(within(annPaused).getByText('Not sent yet')).toBeInTheDocument();
    expect(within(annPaused).getByText('Not while paused')).toBeInTheDocument();

    const bob = await rowOf('bob@example.com', 'Sales Performance');
    expect(within(bob).getByText('Globex Distribution, Harbor Capital')).toBeInTheDocument();
    expect(within(bob).getByText('File: Globex Distribution only')).toBeInTheDocument();
    expect(within(bob).getByText('Daily at 07:00 (UTC)')).toBeInTheDocument();
    expect(within(bob).getByText('Failed')).toBeInTheDocument();
    expect(within(bob).getByText(FAILURE)).toBeInTheDocument();

    // Gone from the catalogue: named by its ID. A retry shows its reason and when it is tried again.
    const cara = await rowOf('cara@example.com', 'old-dashboard');
    expect(within(cara).getByText('None')).toBeInTheDocument();
    expect(within(cara).getByText('Retrying')).toBeInTheDocument();
    expect(within(cara).getByText('ThrottlingException: Rate exceeded')).toBeInTheDocument();
    expect(cara).toHaveTextContent(/Retry .+/);
    expect(cara.querySelector('time[datetime="2026-03-09T08:15:00.000Z"]')).not.toBeNull();
  });

  it('filters by recipient or by dashboard', async () => {
    const { user } = renderDeliveries();
    await rowOf('bob@example.com', 'Sales Performance');
    const search = screen.getByRole('searchbox', { name: 'Search subscriptions' });
    await user.type(search, 'BOB@');
    await waitFor(() => expect(screen.queryByText('ann@example.com')).not.toBeInTheDocument());
    expect(screen.getByText('bob@example.com')).toBeInTheDocument();
    expect(screen.getByText('1 of 4 subscriptions')).toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'inventory');
    await waitFor(() => expect(screen.queryByText('bob@example.com')).not.toBeInTheDocument());
    expect(screen.getByText('Inventory Margins')).toBeInTheDocument();
    // Only the dashboard's ID has the hyphen: its name reads "Sales Performance".
    await user.clear(search);
    await user.type(search, 'sales-performance');
    await waitFor(() => expect(screen.queryByText('Inventory Margins')).not.toBeInTheDocument());
    expect(screen.getByText('bob@example.com')).toBeInTheDocument();
    expect(screen.queryByText('cara@example.com')).not.toBeInTheDocument();
    expect(screen.getByText('2 of 4 subscriptions')).toBeInTheDocument();
    await user.type(search, 'zzz');
    expect(await screen.findByText('No subscriptions match your search')).toBeInTheDocument();
  });

  it('says what to expect when there is no subscription', async () => {
    renderDeliveries({}, []);
    expect(await screen.findByText('No subscriptions yet')).toBeInTheDocument();
    expect(screen.getByText(/Users subscribe to a dashboard from its page/)).toBeInTheDocument();
  });

  it('shows a failed load with its reason and Retry instead of an empty table', async () => {
    const listSubscriptions = vi
      .fn<() => Promise<AdminSubscription[]>>()
      .mockRejectedValueOnce(apiError(500, 'Service unavailable'))
      .mockResolvedValue([weekly]);
    const { user } = renderDeliveries({ listSubscriptions });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load subscriptions');
    expect(alert).toHaveTextContent('Service unavailable');
    expect(screen.queryByRole('table', { name: 'Subscriptions' })).not.toBeInTheDocument();
    expect(screen.queryByText('No subscriptions yet')).not.toBeInTheDocument();
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('ann@example.com')).toBeInTheDocument();
  });
});

describe('Deliveries page: Send now', () => {
  it('sends the subscription id and shows the answer; the row says it goes within a few minutes', async () => {
    const message = 'Sales Performance will be sent to ann@example.com within a few minutes.';
    const sendSubscriptionNow = vi.fn(async (id: string) => ({
      message,
      subscription: { ...weekly, id, dueAt: '2026-03-10T12:00:00.000Z' },
    }));
    const { user } = renderDeliveries({ sendSubscriptionNow });
    await rowOf('ann@example.com', 'Sales Performance');
    await user.click(await rowActionItem(user, 'ann@example.com, Sales Performance', 'Send now'));
    expect(sendSubscriptionNow).toHaveBeenCalledExactlyOnceWith('s-weekly');
    expect(await screen.findByText(message)).toBeInTheDocument();
    const row = await rowOf('ann@example.com', 'Sales Performance');
    expect(within(row).getByText('Within a few minutes')).toBeInTheDocument();
  });

  it('is not offered for a paused subscription, and says why', async () => {
    const { api, user } = renderDeliveries();
    const item = await rowActionItem(user, 'ann@example.com, Inventory Margins', 'Send now');
    expect(item).toHaveAttribute('aria-disabled', 'true');
    expect(item).toHaveAccessibleDescription('Paused by its recipient');
    await user.click(item);
    expect(api.quicksight.sendSubscriptionNow).not.toHaveBeenCalled();
  });

  it("shows the server's refusal", async () => {
    const sendSubscriptionNow = vi.fn(async () => Promise.reject(apiError(404, SUBSCRIPTION_MESSAGES.notFound)));
    const { user } = renderDeliveries({ sendSubscriptionNow });
    await user.click(await rowActionItem(user, 'bob@example.com, Sales Performance', 'Send now'));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to send the subscription now');
    expect(alert).toHaveTextContent(SUBSCRIPTION_MESSAGES.notFound);
  });
});

describe('Deliveries page: Cancel subscription', () => {
  it('asks, naming the recipient and the dashboard, then cancels by id and removes the row', async () => {
    const message = 'Subscription canceled: bob@example.com no longer receives Sales Performance.';
    const cancelSubscription = vi.fn(async () => ({ message, subscription: failed }));
    const { user } = renderDeliveries({ cancelSubscription });
    await user.click(await rowActionItem(user, 'bob@example.com, Sales Performance', 'Cancel subscription'));
    let dialog = screen.getByRole('alertdialog', { name: 'Cancel subscription' });
    expect(dialog).toHaveTextContent(
      'Cancel the subscription of bob@example.com to Sales Performance? No more files of it are sent to them.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Keep subscription' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(cancelSubscription).not.toHaveBeenCalled();

    await user.click(await rowActionItem(user, 'bob@example.com, Sales Performance', 'Cancel subscription'));
    dialog = screen.getByRole('alertdialog', { name: 'Cancel subscription' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel subscription' }));
    expect(cancelSubscription).toHaveBeenCalledExactlyOnceWith('s-failed');
    expect(await screen.findByText(message)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('bob@example.com')).not.toBeInTheDocument());
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.getAllByText('ann@example.com')).toHaveLength(2);
  });

  it("keeps the dialog open with the server's reason when the cancel is refused", async () => {
    const cancelSubscription = vi.fn(async () => Promise.reject(apiError(404, SUBSCRIPTION_MESSAGES.notFound)));
    const { user } = renderDeliveries({ cancelSubscription });
    await user.click(await rowActionItem(user, 'ann@example.com, Sales Performance', 'Cancel subscription'));
    const dialog = screen.getByRole('alertdialog', { name: 'Cancel subscription' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel subscription' }));
    expect(await within(dialog).findByText('Failed to cancel the subscription')).toBeInTheDocument();
    expect(within(dialog).getByText(SUBSCRIPTION_MESSAGES.notFound)).toBeInTheDocument();
  });
});

describe('Deliveries: requests and navigation', () => {
  it('sends exactly the action and the subscription id to the QuickSight management function', async () => {
    const request = vi.fn(async (_url: string, { body }: { body?: unknown }) => {
      const action = (body as { action: string }).action;
      if (action === 'LIST_SUBSCRIPTIONS') return { subscriptions: [weekly] };
      return { message: 'done', subscription: weekly };
    });
    const api = createQuicksightAdminApi({ request } as unknown as ApiClient, 'https://qs.example.com/');
    expect(await api.listSubscriptions()).toEqual([weekly]);
    await api.sendSubscriptionNow('s-weekly');
    await api.cancelSubscription('s-weekly');
    expect(request.mock.calls.map(([url, { body }]) => [url, body])).toEqual([
      ['https://qs.example.com/', { action: 'LIST_SUBSCRIPTIONS' }],
      ['https://qs.example.com/', { action: 'SEND_SUBSCRIPTION_NOW', subscriptionId: 's-weekly' }],
      ['https://qs.example.com/', { action: 'CANCEL_SUBSCRIPTION', subscriptionId: 's-weekly' }],
    ]);
  });

  it('opens from the Deliveries tab, next to Activity and Insights', async () => {
    renderAdmin(<AdminApp />, { path: '/admin/users', route: '/admin/*' });
    const nav = await screen.findByRole('navigation', { name: 'Admin sections' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Manage Users', 'Manage Dashboards', 'Companies', 'Activity', 'Insights', 'Deliveries']);
    const tab = within(nav).getByRole('link', { name: 'Deliveries' });
    expect(tab).toHaveAttribute('href', '/admin/deliveries');
    await userEvent.setup().click(tab);
    expect(await screen.findByRole('heading', { level: 1, name: 'Deliveries' })).toBeInTheDocument();
    expect(tab).toHaveAttribute('aria-current', 'page');
    expect(document.title).toBe('Deliveries · TVIQ Admin');
  });
});
