import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { InsightsUser } from '#contracts/insights.ts';
import { CognitoUsersTable } from '#web/features/admin/components/cognito-users-table.tsx';
import { CompaniesTable } from '#web/features/admin/components/companies-table.tsx';
import { InsightsUsersTable } from '#web/features/admin/components/insights-users-table.tsx';
import { UsersTable } from '#web/features/admin/components/users-table.tsx';
import { CARD_LAYOUT_QUERY } from '#web/lib/use-media-query.ts';
import { ADMIN_EMAIL, company, managedUser, registered, stubViewport } from './support.tsx';

/** 100 characters, no spaces: too long for any column or card line. */
const LONG_EMAIL = `${'a'.repeat(88)}@example.com`;
const LONG_COMPANY = 'N'.repeat(100);

/** A window as narrow as a phone: the card layout's media query matches. */
function stubPhoneWidth() {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === CARD_LAYOUT_QUERY,
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  }));
}

const noAction = () => undefined;

/** The card (row) of a list that shows this text. */
const cardOf = (text: string) => screen.getByText(text, { selector: '[title]' }).closest('tr')!;

beforeEach(() => {
  stubViewport();
  stubPhoneWidth();
});

describe('admin lists on a phone', () => {
  it('Manage Users shows every user as a card with its email and its menu', async () => {
    expect(LONG_EMAIL).toHaveLength(100);
    const users = [
      managedUser(ADMIN_EMAIL, { cognitoGroup: 'Admins' }),
      managedUser('jane.doe@example.com', { companies: ['Acme'] }),
      managedUser(LONG_EMAIL),
    ];
    render(<UsersTable users={users} signedInEmail={ADMIN_EMAIL} busyEmail={null} query="" onAction={noAction} />);

    const table = screen.getByRole('table', { name: 'All Users' });
    expect(table).toHaveClass('vtable-cards');
    for (const user of users) {
      const card = cardOf(user.email);
      expect(within(card).getByRole('button', { name: `Actions for ${user.email}` })).toBeInTheDocument();
    }
    expect(within(cardOf('jane.doe@example.com')).getByText('Acme')).toBeInTheDocument();

    await userEvent.setup().click(screen.getByRole('button', { name: 'Actions for jane.doe@example.com' }));
    expect(screen.getByRole('menuitem', { name: 'Edit' })).toBeInTheDocument();
  });

  it('Manage Dashboards shows every Cognito user as a card with its status and its menu', async () => {
    const users = [
      registered(ADMIN_EMAIL, 'ADMIN', 'Admins'),
      registered('jane.doe@example.com'),
      registered(LONG_EMAIL),
    ];
    render(
      <CognitoUsersTable users={users} signedInEmail={ADMIN_EMAIL} busyEmail={null} query="" onAction={noAction} />,
    );

    expect(screen.getByRole('table', { name: 'Cognito Users' })).toHaveClass('vtable-cards');
    for (const user of users) {
      const card = cardOf(user.email);
      expect(within(card).getByText('Registered')).toBeInTheDocument();
      expect(within(card).getByRole('button', { name: `Actions for ${user.email}` })).toBeInTheDocument();
    }
    await userEvent.setup().click(screen.getByRole('button', { name: `Actions for ${LONG_EMAIL}` }));
    expect(screen.getByRole('menuitem', { name: 'Dashboards' })).toBeInTheDocument();
  });

  it('Companies shows every company as a card with its menu', () => {
    const companies = [company('Acme', { userCount: 3 }), company(LONG_COMPANY)];
    render(<CompaniesTable companies={companies} query="" dashboardNames={new Map()} onAction={noAction} />);

    expect(screen.getByRole('table', { name: 'Companies' })).toHaveClass('vtable-cards');
    for (const { name } of companies) {
      expect(within(cardOf(name)).getByRole('button', { name: `Actions for ${name}` })).toBeInTheDocument();
    }
  });

  it('the Insights user list shows every user as a card', () => {
    const insightsUser = (email: string): InsightsUser => ({
      email,
      companies: ['Acme'],
      lastSeenAt: null,
      recentViews: 0,
      assigned: [],
    });
    render(
      <InsightsUsersTable
        users={[insightsUser('jane.doe@example.com'), insightsUser(LONG_EMAIL)]}
        complete
        range={{ from: '2026-03-01', to: '2026-03-31' }}
      />,
    );

    expect(screen.getByRole('table', { name: 'Users' })).toHaveClass('vtable-cards');
    expect(within(cardOf('jane.doe@example.com')).getByText('Acme')).toBeInTheDocument();
    expect(cardOf(LONG_EMAIL)).toBeInTheDocument();
  });
});

describe('long names and emails', () => {
  it('keep their full text in a title wherever a list may cut them short', () => {
    render(
      <>
        <UsersTable
          users={[managedUser(LONG_EMAIL)]}
          signedInEmail={ADMIN_EMAIL}
          busyEmail={null}
          query=""
          onAction={noAction}
        />
        <CompaniesTable companies={[company(LONG_COMPANY)]} query="" dashboardNames={new Map()} onAction={noAction} />
      </>,
    );
    const email = screen.getByText(LONG_EMAIL, { selector: '[title]' });
    expect(email).toHaveAttribute('title', LONG_EMAIL);
    expect(email).toHaveClass('truncate');
    const name = screen.getByText(LONG_COMPANY, { selector: '[title]' });
    expect(name).toHaveAttribute('title', LONG_COMPANY);
    expect(name).toHaveClass('truncate');
  });
});
