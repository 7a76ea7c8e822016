import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it, vi } from 'vitest';
import { SUBSCRIPTION_MESSAGES, type Subscription } from '#contracts/subscriptions.ts';
import SettingsPage from '#web/features/settings/routes/settings-page.tsx';
import {
  CREATE_SUBSCRIPTION,
  DELETE_SUBSCRIPTION,
  LIST_MY_SUBSCRIPTIONS,
  SET_SUBSCRIPTION_PAUSED,
} from '#web/lib/subscriptions/api.ts';
import { testConfig } from './support/config.ts';
import { fakeAuth, jsonResponse, renderPage, userSession } from './support/render.tsx';

const subscription = (fields: Partial<Subscription> & Pick<Subscription, 'id'>): Subscription => ({
  dashboardId: 'sales',
  dashboardName: 'Sales Performance',
  format: 'PDF',
  frequency: 'DAILY',
  weekday: null,
  dayOfMonth: null,
  time: '08:00',
  timeZone: 'Europe/London',
  company: null,
  status: 'ACTIVE',
  nextDeliveryAt: null,
  lastDeliveryAt: null,
  lastOutcome: null,
  lastError: null,
  createdAt: '2026-07-01T09:00:00.000Z',
  ...fields,
});

const MAILBOX_FULL = '552 5.2.2 The recipient mailbox is full';

const weekly = subscription({
  id: 'sub-weekly',
  frequency: 'WEEKLY',
  weekday: 'MONDAY',
  nextDeliveryAt: '2026-08-10T07:00:00.000Z',
  lastDeliveryAt: '2026-08-03T07:00:00.000Z',
  lastOutcome: 'DELIVERED',
});
const monthly = subscription({
  id: 'sub-monthly',
  dashboardId: 'scorecard',
  dashboardName: 'Distributor Scorecard',
  format: 'CSV',
  frequency: 'MONTHLY',
  dayOfMonth: 1,
  time: '06:30',
  timeZone: 'America/New_York',
  company: 'Birch',
  nextDeliveryAt: '2026-09-01T10:30:00.000Z',
  lastDeliveryAt: '2026-08-01T10:30:00.000Z',
  lastOutcome: 'FAILED',
  lastError: MAILBOX_FULL,
});
/** Paused, never sent, and its dashboard gone from the catalogue (no name). */
const paused = subscription({
  id: 'sub-paused',
  dashboardId: 'retired-dashboard',
  dashboardName: null,
  time: '18:00',
  timeZone: 'Asia/Tokyo',
  status: 'PAUSED',
});

/** As the portal shows a time: the browser's locale, on the clock of the subscription's zone. */
const shownTime = (iso: string, timeZone: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone });

type Request = { query: string; variables: Record<string, unknown> };
type Answer = (request: Request) => Response | undefined;

const answer = (field: string, value: unknown) => jsonResponse({ data: { [field]: value } });
const refusal = (message: string) => jsonResponse({ data: null, errors: [{ message }] });

/** The GraphQL API: listMySubscriptions answers `list`, the rest `respond`; records the mutations. */
function stubApi(list: Subscription[] | (() => Response), respond: Answer = () => undefined) {
  const mutations: Request[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      expect(String(input)).toBe(testConfig.graphqlUrl);
      expect(new Headers(init?.headers).get('authorization')).toBe('access-token');
      const request = JSON.parse(String(init?.body)) as Request;
      if (request.query.includes('listMySubscriptions'))
        return typeof list === 'function' ? list() : answer('listMySubscriptions', list);
      mutations.push(request);
      const response = respond(request);
      if (!response) throw new Error(`unexpected request ${request.query}`);
      return response;
    }),
  );
  return mutations;
}

/** Settings, once its subscriptions card (a chunk of its own) has arrived. */
const renderSettings = async () => {
  renderPage(<SettingsPage />, { auth: fakeAuth({ session: userSession() }), path: '/settings' });
  return { card: await screen.findByRole('region', { name: 'Subscriptions' }), user: userEvent.setup() };
};

/** A row's details, term by term. */
const details = (row: HTMLElement) =>
  Object.fromEntries(
    within(row)
      .getAllByRole('term')
      .map((term) => [term.textContent, term.nextElementSibling?.textContent]),
  );

