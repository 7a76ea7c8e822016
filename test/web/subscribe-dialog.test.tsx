import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SUBSCRIPTION_MESSAGES, type Subscription } from '#contracts/subscriptions.ts';
import { embedOk, renderHome, stubBackend, VIEWS, type EmbedAnswer } from './support/dashboard-page.tsx';
import { testConfig } from './support/config.ts';
import { resetSdk, sdk } from './support/embedding-sdk.ts';
import { jsonResponse } from './support/render.tsx';

vi.mock('#web/features/dashboard/components/sdk-loader.ts', () => import('./support/embedding-sdk.ts'));

afterEach(() => {
  resetSdk();
});

const BROWSER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const NEXT_DELIVERY = '2026-08-07T16:30:00.000Z';

/** As the portal shows a time: the browser's locale, on the clock of the subscription's zone. */
const shownTime = (iso: string, timeZone: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone });

type CreateAnswer = (input: Record<string, unknown>) => Response;

/** What createSubscription answers when it accepts: the input as a new, active subscription. */
const accepted: CreateAnswer = (input) => {
  const subscription: Subscription = {
    id: 'sub-new',
    dashboardId: String(input.dashboardId),
    dashboardName: 'Inventory & Margins',
    format: input.format as Subscription['format'],
    frequency: input.frequency as Subscription['frequency'],
    weekday: (input.weekday ?? null) as Subscription['weekday'],
    dayOfMonth: (input.dayOfMonth ?? null) as number | null,
    time: String(input.time),
    timeZone: String(input.timeZone),
    company: (input.company ?? null) as string | null,
    status: 'ACTIVE',
    nextDeliveryAt: NEXT_DELIVERY,
    lastDeliveryAt: null,
    lastOutcome: null,
    lastError: null,
    createdAt: '2026-08-01T10:00:00.000Z',
  };
  return jsonResponse({ data: { createSubscription: subscription } });
};

const refused = (message: string) => () => jsonResponse({ data: null, errors: [{ message }] });

/** The views, the embed function and createSubscription; records the subscriptions asked for. */
function stubPortal({ create = accepted, embed = embedOk() }: { create?: CreateAnswer; embed?: EmbedAnswer } = {}) {
  const created: { query: string; variables: Record<string, unknown> }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (url === testConfig.functions.embed) return embed(new Headers(init?.headers).get('x-dashboard-id') ?? '');
      expect(url).toBe(testConfig.graphqlUrl);
      const body = JSON.parse(String(init?.body)) as { query: string; variables: Record<string, unknown> };
      if (body.query.includes('listTableauViews'))
        return jsonResponse({ data: { listTableauViews: { items: VIEWS, nextToken: null } } });
      created.push(body);
      return create(body.variables.input as Record<string, unknown>);
    }),
  );
  return created;
}

/** The dashboard page with its default view shown, and the dialog opened from the toolbar. */
async function openDialog() {
  renderHome();
  await screen.findByText('Powered by AWS QuickSight');
  const user = userEvent.setup();
  const toolbar = screen.getByRole('toolbar', { name: 'Dashboard actions' });
  const subscribe = within(toolbar).getByRole('button', { name: 'Subscribe' });
  await user.click(subscribe);
  const dialog = await screen.findByRole('dialog', { name: 'Email this dashboard' });
  const field = (label: string) => within(dialog).getByLabelText(label) as HTMLSelectElement;
  const submit = () => user.click(within(dialog).getByRole('button', { name: 'Subscribe' }));
  return { user, dialog, field, submit, subscribe };
}

