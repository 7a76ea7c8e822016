import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { COMPANY_MESSAGES, type AccessCheck, type Company } from '#contracts/companies.ts';
import CompaniesPage from '#web/features/admin/routes/companies-page.tsx';
import {
  apiError,
  catalogueEntry,
  chooseRowAction,
  company,
  fakeAdminApi,
  listCompaniesOf,
  renderAdmin,
  stubViewport,
  type AdminApiOverrides,
} from './support.tsx';

const acme = company('Acme Manufacturing', { userCount: 3, dashboards: ['sales-performance', 'inventory-margins'] });
const globex = company('Globex Distribution', { kind: 'distributor', userCount: 1, dashboards: ['sales-performance'] });
const harbor = company('Harbor Capital', { kind: 'owner', userCount: 0 });

const catalogue = [
  catalogueEntry('sales-performance', 'Sales Performance'),
  catalogueEntry('inventory-margins', 'Inventory Margins'),
];

const check = (overrides: Partial<AccessCheck> = {}): AccessCheck => ({
  checkedAt: '2026-03-14T10:00:00.000Z',
  checkedBy: 'demo.admin@example.com',
  fix: false,
  quicksightCalls: 12,
  differences: [],
  ...overrides,
});

const memberMissing = {
  kind: 'member-missing' as const,
  company: 'Globex Distribution',
  subject: 'dina@example.com',
  expected: 'in group portal-company-globex-distribution',
  found: 'not a member',
};
const notScoped = {
  kind: 'dashboard-not-scoped' as const,
  company: null,
  subject: 'sales-performance',
  expected: 'company-scoped or shared data confirmed',
  found: 'dataset sales-2026 does not apply the rules',
};

function renderCompanies(
  companies: readonly Company[] = [acme, globex, harbor],
  lastCheck: AccessCheck | null = null,
  overrides: AdminApiOverrides['quicksight'] = {},
) {
  const api = fakeAdminApi({
    quicksight: {
      listCompanies: listCompaniesOf(companies, lastCheck),
      listCatalogue: vi.fn(async () => catalogue),
      ...overrides,
    },
  });
  renderAdmin(<CompaniesPage />, { api, path: '/admin/companies' });
  return { api, user: userEvent.setup() };
}

const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr')!;

beforeEach(() => stubViewport());

