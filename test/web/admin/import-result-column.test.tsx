import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import UsersPage from '#web/features/admin/routes/users-page.tsx';
import {
  catalogueEntry,
  company,
  fakeAdminApi,
  listCompaniesOf,
  managedUser,
  renderAdmin,
  stubViewport,
} from './support.tsx';

const catalogue = ['sales-performance', 'inventory-margins'].map((dashboardId) =>
  catalogueEntry(dashboardId, dashboardId),
);
const longEmail = `${'a'.repeat(30)}.${'b'.repeat(30)}@${'c'.repeat(40)}.example.com`;
const csv = [
  'email,companyName,dashboards,defaultDashboard,role',
  `${longEmail},Acme,sales-performance;inventory-margins,inventory-margins,Users`,
  'existing@example.com,Acme,sales-performance,,',
  'bad-address,Acme,sales-performance,,',
  'dana@example.com,Acme,nope,,',
].join('\n');

async function openPreview() {
  const api = fakeAdminApi({
    users: { listUsers: vi.fn(async () => [managedUser('existing@example.com')]) },
    quicksight: { listCatalogue: vi.fn(async () => catalogue), listCompanies: listCompaniesOf([company('Acme')]) },
  });
  renderAdmin(<UsersPage />, { api });
  const user = userEvent.setup();
  await screen.findByText('existing@example.com');
  await user.click(screen.getByRole('button', { name: 'Import Users' }));
  const dialog = await screen.findByRole('dialog', { name: 'Import Users' });
  await waitFor(() => expect(within(dialog).getByLabelText('CSV file')).toBeEnabled());
  await user.upload(within(dialog).getByLabelText('CSV file'), new File([csv], 'people.csv', { type: 'text/csv' }));
  return within(dialog).findByRole('region', { name: 'Rows of the file' });
}

beforeEach(() => stubViewport());

describe('Import preview: the Result column', () => {
  it('comes right after the email, and every row says what will happen or why it is skipped', async () => {
    const preview = await openPreview();
    expect(
      within(preview)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Line', 'Email', 'Result', 'Company', 'Dashboards', 'Default', 'Role']);
    const rows = within(preview).getAllByRole('row').slice(1);
    const results = rows.map((row) => {
      const cells = within(row).getAllByRole('cell');
      expect(cells.map((cell) => cell.getAttribute('data-label'))).toEqual([
        'Line',
        'Email',
        'Result',
        'Company',
        'Dashboards',
        'Default',
        'Role',
      ]);
      return [cells[1]!.textContent, cells[2]!.textContent];
    });
    expect(results).toEqual([
      [longEmail, 'Ready'],
      ['existing@example.com', 'Already existsNothing was changed'],
      ['bad-address', expect.stringMatching(/^Will be skippedPlease enter a valid email address/)],
      ['dana@example.com', expect.stringMatching(/^Will be skipped.*nope/)],
    ]);
  });

  it('never scrolls sideways in the box that scrolls the rows: the columns fit and long values wrap', () => {
    const css = readFileSync(resolve('web/src/features/admin/components/import-users-dialog.css'), 'utf8');
    const rule = (selector: string) => {
      const start = css.indexOf(`${selector} {`);
      expect(start, selector).toBeGreaterThanOrEqual(0);
      return css.slice(start, css.indexOf('}', start));
    };
    const box = rule(".import-preview.table-scroll[role='region']");
    expect(box).toContain('overflow-x: hidden');
    expect(box).toContain('overflow-y: auto');
    expect(rule('.import-preview-table')).toContain('table-layout: fixed');
    expect(rule('.import-preview-table td')).toContain('overflow-wrap: anywhere');
  });
});