describe('Subscribe on the dashboard page', () => {
  it('opens from the toolbar with the defaults: a PDF every day at 08:00 in the browser’s time zone', async () => {
    stubPortal();
    const { dialog, field } = await openDialog();
    expect(within(dialog).getByRole('button', { name: 'Subscribe' })).toBeEnabled();
    expect(dialog).toHaveTextContent(
      'Inventory & Margins is emailed to jane.doe@example.com as a file, on the schedule you choose.',
    );
    // The focus is in the dialog, on the first choice.
    expect(within(dialog).getByRole('radio', { name: /^PDF/ })).toHaveFocus();
    expect(within(dialog).getByRole('radio', { name: /^PDF/ })).toBeChecked();
    expect(within(dialog).getByRole('radio', { name: /^CSV/ })).not.toBeChecked();
    expect(field('Frequency')).toHaveDisplayValue('Daily');
    expect(field('Time')).toHaveValue('08:00');
    expect(field('Time zone')).toHaveValue(BROWSER_ZONE);
    expect(within(dialog).queryByLabelText('Day of the week')).not.toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Day of the month')).not.toBeInTheDocument();
    // Every quarter hour, and the runtime's zones.
    const times = [...field('Time').options].map((option) => option.value);
    expect(times).toHaveLength(96);
    expect(times.slice(0, 3)).toEqual(['00:00', '00:15', '00:30']);
    expect(times.at(-1)).toBe('23:45');
    const zones = [...field('Time zone').options].map((option) => option.value);
    expect(zones).toEqual(expect.arrayContaining(['Europe/London', 'America/New_York', BROWSER_ZONE]));
    // No company line for a reader of all their companies.
    expect(dialog).not.toHaveTextContent('The file will hold only');
  });

  it('subscribes in two clicks, toasts the schedule and the next delivery, and gives the focus back', async () => {
    const created = stubPortal();
    const { submit, subscribe } = await openDialog();
    await submit();
    const toast = `Subscribed: Inventory & Margins, daily at 08:00 (${BROWSER_ZONE}). Next delivery: ${shownTime(
      NEXT_DELIVERY,
      BROWSER_ZONE,
    )}.`;
    expect(await screen.findByText(toast)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(subscribe).toHaveFocus();
    expect(created).toHaveLength(1);
    expect(created[0]!.query).toMatch(/^\s*mutation CreateSubscription\(\$input: CreateSubscriptionInput!\)/);
    expect(created[0]!.variables).toEqual({
      input: { dashboardId: 'inventory', format: 'PDF', frequency: 'DAILY', time: '08:00', timeZone: BROWSER_ZONE },
    });
  });

  it('asks for the day of a weekly or monthly delivery, and sends nothing until it is chosen', async () => {
    const created = stubPortal();
    const { user, dialog, field, submit } = await openDialog();

    await user.selectOptions(field('Frequency'), 'Weekly');
    const weekday = field('Day of the week');
    expect(weekday).toBeRequired();
    expect(weekday).toHaveDisplayValue('Choose a day');
    expect([...weekday.options].map((option) => option.text).slice(1)).toEqual([
      'Monday',
      'Tuesday',
      'Wednesday',
      'Thursday',
      'Friday',
      'Saturday',
      'Sunday',
    ]);
    await submit();
    expect(within(dialog).getByText(SUBSCRIPTION_MESSAGES.weekdayRequired)).toBeInTheDocument();
    expect(weekday).toHaveAttribute('aria-invalid', 'true');

    await user.selectOptions(field('Frequency'), 'Monthly');
    expect(within(dialog).queryByLabelText('Day of the week')).not.toBeInTheDocument();
    const day = field('Day of the month');
    expect(day).toBeRequired();
    const days = [...day.options].map((option) => option.value);
    expect(days).toEqual(['', ...Array.from({ length: 28 }, (_, index) => String(index + 1))]);
    expect(within(dialog).getByText(SUBSCRIPTION_MESSAGES.dayOfMonthRequired)).toBeInTheDocument();
    await submit();
    expect(created).toHaveLength(0);

    // Chosen, the day clears the error and goes with the monthly schedule only.
    await user.selectOptions(day, '28');
    expect(within(dialog).queryByText(SUBSCRIPTION_MESSAGES.dayOfMonthRequired)).not.toBeInTheDocument();
    await submit();
    await waitFor(() => expect(created).toHaveLength(1));
    expect(created[0]!.variables).toEqual({
      input: {
        dashboardId: 'inventory',
        format: 'PDF',
        frequency: 'MONTHLY',
        dayOfMonth: 28,
        time: '08:00',
        timeZone: BROWSER_ZONE,
      },
    });
    expect(await screen.findByText(/^Subscribed: Inventory & Margins, monthly on the 28th at 08:00/)).toBeVisible();
  });

  it("sends a weekly CSV for the owner's chosen company with exactly the variables of the contract", async () => {
    sdk.parameters = [{ Name: 'company', Values: [] }];
    const created = stubPortal({
      embed: (id) =>
        jsonResponse({
          url: `https://embed.example.com/embed/${id}`,
          sessionExpiresAt: new Date(Date.now() + 3_600_000).toISOString(),
          companies: ['Acme', 'Birch'],
        }),
    });
    renderHome();
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByLabelText('Companies'), 'Birch');
    await user.click(screen.getByRole('button', { name: 'Subscribe' }));
    const dialog = await screen.findByRole('dialog', { name: 'Email this dashboard' });
    expect(dialog).toHaveTextContent('The file will hold only the rows of Birch, the company chosen on the dashboard.');

    await user.click(within(dialog).getByRole('radio', { name: /^CSV/ }));
    await user.selectOptions(within(dialog).getByLabelText('Frequency'), 'Weekly');
    await user.selectOptions(within(dialog).getByLabelText('Day of the week'), 'Friday');
    await user.selectOptions(within(dialog).getByLabelText('Time'), '17:30');
    await user.selectOptions(within(dialog).getByLabelText('Time zone'), 'Europe/London');
    await user.click(within(dialog).getByRole('button', { name: 'Subscribe' }));

    await waitFor(() => expect(created).toHaveLength(1));
    expect(created[0]!.variables).toEqual({
      input: {
        dashboardId: 'inventory',
        format: 'CSV',
        frequency: 'WEEKLY',
        weekday: 'FRIDAY',
        time: '17:30',
        timeZone: 'Europe/London',
        company: 'Birch',
      },
    });
    // The next delivery on the clock of the zone chosen: 16:30 UTC is 17:30 in London in August.
    const next = shownTime(NEXT_DELIVERY, 'Europe/London');
    expect(next).toMatch(/5:30|17:30/);
    expect(
      await screen.findByText(
        `Subscribed: Inventory & Margins, weekly on Friday at 17:30 (Europe/London). Next delivery: ${next}.`,
      ),
    ).toBeInTheDocument();
  });

  it("shows the API's refusal in the dialog and keeps it open with what was chosen", async () => {
    let answer: CreateAnswer = refused(SUBSCRIPTION_MESSAGES.tooMany);
    const created = stubPortal({ create: (input) => answer(input) });
    const { user, dialog, field, submit } = await openDialog();
    await user.click(within(dialog).getByRole('radio', { name: /^CSV/ }));
    await user.selectOptions(field('Frequency'), 'Weekly');
    await user.selectOptions(field('Day of the week'), 'Tuesday');
    await submit();

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(`Failed to subscribe${SUBSCRIPTION_MESSAGES.tooMany}`);
    expect(screen.getByRole('dialog', { name: 'Email this dashboard' })).toBe(dialog);
    expect(within(dialog).getByRole('radio', { name: /^CSV/ })).toBeChecked();
    expect(field('Frequency')).toHaveValue('WEEKLY');
    expect(field('Day of the week')).toHaveValue('TUESDAY');
    expect(within(dialog).getByRole('button', { name: 'Subscribe' })).toBeEnabled();

    // Another refusal replaces the first; then an accepted one closes the dialog.
    answer = refused(SUBSCRIPTION_MESSAGES.notDeliverable);
    await submit();
    await waitFor(() =>
      expect(within(dialog).getByRole('alert')).toHaveTextContent(SUBSCRIPTION_MESSAGES.notDeliverable),
    );
    expect(dialog).not.toHaveTextContent(SUBSCRIPTION_MESSAGES.tooMany);
    answer = accepted;
    await submit();
    expect(await screen.findByText(/^Subscribed: Inventory & Margins, weekly on Tuesday at 08:00/)).toBeVisible();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(created.map((call) => (call.variables.input as { format: string }).format)).toEqual(['CSV', 'CSV', 'CSV']);
  });

  it('closes on Cancel or Escape without sending anything, and opens again from the defaults', async () => {
    const created = stubPortal();
    const { user, dialog, field, subscribe } = await openDialog();
    await user.selectOptions(field('Frequency'), 'Monthly');
    await user.keyboard('{Escape}');
    expect(dialog).not.toBeInTheDocument();
    expect(subscribe).toHaveFocus();
    await user.click(subscribe);
    const again = await screen.findByRole('dialog', { name: 'Email this dashboard' });
    expect(within(again).getByLabelText('Frequency')).toHaveValue('DAILY');
    await user.click(within(again).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(created).toHaveLength(0);
  });

  it('is in the More menu on a phone', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(max-width: 480px)',
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    stubPortal();
    renderHome();
    await screen.findByText('Powered by AWS QuickSight');
    const user = userEvent.setup();
    const more = screen.getByRole('button', { name: 'More dashboard actions' });
    await user.click(more);
    await user.click(screen.getByRole('menuitem', { name: 'Subscribe' }));
    const dialog = await screen.findByRole('dialog', { name: 'Email this dashboard' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(more).toHaveFocus();
  });

  it('is off, saying why, for a view not linked to a dashboard', async () => {
    const unlinked = { id: 'v-unlinked', name: 'Unlinked Report', quicksightDashboardId: null, isDefault: true };
    const views = [unlinked, ...VIEWS.map((view) => ({ ...view, isDefault: false }))];
    stubBackend(views, embedOk());
    const { unmount } = renderHome();
    await screen.findByText(/This view is not linked to a dashboard\. Ask your administrator/);
    const toolbar = screen.getByRole('toolbar', { name: 'Dashboard actions' });
    expect(within(toolbar).getByRole('button', { name: 'Subscribe' })).toBeDisabled();
    unmount();

    // On a phone the menu says why.
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(max-width: 480px)',
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    renderHome();
    await screen.findByText(/This view is not linked to a dashboard\. Ask your administrator/);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'More dashboard actions' }));
    const entry = screen.getByRole('menuitem', { name: /Subscribe/ });
    expect(entry).toHaveTextContent('SubscribeThis view is not linked to a dashboard');
    expect(entry).toHaveAttribute('aria-disabled', 'true');
    expect(entry).toHaveAccessibleDescription('This view is not linked to a dashboard');
    await user.click(entry);
    expect(screen.queryByRole('dialog', { name: 'Email this dashboard' })).not.toBeInTheDocument();
  });
});