describe('Companies page: the table', () => {
  it('lists every company with its kind, users and dashboards in use by name', async () => {
    renderCompanies();
    expect(screen.getByRole('heading', { level: 1, name: 'Companies' })).toBeInTheDocument();
    const acmeRow = await rowOf('Acme Manufacturing');
    const table = screen.getByRole('table', { name: 'Companies' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name', 'Kind', 'Users', 'Dashboards', 'Actions']);
    expect(within(acmeRow).getByText('Manufacturer')).toBeInTheDocument();
    expect(within(acmeRow).getByText('3')).toBeInTheDocument();
    expect(acmeRow).toHaveTextContent('2 · Sales Performance, Inventory Margins');
    const globexRow = await rowOf('Globex Distribution');
    expect(within(globexRow).getByText('Distributor')).toBeInTheDocument();
    expect(globexRow).toHaveTextContent('1 · Sales Performance');
    const harborRow = await rowOf('Harbor Capital');
    expect(within(harborRow).getByText('Private-equity firm')).toBeInTheDocument();
    expect(harborRow).toHaveTextContent('0');
  });

  it('filters the companies with the search box', async () => {
    const { user } = renderCompanies();
    await rowOf('Acme Manufacturing');
    await user.type(screen.getByRole('searchbox', { name: 'Search companies' }), 'glob');
    await waitFor(() => expect(screen.queryByText('Acme Manufacturing')).not.toBeInTheDocument());
    expect(screen.getByText('Globex Distribution')).toBeInTheDocument();
  });
});

describe('Companies page: add, edit and delete', () => {
  it('checks the name with the server rules, sends nothing while it is wrong, then creates the company', async () => {
    const createCompany = vi.fn(async (fields: { name: string; kind: Company['kind'] }) => ({
      message: COMPANY_MESSAGES.created,
      company: company(fields.name, { kind: fields.kind }),
    }));
    const { user } = renderCompanies(undefined, null, { createCompany });
    await rowOf('Acme Manufacturing');
    await user.click(screen.getByRole('button', { name: 'Add company' }));
    const dialog = screen.getByRole('dialog', { name: 'Add company' });
    expect(
      within(dialog)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Manufacturer', 'Distributor', 'Private-equity firm']);
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText(COMPANY_MESSAGES.nameRequired)).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Name'), 'x'.repeat(101));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText(COMPANY_MESSAGES.nameTooLong)).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.click(within(dialog).getByLabelText('Name'));
    await user.paste('Initech\u200B');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText(COMPANY_MESSAGES.nameControl)).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), 'acme manufacturing');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText(COMPANY_MESSAGES.nameTaken('acme manufacturing'))).toBeInTheDocument();
    expect(createCompany).not.toHaveBeenCalled();

    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), '  Initech  ');
    await user.selectOptions(within(dialog).getByLabelText('Kind'), 'distributor');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(createCompany).toHaveBeenCalledWith({ name: 'Initech', kind: 'distributor' }));
    expect(await screen.findByText(COMPANY_MESSAGES.created)).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Add company' })).not.toBeInTheDocument();
    expect(within(await rowOf('Initech')).getByText('Distributor')).toBeInTheDocument();
  });

  it('renames a company and changes its kind', async () => {
    const updateCompany = vi.fn(async (companyId: string, fields: { name: string; kind: Company['kind'] }) => ({
      message: COMPANY_MESSAGES.updated,
      company: { ...globex, id: companyId, ...fields },
    }));
    const { user } = renderCompanies(undefined, null, { updateCompany });
    await chooseRowAction(user, 'Globex Distribution', 'Edit');
    const dialog = screen.getByRole('dialog', { name: 'Edit company' });
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Globex Distribution');
    expect(within(dialog).getByLabelText('Kind')).toHaveValue('distributor');
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), 'Globex Wholesale');
    await user.selectOptions(within(dialog).getByLabelText('Kind'), 'manufacturer');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() =>
      expect(updateCompany).toHaveBeenCalledWith(globex.id, { name: 'Globex Wholesale', kind: 'manufacturer' }),
    );
    expect(await screen.findByText(COMPANY_MESSAGES.updated)).toBeInTheDocument();
    expect(within(await rowOf('Globex Wholesale')).getByText('Manufacturer')).toBeInTheDocument();
    expect(screen.queryByText('Globex Distribution')).not.toBeInTheDocument();
  });

  it('shows the reason when the server refuses to delete a company that still has users, and keeps the row', async () => {
    const refusal = COMPANY_MESSAGES.hasUsers('Acme Manufacturing', 3);
    const deleteCompany = vi.fn(async () => Promise.reject(apiError(409, refusal)));
    const { user } = renderCompanies(undefined, null, { deleteCompany });
    await chooseRowAction(user, 'Acme Manufacturing', 'Delete');
    const dialog = screen.getByRole('alertdialog', { name: 'Delete company' });
    expect(dialog).toHaveTextContent('It still has 3 users');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByText(refusal)).toBeInTheDocument();
    expect(within(dialog).getByText('Failed to delete company')).toBeInTheDocument();
    expect(deleteCompany).toHaveBeenCalledWith(acme.id);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await rowOf('Acme Manufacturing')).toBeInTheDocument();
  });

  it('deletes a company without users after the confirmation', async () => {
    const deleteCompany = vi.fn(async () => ({ message: COMPANY_MESSAGES.deleted, company: harbor }));
    const { user } = renderCompanies(undefined, null, { deleteCompany });
    await chooseRowAction(user, 'Harbor Capital', 'Delete');
    await user.click(
      within(screen.getByRole('alertdialog', { name: 'Delete company' })).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText(COMPANY_MESSAGES.deleted)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Harbor Capital')).not.toBeInTheDocument());
    expect(deleteCompany).toHaveBeenCalledWith(harbor.id);
  });
});

