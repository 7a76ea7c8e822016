import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { InsightsResponse, InsightsUser, InsightUsersPage } from '#contracts/insights.ts';
import { defaultRange, rangeProblem, usersCsv } from '#web/features/admin/insights.ts';
import InsightsPage from '#web/features/admin/routes/insights-page.tsx';
import { apiError, company, fakeAdminApi, listCompaniesOf, renderAdmin, stubViewport } from './support.tsx';

const insights = (overrides: Partial<InsightsResponse> = {}): InsightsResponse => ({
  from: '2026-03-01',
  to: '2026-03-12',
  company: null,
  retentionDays: 400,
  totalViews: 4,
  weeks: [
    { week: '2026-W10', start: '2026-03-02', activeUsers: 2, views: 3 },
    { week: '2026-W11', start: '2026-03-09', activeUsers: 1, views: 1 },
  ],
  dashboards: [
    {
      dashboardId: 'sales',
      name: 'Sales Performance',
      inCatalogue: true,
      views: 4,
      lastViewedAt: '2026-03-10T09:00:00.000Z',
    },
    { dashboardId: 'margins', name: 'Margins', inCatalogue: true, views: 0, lastViewedAt: null },
  ],
  ...overrides,
});

const USERS: InsightsUser[] = [
  {
    email: 'jane@example.com',
    companies: ['=Acme Tools'],
    lastSeenAt: '2026-03-10T09:00:00.000Z',
    recentViews: 3,
    assigned: [
      {
        dashboardId: 'sales',
        name: 'Sales Performance',
        companyName: 'Acme Tools',
        lastViewedAt: '2026-03-10T09:00:00.000Z',
      },
      { dashboardId: 'margins', name: 'Margins', companyName: 'Acme Tools', lastViewedAt: null },
    ],
  },
  {
    email: 'sam@example.com',
    companies: ['Bolt Distribution'],
    lastSeenAt: null,
    recentViews: 0,
    assigned: [
      { dashboardId: 'sales', name: 'Sales Performance', companyName: 'Bolt Distribution', lastViewedAt: null },
    ],
  },
  {
    email: 'viewer@example.com',
    companies: ['Bolt Distribution'],
    lastSeenAt: '2026-03-05T09:00:00.000Z',
    recentViews: 1,
    assigned: [
      {
        dashboardId: 'sales',
        name: 'Sales Performance',
        companyName: 'Bolt Distribution',
        lastViewedAt: '2026-03-05T09:00:00.000Z',
      },
    ],
  },
];

/** The users in two pages, as the server pages them. */
const userPages = vi.fn(async (company: string | undefined, nextToken?: string): Promise<InsightUsersPage> => {
  if (company !== undefined)
    return { users: USERS.filter((user) => user.companies.includes(company)), nextToken: null };
  return nextToken === undefined
    ? { users: USERS.slice(0, 1), nextToken: 'page-2' }
    : { users: USERS.slice(1), nextToken: null };
});

/** The portal's companies (LIST_COMPANIES): the filter offers these, not the names found in the users' rows. */
const COMPANIES = [
  company('Bolt Distribution', { kind: 'distributor' }),
  company('Acme Tools'),
  company('Harbor Capital', { kind: 'owner' }),
];

const renderInsights = (
  answer: () => Promise<InsightsResponse> = async () => insights(),
  listCompanies = listCompaniesOf(COMPANIES),
) => {
  const call = vi.fn(answer);
  userPages.mockClear();
  renderAdmin(<InsightsPage />, {
    api: fakeAdminApi({ quicksight: { insights: call, insightUsers: userPages, listCompanies } }),
    path: '/admin/insights',
  });
  return call;
};

const companyOptions = () =>
  [...(screen.getByLabelText('Company') as HTMLSelectElement).options].map((option) => option.text);

/** Captures the files the page offers for download. */
const captureDownloads = () => {
  const files: { name: string; blob: Blob }[] = [];
  const blobs: Blob[] = [];
  vi.stubGlobal(
    'URL',
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => (blobs.push(blob), `blob:${blobs.length}`),
      revokeObjectURL: () => undefined,
    }),
  );
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    files.push({ name: this.download, blob: blobs[Number(this.href.split(':').pop()) - 1]! });
  });
  return files;
};
const text = (blob: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(blob);
  });

