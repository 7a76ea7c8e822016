import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import SupportPage from '#web/features/support/routes/support-page.tsx';
import { testConfig } from './support/config.ts';
import { fakeAuth, jsonResponse, renderPage, userSession } from './support/render.tsx';

const renderSupport = () =>
  renderPage(<SupportPage />, { auth: fakeAuth({ session: userSession() }), path: '/support' });

function stubContact(answer: () => Response) {
  const bodies: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      expect(String(input)).toBe(testConfig.functions.contact);
      bodies.push(JSON.parse(String(init?.body)));
      return answer();
    }),
  );
  return bodies;
}

describe('support form', () => {
  it('prefills the read-only email and offers the three priorities, normal first chosen', () => {
    renderSupport();
    const email = screen.getByLabelText('Email Address');
    expect(email).toHaveValue('jane.doe@example.com');
    expect(email).toHaveAttribute('readonly');
    const priority = screen.getByLabelText('Priority') as HTMLSelectElement;
    expect(priority).toHaveValue('normal');
    expect([...priority.options].map((o) => o.value)).toEqual(['high', 'normal', 'low']);
    expect(screen.getByLabelText('Description')).toHaveAttribute('rows', '10');
  });

  it('requires a subject and a description', async () => {
    const bodies = stubContact(() => jsonResponse({ message: 'sent' }));
    renderSupport();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Subject is a required field')).toBeInTheDocument();
    expect(screen.getByText('Description is a required field')).toBeInTheDocument();
    expect(bodies).toEqual([]);
  });

  it('sends the message, shows the server answer and resets the form', async () => {
    const bodies = stubContact(() => jsonResponse({ message: 'Your message has been sent.' }));
    renderSupport();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Subject'), 'Access to the scorecard');
    await user.selectOptions(screen.getByLabelText('Priority'), 'high');
    await user.type(screen.getByLabelText('Description'), 'Please add the distributor scorecard.');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Your message has been sent.')).toBeInTheDocument();
    expect(bodies).toEqual([
      {
        email: 'jane.doe@example.com',
        subject: 'Access to the scorecard',
        priority: 'high',
        message: 'Please add the distributor scorecard.',
      },
    ]);
    await waitFor(() => expect(screen.getByLabelText('Subject')).toHaveValue(''));
    expect(screen.getByLabelText('Priority')).toHaveValue('normal');
  });

  it('shows the connection toast on any failure and keeps the text', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubContact(() => new Response('{"error":"Too many messages"}', { status: 429 }));
    renderSupport();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Subject'), 'Hello');
    await user.type(screen.getByLabelText('Description'), 'Body');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Something went wrong! Please check your internet connection.')).toBeInTheDocument();
    expect(screen.getByLabelText('Subject')).toHaveValue('Hello');
  });
});
