import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DashboardMetadata } from '#contracts/quicksight-admin.ts';
import UsersPage from '#web/features/admin/routes/users-page.tsx';
import {
  catalogueEntry,
  company,
  fakeAdminApi,
  listCompaniesOf,
  managedUser,
  renderAdmin,
  stubViewport,
  type AdminApiOverrides,
} from './support.tsx';

const catalogue = ['sales-performance', 'inventory-margins'].map((dashboardId) =>
  catalogueEntry(dashboardId, dashboardId),
);

async function openImport(quicksight: AdminApiOverrides['quicksight'] = {}) {
  const api = fakeAdminApi({
    users: { listUsers: vi.fn(async () => [managedUser('existing@example.com')]) },
    quicksight: {
      listCatalogue: vi.fn(async () => catalogue),
      listCompanies: listCompaniesOf([company('Acme')]),
      ...quicksight,
    },
  });
  renderAdmin(<UsersPage />, { api });
  const user = userEvent.setup();
  await screen.findByText('existing@example.com');
  await user.click(screen.getByRole('button', { name: 'Import Users' }));
  const dialog = await screen.findByRole('dialog', { name: 'Import Users' });
  const upload = (lines: readonly string[], name = 'people.csv') =>
    user.upload(
      within(dialog).getByLabelText('CSV file'),
      new File([['email,companyName,dashboards', ...lines].join('\n')], name, { type: 'text/csv' }),
    );
  return { dialog, user, upload };
}

beforeEach(() => stubViewport());

describe('Import Users', () => {
  it('previews a file chosen while the catalogue and the companies are still loading, once they are there', async () => {
    let answer: (list: DashboardMetadata[]) => void = () => undefined;
    const { dialog, upload } = await openImport({
      listCatalogue: vi.fn(() => new Promise<DashboardMetadata[]>((resolve) => (answer = resolve))),
    });
    expect(within(dialog).getByText('Loading the dashboard catalogue and the companies...')).toBeInTheDocument();
    await upload(['ann@example.com,Acme,sales-performance'], 'early.csv');
    expect(within(dialog).queryByRole('region', { name: 'Rows of the file' })).not.toBeInTheDocument();
    answer(catalogue);
    expect(await within(dialog).findByText(/early.csv: 1 row — 1 ready/)).toBeInTheDocument();
    expect(within(dialog).getByRole('region', { name: 'Rows of the file' })).toHaveTextContent('ann@example.com');
    expect(within(dialog).getByRole('button', { name: 'Import 1 user' })).toBeEnabled();
  });

  it("draws the file field as the portal's own button with the chosen file's name, not the browser's Choose File control", async () => {
    const { dialog, upload } = await openImport();
    const input = within(dialog).getByLabelText('CSV file');
    // The native input stays (keyboard, screen reader, upload), out of sight, labelled by the field and the button.
    expect(input).toHaveAttribute('type', 'file');
    expect(input).toHaveClass('visually-hidden');
    expect(input).toHaveAccessibleName('CSV file Choose a CSV file');
    const button = within(dialog).getByText('Choose a CSV file');
    expect(button.tagName).toBe('LABEL');
    expect(button).toHaveClass('btn', 'btn-secondary');
    expect(within(dialog).getByText('No file chosen')).toBeInTheDocument();
    await upload(['ann@example.com,Acme,sales-performance'], 'spring-cohort.csv');
    expect(within(dialog).queryByText('No file chosen')).not.toBeInTheDocument();
    expect(within(dialog).getByText('spring-cohort.csv', { selector: '.file-picker-name' })).toBeInTheDocument();
    // The header is one long word that may break anywhere on a phone instead of widening the dialog.
    expect(
      within(dialog).getByText('email,companyName,dashboards,defaultDashboard,role', { selector: 'code' }).closest('p'),
    ).toHaveClass('import-columns');
  });

  it('says "1 already exists", and a row\'s reasons each end in one full stop', async () => {
    const { dialog, upload } = await openImport();
    // Two reasons, one of which ends in a full stop of its own.
    await upload(['existing@example.com,Acme,sales-performance', 'dana@example.com,Acme,,nope']);
    expect(
      await within(dialog).findByText('people.csv: 2 rows — 0 ready, 1 will be skipped, 1 already exists.'),
    ).toBeInTheDocument();
    const dana = within(dialog).getByText('dana@example.com').closest('tr')!;
    expect(dana).toHaveTextContent('The row has 4 cells; the header has 3. Please select at least one dashboard.');
    expect(dana.textContent).not.toContain('..');
  });

  it('says what the import did when it ends, not "5 of 5"', async () => {
    const importUser = vi.fn(async (row: { userEmail: string }) =>
      row.userEmail === 'eve@example.com'
        ? { outcome: 'exists' as const, message: 'The account exists already', userEmail: row.userEmail }
        : { outcome: 'created' as const, message: 'Account created and invitation sent', userEmail: row.userEmail },
    );
    const { dialog, user, upload } = await openImport({ importUser });
    await upload(['ann', 'bob', 'cat', 'dan', 'eve'].map((name) => `${name}@example.com,Acme,sales-performance`));
    await user.click(await within(dialog).findByRole('button', { name: 'Import 5 users' }));
    expect(await within(dialog).findByText('4 created, 1 already existed, 0 failed, 0 skipped.')).toBeInTheDocument();
    const progress = within(dialog).getByRole('progressbar');
    expect(progress).toHaveAccessibleName('Import finished');
    await waitFor(() => expect(progress).toHaveAttribute('value', '5'));
  });
});