describe('Companies page: company access', () => {
  const panel = () => screen.getByRole('region', { name: 'Company access' });

  it('says when nothing was checked yet and offers no Fix', async () => {
    renderCompanies();
    await rowOf('Acme Manufacturing');
    expect(within(panel()).getByText('Not checked yet')).toBeInTheDocument();
    expect(within(panel()).queryByRole('button', { name: 'Fix' })).not.toBeInTheDocument();
  });

  it('shows the last check with no differences as a match', async () => {
    renderCompanies(undefined, check({ checkedBy: 'schedule' }));
    await rowOf('Acme Manufacturing');
    expect(within(panel()).getByRole('status')).toHaveTextContent(
      `Last check: ${new Date('2026-03-14T10:00:00.000Z').toLocaleString()} by the daily check — no differences.`,
    );
    expect(within(panel()).getByText('QuickSight matches the portal')).toBeInTheDocument();
  });

  it('checks now and lists each difference; Fix then shows what was fixed and why the rest was not', async () => {
    const checkCompanyAccess = vi.fn(async (fix: boolean) =>
      fix
        ? check({
            checkedAt: '2026-03-14T11:05:00.000Z',
            fix: true,
            differences: [
              { ...memberMissing, fixed: true },
              { ...notScoped, fixed: false, note: 'Confirm shared data or attach the rules dataset.' },
            ],
          })
        : check({ checkedAt: '2026-03-14T11:00:00.000Z', differences: [memberMissing, notScoped] }),
    );
    const { user } = renderCompanies(undefined, null, { checkCompanyAccess });
    await rowOf('Acme Manufacturing');
    await user.click(within(panel()).getByRole('button', { name: 'Check now' }));
    await waitFor(() => expect(checkCompanyAccess).toHaveBeenCalledWith(false));
    expect(await screen.findByText('Check complete: 2 differences found.')).toBeInTheDocument();
    const table = within(panel()).getByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent))).toEqual([
      [
        'User missing from the company group',
        'Globex Distribution',
        'dina@example.com',
        memberMissing.expected,
        memberMissing.found,
      ],
      [
        'Dashboard shared across companies without row-level security',
        '—',
        'sales-performance',
        notScoped.expected,
        notScoped.found,
      ],
    ]);
    expect(within(panel()).getByRole('status')).toHaveTextContent('2 differences');

    await user.click(within(panel()).getByRole('button', { name: 'Fix' }));
    await waitFor(() => expect(checkCompanyAccess).toHaveBeenCalledWith(true));
    expect(await screen.findByText('Fixed 1 of 2 differences.')).toBeInTheDocument();
    const fixedRows = within(within(panel()).getByRole('table')).getAllByRole('row').slice(1);
    expect(within(fixedRows[0]!).getByText('Fixed')).toBeInTheDocument();
    expect(within(fixedRows[1]!).getByText('Not fixed')).toBeInTheDocument();
    expect(fixedRows[1]).toHaveTextContent('Confirm shared data or attach the rules dataset.');
    // One difference is still open: Fix stays on offer.
    expect(within(panel()).getByRole('button', { name: 'Fix' })).toBeInTheDocument();
  });

  it('shows a failed check with the reason and keeps the last check', async () => {
    const checkCompanyAccess = vi.fn(async () => Promise.reject(apiError(502, 'QuickSight did not answer')));
    const { user } = renderCompanies(undefined, check({ differences: [memberMissing] }), { checkCompanyAccess });
    await rowOf('Acme Manufacturing');
    await user.click(within(panel()).getByRole('button', { name: 'Check now' }));
    expect(await within(panel()).findByText('Failed to check company access')).toBeInTheDocument();
    expect(within(panel()).getByText('QuickSight did not answer')).toBeInTheDocument();
    expect(within(panel()).getByText('dina@example.com')).toBeInTheDocument();
  });
});