describe('the Subscriptions card in Settings', () => {
  it('lists each subscription with its schedule in words, its company, and its next and last delivery', async () => {
    stubApi([weekly, monthly, paused]);
    const { card } = await renderSettings();
    const list = await within(card).findByRole('list', { name: 'Subscriptions' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => within(row).getByRole('link').textContent)).toEqual([
      'Sales Performance',
      'Distributor Scorecard',
      'retired-dashboard',
    ]);

    const sales = within(list).getByRole('listitem', { name: 'Sales Performance' });
    expect(within(sales).getByRole('link', { name: 'Sales Performance' })).toHaveAttribute('href', '/dashboards/sales');
    expect(within(sales).getByText('Active')).toBeInTheDocument();
    expect(details(sales)).toEqual({
      Format: 'PDF',
      Schedule: 'Weekly on Monday at 08:00 (Europe/London)',
      'Next delivery': shownTime('2026-08-10T07:00:00.000Z', 'Europe/London'),
      'Last delivery': `${shownTime('2026-08-03T07:00:00.000Z', 'Europe/London')} — Delivered`,
    });
    // On the clock of its zone: 07:00 UTC is 08:00 in London in August.
    expect(details(sales)['Next delivery']).toMatch(/8:00/);
    expect(within(sales).getByRole('button', { name: 'Pause Sales Performance' })).toHaveTextContent(/^Pause$/);

    const scorecard = within(list).getByRole('listitem', { name: 'Distributor Scorecard' });
    expect(details(scorecard)).toEqual({
      Format: 'CSV',
      Schedule: 'Monthly on the 1st at 06:30 (America/New_York)',
      Company: 'Birch',
      'Next delivery': shownTime('2026-09-01T10:30:00.000Z', 'America/New_York'),
      'Last delivery': `${shownTime('2026-08-01T10:30:00.000Z', 'America/New_York')} — Failed: ${MAILBOX_FULL}`,
    });
    expect(details(scorecard)['Last delivery']).toMatch(/6:30/);

    const retired = within(list).getByRole('listitem', { name: 'retired-dashboard' });
    expect(within(retired).getByText('Paused')).toBeInTheDocument();
    expect(details(retired)).toEqual({
      Format: 'PDF',
      Schedule: 'Daily at 18:00 (Asia/Tokyo)',
      'Next delivery': 'None while paused',
      'Last delivery': 'Not sent yet',
    });
    expect(within(retired).getByRole('button', { name: 'Resume retired-dashboard' })).toHaveTextContent(/^Resume$/);
    expect(card).not.toHaveTextContent(SUBSCRIPTION_MESSAGES.tooMany);
  });

  it('pauses and resumes a subscription, showing what the API answers', async () => {
    const mutations = stubApi([weekly, monthly], ({ variables }) =>
      answer(
        'setSubscriptionPaused',
        variables.paused
          ? { ...weekly, status: 'PAUSED', nextDeliveryAt: null }
          : { ...weekly, nextDeliveryAt: '2026-08-17T07:00:00.000Z' },
      ),
    );
    const { card, user } = await renderSettings();
    await user.click(await within(card).findByRole('button', { name: 'Pause Sales Performance' }));

    expect(await screen.findByText('Paused: Sales Performance. Nothing is sent until you resume it.')).toBeVisible();
    const sales = within(card).getByRole('listitem', { name: 'Sales Performance' });
    expect(within(sales).getByText('Paused')).toBeInTheDocument();
    expect(details(sales)['Next delivery']).toBe('None while paused');
    expect(mutations[0]!.query).toMatch(/^\s*mutation SetSubscriptionPaused\(\$id: ID!, \$paused: Boolean!\)/);
    expect(mutations[0]!.variables).toEqual({ id: 'sub-weekly', paused: true });
    // The other row is as it was.
    expect(within(card).getByRole('button', { name: 'Pause Distributor Scorecard' })).toBeEnabled();

    await user.click(within(sales).getByRole('button', { name: 'Resume Sales Performance' }));
    const next = shownTime('2026-08-17T07:00:00.000Z', 'Europe/London');
    expect(
      await screen.findByText(
        `Resumed: Sales Performance, weekly on Monday at 08:00 (Europe/London). Next delivery: ${next}.`,
      ),
    ).toBeVisible();
    expect(mutations[1]!.variables).toEqual({ id: 'sub-weekly', paused: false });
    expect(within(sales).getByText('Active')).toBeInTheDocument();
    expect(details(sales)['Next delivery']).toBe(next);
    expect(within(sales).getByRole('button', { name: 'Pause Sales Performance' })).toHaveFocus();
  });

  it('keeps the row as it was and says why when a change is refused', async () => {
    stubApi([weekly], () => refusal(SUBSCRIPTION_MESSAGES.notFound));
    const { card, user } = await renderSettings();
    await user.click(await within(card).findByRole('button', { name: 'Pause Sales Performance' }));
    const alert = await within(card).findByRole('alert');
    expect(alert).toHaveTextContent(`Failed to pause the subscription${SUBSCRIPTION_MESSAGES.notFound}`);
    expect(within(card).getByText('Active')).toBeInTheDocument();
  });

  it('deletes a subscription after a confirmation naming its dashboard', async () => {
    const mutations = stubApi([weekly, monthly], ({ variables }) =>
      answer('deleteSubscription', variables.id === monthly.id ? monthly : weekly),
    );
    const { card, user } = await renderSettings();
    const remove = await within(card).findByRole('button', { name: 'Delete Distributor Scorecard' });

    // Cancel (which has the focus, so Enter deletes nothing) sends nothing.
    await user.click(remove);
    let dialog = screen.getByRole('alertdialog', { name: 'Delete subscription?' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(mutations).toHaveLength(0);
    // The dialog gives the focus back once it has closed.
    await waitFor(() => expect(remove).toHaveFocus());

    await user.click(remove);
    dialog = screen.getByRole('alertdialog', { name: 'Delete subscription?' });
    expect(dialog).toHaveTextContent(
      'Stop emailing Distributor Scorecard (CSV, monthly on the 1st at 06:30 (America/New_York))? ' +
        'You can subscribe again from the dashboard.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Delete subscription' }));

    expect(await screen.findByText('Deleted the subscription to Distributor Scorecard.')).toBeVisible();
    expect(mutations).toHaveLength(1);
    expect(mutations[0]!.query).toMatch(/^\s*mutation DeleteSubscription\(\$id: ID!\)/);
    expect(mutations[0]!.variables).toEqual({ id: 'sub-monthly' });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(within(card).queryByRole('listitem', { name: 'Distributor Scorecard' })).not.toBeInTheDocument();
    expect(within(card).getByRole('listitem', { name: 'Sales Performance' })).toBeInTheDocument();
    // The focus goes to the card's title, the row it was in being gone.
    await waitFor(() =>
      expect(within(card).getByRole('heading', { name: 'Subscriptions' }).firstElementChild).toHaveFocus(),
    );
  });

  it('says there are none and that Subscribe on a dashboard adds one', async () => {
    stubApi([]);
    const { card } = await renderSettings();
    expect(await within(card).findByText('You have no subscriptions.')).toBeInTheDocument();
    expect(card).toHaveTextContent(
      'Choose Subscribe on a dashboard to have it emailed to you as a PDF or CSV file, on the schedule you choose.',
    );
    expect(within(card).getByRole('link', { name: 'Go to your dashboards' })).toHaveAttribute('href', '/home');
    expect(within(card).queryByRole('list')).not.toBeInTheDocument();
  });

  it('says the list could not be loaded, with the reason, and loads it again on Retry', async () => {
    let failing = true;
    stubApi(() =>
      failing
        ? refusal('Not Authorized to access listMySubscriptions on type Query')
        : answer('listMySubscriptions', [weekly]),
    );
    const { card, user } = await renderSettings();
    const alert = await within(card).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load subscriptions');
    expect(alert).toHaveTextContent('Not Authorized to access listMySubscriptions on type Query');
    // A failure never reads as an empty list.
    expect(card).not.toHaveTextContent('You have no subscriptions.');
    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await within(card).findByRole('listitem', { name: 'Sales Performance' })).toBeInTheDocument();
    expect(within(card).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says when the most subscriptions allowed are reached', async () => {
    stubApi(Array.from({ length: 10 }, (_, index) => subscription({ id: `sub-${index}` })));
    const { card } = await renderSettings();
    expect(await within(card).findByText(SUBSCRIPTION_MESSAGES.tooMany)).toBeInTheDocument();
  });

  it('shows the loading state until the list arrives', async () => {
    let release: ((response: Response) => void) | undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (release = resolve))),
    );
    const { card } = await renderSettings();
    expect(within(card).getByRole('status')).toHaveTextContent('Loading subscriptions...');
    await waitFor(() => expect(release).toBeDefined());
    release!(answer('listMySubscriptions', []));
    expect(await within(card).findByText('You have no subscriptions.')).toBeInTheDocument();
    expect(within(card).queryByRole('status')).not.toBeInTheDocument();
  });
});

describe("the card's GraphQL documents", () => {
  // AppSync defines its scalars (AWSDateTime…) before it reads a schema.
  const sdl = readFileSync(resolve('contracts/schema.graphql'), 'utf8');
  const scalars = [...new Set(sdl.match(/\bAWS[A-Z]\w+/g))].map((name) => `scalar ${name}`).join('\n');
  const schema = buildSchema(`${scalars}\n${sdl}`);

  it.each([
    ['listMySubscriptions', LIST_MY_SUBSCRIPTIONS],
    ['createSubscription', CREATE_SUBSCRIPTION],
    ['setSubscriptionPaused', SET_SUBSCRIPTION_PAUSED],
    ['deleteSubscription', DELETE_SUBSCRIPTION],
  ])('%s is valid against contracts/schema.graphql', (_name, document) => {
    expect(validate(schema, parse(document)).map((error) => error.message)).toEqual([]);
  });
});