describe('insights helpers', () => {
  it('starts with the last 30 UTC days', () => {
    expect(defaultRange(new Date('2026-03-12T23:30:00Z'))).toEqual({ from: '2026-02-11', to: '2026-03-12' });
  });

  it('checks a range as the server does', () => {
    expect(rangeProblem({ from: '2026-03-12', to: '2026-03-01' })).toEqual({
      field: 'from',
      message: 'The start date must not be after the end date',
    });
    expect(rangeProblem({ from: '2025-01-01', to: '2026-03-01' })).toEqual({
      field: 'to',
      message: 'The date range may cover at most 400 days',
    });
    expect(rangeProblem({ from: '', to: '2026-03-01' })?.field).toBe('from');
    expect(rangeProblem({ from: '2026-02-01', to: '2026-03-01', company: 'Acme' })).toBeUndefined();
  });

  it('writes the users table as CSV with formula cells neutralised', () => {
    const lines = usersCsv(USERS).split('\r\n');
    expect(lines[0]).toBe('Email,Company,Last seen,Views (last 30 days),Assigned dashboards,Assigned but never opened');
    expect(lines[1]).toBe(
      "jane@example.com,'=Acme Tools,2026-03-10T09:00:00.000Z,3,Sales Performance; Margins,Margins",
    );
    expect(lines[2]).toBe('sam@example.com,Bolt Distribution,never,0,Sales Performance,Sales Performance');
  });
});

