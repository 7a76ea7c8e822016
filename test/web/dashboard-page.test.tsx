import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import HomePage from '#web/features/dashboard/routes/home-page.tsx';
import { AuthContext } from '#web/lib/auth/auth-context.ts';
import { embedOk, frameSource, renderHome, stubBackend, VIEWS } from './support/dashboard-page.tsx';
import { resetSdk, sdk } from './support/embedding-sdk.ts';
import { fakeAuth, jsonResponse, renderPage, userSession } from './support/render.tsx';
import { skip, useSkippableTimeouts } from './support/timers.ts';

vi.mock('#web/features/dashboard/components/sdk-loader.ts', () => import('./support/embedding-sdk.ts'));

afterEach(() => {
  vi.useRealTimers();
  resetSdk();
});

describe('dashboard page', () => {
  it("lists the user's named views and shows the default one", async () => {
    const calls = stubBackend(VIEWS, embedOk());
    renderHome();
    const frame = await screen.findByTitle('QuickSight Analytics Dashboard');
    expect(frame.getAttribute('src')).toMatch(/^https:\/\/embed\.example\.com\/embed\/inventory/);
    const select = screen.getByLabelText('Select Dashboard');
    // The default first, then the others in the order the API lists them.
    expect([...(select as HTMLSelectElement).options].map((o) => o.text)).toEqual([
      'Inventory & Margins',
      'Sales Performance',
      'Distributor Scorecard',
    ]);
    expect(calls.graphql[0]).toMatchObject({
      authorization: 'access-token',
      body: { variables: { filter: { userEmail: { eq: 'jane.doe@example.com' } } } },
    });
    expect(await screen.findByText('Powered by AWS QuickSight')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh' })).toHaveAccessibleDescription('Refresh dashboard URL');
  });

  it('remembers the chosen view in selectedDashboardId and prefers it next time', async () => {
    stubBackend(VIEWS, embedOk());
    const first = renderHome();
    await screen.findByTitle('QuickSight Analytics Dashboard');
    await userEvent.setup().selectOptions(screen.getByLabelText('Select Dashboard'), 'Distributor Scorecard');
    await waitFor(() =>
      expect(screen.getByTitle('QuickSight Analytics Dashboard').getAttribute('src')).toContain('/embed/scorecard'),
    );
    expect(window.localStorage.getItem('selectedDashboardId')).toBe('v-scorecard');
    // The choice has its own address.
    expect(screen.getByTestId('location')).toHaveTextContent('/dashboards/scorecard');
    first.unmount();
    renderHome();
    await waitFor(() =>
      expect(screen.getByTitle('QuickSight Analytics Dashboard').getAttribute('src')).toContain('/embed/scorecard'),
    );
  });

  it('shows the view a link names, by its dashboard, whatever the stored choice', async () => {
    window.localStorage.setItem('selectedDashboardId', 'v-inventory');
    const calls = stubBackend(VIEWS, embedOk());
    renderHome('/dashboards/sales');
    await waitFor(() => expect(frameSource()).toContain('/embed/sales'));
    expect((screen.getByLabelText('Select Dashboard') as HTMLSelectElement).value).toBe('v-sales');
    expect(calls.embed).toEqual(['sales']);
    expect(screen.queryByText('This dashboard is not assigned to you')).not.toBeInTheDocument();
  });

  it('says a linked dashboard is not assigned and shows the default, asking no URL for the linked one', async () => {
    window.localStorage.setItem('selectedDashboardId', 'v-sales');
    const calls = stubBackend(VIEWS, embedOk());
    renderHome('/dashboards/secret-board');
    expect(await screen.findByText('This dashboard is not assigned to you')).toBeInTheDocument();
    await waitFor(() => expect(frameSource()).toContain('/embed/inventory'));
    expect(calls.embed).toEqual(['inventory']);
  });

  it('says a linked dashboard is not assigned to a user who has none', async () => {
    stubBackend([], embedOk());
    renderHome('/dashboards/sales');
    expect(await screen.findByText('This dashboard is not assigned to you')).toBeInTheDocument();
    expect(screen.getByText(/An administrator assigns dashboards/)).toBeInTheDocument();
  });

  it('falls back to the first view when there is no default and no stored choice', async () => {
    stubBackend(
      VIEWS.map((view) => ({ ...view, isDefault: false })),
      embedOk(),
    );
    window.localStorage.setItem('selectedDashboardId', 'v-gone');
    renderHome();
    await waitFor(() =>
      expect(screen.getByTitle('QuickSight Analytics Dashboard').getAttribute('src')).toContain('/embed/sales'),
    );
  });

  it('Refresh asks for a new embed URL', async () => {
    const calls = stubBackend(VIEWS, embedOk());
    renderHome();
    await screen.findByTitle('QuickSight Analytics Dashboard');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(calls.embed).toEqual(['inventory', 'inventory']));
  });

  it("Refresh reloads the views, so an administrator's new default shows", async () => {
    const views = VIEWS.map((view) => ({ ...view }));
    const calls = stubBackend(views, embedOk());
    renderHome();
    await waitFor(() =>
      expect(screen.getByTitle('QuickSight Analytics Dashboard').getAttribute('src')).toContain('/embed/inventory'),
    );
    for (const view of views) view.isDefault = view.id === 'v-scorecard';

    await userEvent.setup().click(screen.getByRole('button', { name: 'Refresh' }));

    await waitFor(() =>
      expect(screen.getByTitle('QuickSight Analytics Dashboard').getAttribute('src')).toContain('/embed/scorecard'),
    );
    expect(calls.graphql).toHaveLength(2);
    expect(calls.embed).toEqual(['inventory', 'scorecard']);
    expect(screen.getByLabelText('Select Dashboard')).toHaveValue('v-scorecard');
  });

  it('shows the error panel with the status and retries', async () => {
    let fail = true;
    const calls = stubBackend(VIEWS, (id) =>
      fail
        ? new Response('{"error":"Dashboard not assigned"}', { status: 500, statusText: 'Internal Server Error' })
        : embedOk()(id),
    );
    useSkippableTimeouts();
    renderHome();
    // The GET is tried three times, with a backoff of up to 300 ms and then 500 ms between:
    // the fake clock jumps over them.
    for (let skipped = 0; !screen.queryByText('Error Loading Dashboard') && skipped < 5_000; skipped += 100)
      await skip(100);
    expect(screen.getByText('Error Loading Dashboard')).toBeInTheDocument();
    expect(screen.getByText('Failed to load dashboard')).toBeInTheDocument();
    expect(screen.getByText('Failed to get QuickSight URL: 500 Internal Server Error')).toBeInTheDocument();
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTitle('QuickSight Analytics Dashboard')).toBeInTheDocument();
    expect(calls.embed.length).toBeGreaterThanOrEqual(2);
  });

  it('says so when the function returns no URL', async () => {
    stubBackend(VIEWS, () => jsonResponse({ url: '', sessionExpiresAt: new Date().toISOString() }));
    renderHome();
    expect(await screen.findByText('No URL returned from Lambda function')).toBeInTheDocument();
  });

  it('explains that an administrator assigns dashboards when there are none', async () => {
    stubBackend([], embedOk());
    renderHome();
    expect(await screen.findByText(/An administrator assigns dashboards/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Select Dashboard')).not.toBeInTheDocument();
  });

  it('only logs a view-list failure and shows the empty list', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const calls = stubBackend('error', embedOk());
    renderHome();
    expect(await screen.findByText(/An administrator assigns dashboards/)).toBeInTheDocument();
    expect(log).toHaveBeenCalledWith('Error fetching dashboard views:', 'Unauthorized');
    expect(calls.embed).toEqual([]);
  });

  it('renews the embed URL before the session ends, without leaving the page', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    const calls = stubBackend(VIEWS, embedOk(2));
    renderHome();
    const frame = await screen.findByTitle('QuickSight Analytics Dashboard');
    const firstUrl = frame.getAttribute('src');
    expect(calls.embed).toHaveLength(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(61_000);
    });
    await waitFor(() => expect(calls.embed).toHaveLength(2));
    await waitFor(() =>
      expect(screen.getByTitle('QuickSight Analytics Dashboard').getAttribute('src')).not.toBe(firstUrl),
    );
    expect(calls.sources).toEqual(['default', 'renewal']);
  });

  it('tells the embed function which page each URL is for: the first dashboard, a switch, a refresh', async () => {
    const calls = stubBackend(VIEWS, embedOk());
    renderHome();
    await screen.findByTitle('QuickSight Analytics Dashboard');
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Select Dashboard'), 'Distributor Scorecard');
    await waitFor(() => expect(calls.embed).toEqual(['inventory', 'scorecard']));
    await screen.findByTitle('QuickSight Analytics Dashboard');
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(calls.sources).toEqual(['default', 'switch', 'refresh']));
  });

  it('drops the embedded dashboard the moment the session ends, and renews no URL afterwards', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    const calls = stubBackend(VIEWS, embedOk(2));
    let endSession = () => undefined as void;
    function SignedInUntilEnded() {
      const [auth, setAuth] = useState(() => fakeAuth({ session: userSession() }));
      endSession = () => setAuth(fakeAuth({ session: null }));
      return (
        <AuthContext.Provider value={auth}>
          <HomePage />
        </AuthContext.Provider>
      );
    }
    renderPage(<SignedInUntilEnded />, { path: '/home' });
    await screen.findByTitle('QuickSight Analytics Dashboard');
    act(() => endSession());
    expect(screen.queryByTitle('QuickSight Analytics Dashboard')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Select Dashboard')).not.toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5 * 60_000);
    });
    expect(calls.embed).toHaveLength(1);
  });

  it('keeps the spinner until the SDK reports the content loaded, then shows the footer', async () => {
    sdk.autoLoad = false;
    stubBackend(VIEWS, embedOk());
    renderHome();
    await screen.findByTitle('QuickSight Analytics Dashboard');
    expect(screen.getByText('Loading dashboard...')).toBeInTheDocument();
    expect(screen.queryByText('Powered by AWS QuickSight')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Print' })).toBeDisabled();
    act(() => sdk.emit({ eventName: 'CONTENT_LOADED', message: { title: 'Inventory' } }));
    expect(await screen.findByText('Powered by AWS QuickSight')).toBeInTheDocument();
    expect(screen.queryByText('Loading dashboard...')).not.toBeInTheDocument();
  });

  it('asks once more by itself when the frame rejects the URL, then shows the error with Retry', async () => {
    sdk.autoLoad = false;
    const calls = stubBackend(VIEWS, embedOk());
    renderHome();
    await screen.findByTitle('QuickSight Analytics Dashboard');
    act(() => sdk.emit({ eventName: 'ERROR_OCCURRED', message: { errorCode: 'Forbidden' } }));
    await waitFor(() => expect(calls.embed).toEqual(['inventory', 'inventory']));
    await screen.findByTitle('QuickSight Analytics Dashboard');
    act(() => sdk.emit({ eventName: 'ERROR_OCCURRED', message: { errorCode: 'Forbidden' } }));
    expect(await screen.findByText('Error Loading Dashboard')).toBeInTheDocument();
    expect(screen.getByText('The dashboard link has expired or was already used.')).toBeInTheDocument();
    expect(calls.embed).toHaveLength(2);
    sdk.autoLoad = true;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Powered by AWS QuickSight')).toBeInTheDocument();
    expect(calls.embed).toHaveLength(3);
  });

  it('shows the error with Retry when the SDK chunk cannot be loaded', async () => {
    sdk.failImport = true;
    const calls = stubBackend(VIEWS, embedOk());
    renderHome();
    expect(
      await screen.findByText('The dashboard viewer could not be loaded. Check your connection and try again.'),
    ).toBeInTheDocument();
    expect(calls.embed).toHaveLength(1);
    sdk.failImport = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Powered by AWS QuickSight')).toBeInTheDocument();
  });

  it('prints and resets through the SDK from named toolbar buttons', async () => {
    stubBackend(VIEWS, embedOk());
    renderHome();
    await screen.findByText('Powered by AWS QuickSight');
    const toolbar = screen.getByRole('toolbar', { name: 'Dashboard actions' });
    const user = userEvent.setup();
    for (const name of ['Print', 'Reset']) await user.click(within(toolbar).getByRole('button', { name }));
    await waitFor(() => expect(sdk.calls.map((c) => c.method)).toEqual(['initiatePrint', 'reset']));
    expect(within(toolbar).getByRole('button', { name: 'Print' })).toHaveAccessibleDescription('Print the dashboard');
  });

  it('lets an owner narrow a dashboard with a company parameter to one of their companies, and to all of them again', async () => {
    sdk.parameters = [{ Name: 'company', Values: [] }];
    stubBackend(VIEWS, (id) =>
      jsonResponse({
        url: `https://embed.example.com/embed/${id}`,
        sessionExpiresAt: new Date(Date.now() + 3_600_000).toISOString(),
        companies: ['Acme', 'Birch'],
      }),
    );
    renderHome();
    const choice = await screen.findByLabelText('Companies');
    expect([...(choice as HTMLSelectElement).options].map((o) => o.text)).toEqual([
      'All my companies',
      'Acme',
      'Birch',
    ]);
    const user = userEvent.setup();
    await user.selectOptions(choice, 'Birch');
    await waitFor(() =>
      expect(sdk.calls).toEqual([{ method: 'setParameters', args: [[{ Name: 'company', Values: ['Birch'] }]] }]),
    );
    sdk.parameters = [{ Name: 'company', Values: ['Birch'] }];
    await user.selectOptions(choice, '');
    await waitFor(() =>
      expect(sdk.calls.at(-1)).toEqual({
        method: 'setParameters',
        args: [[{ Name: 'company', Values: ['Acme', 'Birch'] }]],
      }),
    );
  });

  it('offers no company choice where the dashboard declares no company parameter, or for a single company', async () => {
    stubBackend(VIEWS, (id) =>
      jsonResponse({
        url: `https://embed.example.com/embed/${id}`,
        sessionExpiresAt: new Date(Date.now() + 3_600_000).toISOString(),
        companies: ['Acme', 'Birch'],
      }),
    );
    renderHome();
    await screen.findByText('Powered by AWS QuickSight');
    expect(screen.queryByLabelText('Companies')).not.toBeInTheDocument();
    expect(sdk.calls).toEqual([]);
  });
});