describe('Insights tab', () => {
  it('shows the figures, weekly and per-dashboard tables, chart summaries and the users who need attention', async () => {
    stubViewport();
    const call = renderInsights();
    expect(await screen.findByRole('heading', { name: 'Insights', level: 1 })).toBeInTheDocument();
    expect(call).toHaveBeenCalledWith(defaultRange());

    const figure = (label: string) => screen.getByText(label).closest('.stat-card');
    await waitFor(() => expect(figure('Dashboard views in range')).toHaveTextContent('4'));
    // Both pages of users arrive, the second from the first one's token: a first page of 100
    // users shows at once, the rest follow in pages of 200.
    await screen.findByText('Users who never viewed a dashboard');
    expect(userPages.mock.calls).toEqual([
      [undefined, undefined, 100],
      [undefined, 'page-2', 200],
    ]);
    expect(figure('Users who never viewed a dashboard')).toHaveTextContent('1');
    expect(figure('Users with an assigned dashboard never opened')).toHaveTextContent('2');

    const weeks = screen.getByRole('table', { name: 'Active users per week' });
    expect(
      within(weeks)
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.textContent),
    ).toEqual(['2026-W102026-03-0223', '2026-W112026-03-0911']);
    const notViewed = screen.getByRole('table', { name: 'Dashboards not viewed in this range' });
    expect(within(notViewed).getAllByRole('row').slice(1)).toHaveLength(1);
    expect(within(notViewed).getByRole('rowheader')).toHaveTextContent('Margins (margins)');
    expect(within(notViewed).getByRole('row', { name: /Margins/ })).toHaveTextContent('Never');
    // Assigned users are counted from the users' rows once all have arrived.
    expect(
      within(screen.getByRole('table', { name: 'Views per dashboard' })).getByRole('row', {
        name: /Sales Performance/,
      }),
    ).toHaveTextContent('Sales Performance (sales)43');

    // The charts arrive in their own chunk, each with a spoken summary.
    // Its first import can take seconds on a busy machine.
    expect(
      await screen.findByRole(
        'img',
        { name: /^Active users per ISO week, 2026-W10 to 2026-W11: most in 2026-W10 \(2\)/ },
        { timeout: 15_000 },
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('img', { name: 'Views per dashboard: Sales Performance 4, Margins 0.' }),
    ).toBeInTheDocument();

    const users = screen.getByRole('table', { name: 'Users' });
    const sam = within(users).getByRole('row', { name: /sam@example.com/ });
    expect(sam).toHaveTextContent('Never viewed');
    expect(sam).toHaveClass('needs-attention');
    expect(within(users).getByRole('row', { name: /jane@example.com/ })).toHaveTextContent('1 never opened');
    expect(within(users).getByRole('row', { name: /viewer@example.com/ })).not.toHaveClass('needs-attention');
    expect(
      screen.getByText(
        /"Never viewed" means the portal has recorded no dashboard view by this user in the last 400 days/,
      ),
    ).toBeInTheDocument();

    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Show'), 'never-viewed');
    expect(
      within(users)
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.textContent?.split('@')[0]),
    ).toEqual(['sam']);
    await user.selectOptions(screen.getByLabelText('Show'), 'unopened');
    expect(screen.getByText('2 of 3 users')).toBeInTheDocument();
  });

  it('applies a date range and a company, and refuses a bad range without asking the server', async () => {
    stubViewport();
    const call = renderInsights();
    await screen.findByText('jane@example.com');
    await screen.findByText('Dashboard views in range');
    const user = userEvent.setup();
    const from = screen.getByLabelText('From');
    const to = screen.getByLabelText('To');
    await user.clear(from);
    await user.type(from, '2026-03-20');
    await user.clear(to);
    await user.type(to, '2026-03-01');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('The start date must not be after the end date')).toBeInTheDocument();
    expect(from).toHaveAttribute('aria-invalid', 'true');
    expect(call).toHaveBeenCalledTimes(1);

    await user.clear(from);
    await user.type(from, '2026-02-01');
    await user.selectOptions(screen.getByLabelText('Company'), 'Bolt Distribution');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(call).toHaveBeenLastCalledWith({ from: '2026-02-01', to: '2026-03-01', company: 'Bolt Distribution' }),
    );
    await waitFor(() => expect(userPages).toHaveBeenCalledWith('Bolt Distribution', undefined, 100));
    // The other companies stay on offer while one is shown.
    await waitFor(() =>
      expect(
        within(screen.getByRole('table', { name: 'Users' })).queryByText('jane@example.com'),
      ).not.toBeInTheDocument(),
    );
    expect(companyOptions()).toEqual(['All companies', 'Acme Tools', 'Bolt Distribution', 'Harbor Capital']);
    expect(screen.queryByText('The start date must not be after the end date')).not.toBeInTheDocument();
  });

  it("offers the portal's companies in the company filter", async () => {
    stubViewport();
    renderInsights();
    await screen.findByText('jane@example.com');
    await waitFor(() =>
      expect(companyOptions()).toEqual(['All companies', 'Acme Tools', 'Bolt Distribution', 'Harbor Capital']),
    );
  });

  it("falls back to the users' companies when the companies cannot be loaded", async () => {
    stubViewport();
    renderInsights(
      undefined,
      vi.fn(async () => Promise.reject(apiError(500, 'Internal server error'))),
    );
    await screen.findByText('viewer@example.com');
    await waitFor(() => expect(companyOptions()).toEqual(['All companies', '=Acme Tools', 'Bolt Distribution']));
  });

  it('exports each table as CSV named after the range', async () => {
    stubViewport();
    renderInsights();
    await screen.findByText('Users who never viewed a dashboard');
    const files = captureDownloads();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Export weeks CSV' }));
    await user.click(screen.getByRole('button', { name: 'Export dashboards CSV' }));
    await user.click(screen.getByRole('button', { name: 'Export not viewed CSV' }));
    await user.click(screen.getByRole('button', { name: 'Export users CSV' }));
    expect(files.map((file) => file.name)).toEqual([
      'insights-weeks-2026-03-01-to-2026-03-12.csv',
      'insights-dashboards-2026-03-01-to-2026-03-12.csv',
      'insights-not-viewed-2026-03-01-to-2026-03-12.csv',
      'insights-users-2026-03-01-to-2026-03-12.csv',
    ]);
    expect(await text(files[0]!.blob)).toBe(
      'ISO week,Week starting,Active users,Views\r\n2026-W10,2026-03-02,2,3\r\n2026-W11,2026-03-09,1,1',
    );
    expect(await text(files[2]!.blob)).toBe(
      'Dashboard,Dashboard ID,Views,Assigned users,Last viewed\r\nMargins,margins,0,1,never',
    );
    expect(await text(files[3]!.blob)).toContain("jane@example.com,'=Acme Tools,");
    expect(files[0]!.blob.type).toBe('text/csv;charset=utf-8');
  });

  it('reports users that cannot be loaded, keeping the figures', async () => {
    userPages.mockImplementationOnce(async () => Promise.reject(apiError(500, 'Server error')));
    renderInsights();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load the users');
    expect(screen.getByText('Dashboard views in range')).toBeInTheDocument();
    // No empty users table under the failure: Retry loads them again.
    expect(screen.queryByRole('table', { name: 'Users' })).not.toBeInTheDocument();
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table', { name: 'Users' })).toBeInTheDocument();
    expect(screen.queryByText('Failed to load the users')).not.toBeInTheDocument();
  });

  it('reports insights that cannot be loaded', async () => {
    renderInsights(async () => Promise.reject(apiError(403, "Access denied. You don't have admin privileges.")));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load insights');
    expect(alert).toHaveTextContent("Access denied. You don't have admin privileges.");
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeEnabled();
  });
});
