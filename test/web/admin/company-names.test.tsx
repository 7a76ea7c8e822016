import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { COMPANY_MESSAGES, type AccessCheck, type Company } from '#contracts/companies.ts';
import { newCompaniesOf, previewImport } from '#web/features/admin/import-preview.ts';
import CompaniesPage from '#web/features/admin/routes/companies-page.tsx';
import {
  catalogueEntry,
  chooseRowAction,
  company,
  fakeAdminApi,
  listCompaniesOf,
  renderAdmin,
  stubViewport,
  type AdminApiOverrides,
} from './support.tsx';

/**
 * The admin portal mirrors the server's rule for company names: a comma or a double quote,
 * which QuickSight's row-level security reads as a separator or a quote, is refused in the
 * company form and in an imported file with the reason, before anything is sent.
 */

const acme = company('Acme Manufacturing', { userCount: 3 });
const globex = company('Globex Distribution', { kind: 'distributor', userCount: 1 });

function renderCompanies(overrides: AdminApiOverrides['quicksight'] = {}, lastCheck: AccessCheck | null = null) {
  const api = fakeAdminApi({
    quicksight: {
      listCompanies: listCompaniesOf([acme, globex], lastCheck),
      listCatalogue: vi.fn(async () => [catalogueEntry('sales-performance', 'Sales Performance')]),
      ...overrides,
    },
  });
  renderAdmin(<CompaniesPage />, { api, path: '/admin/companies' });
  return { api, user: userEvent.setup() };
}

beforeEach(() => stubViewport());

describe('the company form', () => {
  it.each(['Evil, Globex Distribution', 'Acme "North" Works'])(
    'refuses %s with the reason and sends nothing',
    async (name) => {
      const createCompany = vi.fn(async (fields: { name: string; kind: Company['kind'] }) => ({
        message: COMPANY_MESSAGES.created,
        company: company(fields.name),
      }));
      const { user } = renderCompanies({ createCompany });
      await screen.findByText('Acme Manufacturing');
      await user.click(screen.getByRole('button', { name: 'Add company' }));
      const dialog = screen.getByRole('dialog', { name: 'Add company' });
      await user.click(within(dialog).getByLabelText('Name'));
      await user.paste(name);
      await user.click(within(dialog).getByRole('button', { name: 'Create' }));
      expect(await within(dialog).findByText(COMPANY_MESSAGES.nameSplits)).toBeInTheDocument();
      expect(within(dialog).getByLabelText('Name')).toHaveAccessibleDescription(
        expect.stringContaining(COMPANY_MESSAGES.nameSplits),
      );
      expect(createCompany).not.toHaveBeenCalled();
    },
  );

  it('refuses a rename to such a name, and renames once it holds neither', async () => {
    const updateCompany = vi.fn(async (companyId: string, fields: { name: string; kind: Company['kind'] }) => ({
      message: COMPANY_MESSAGES.updated,
      company: { ...globex, id: companyId, ...fields },
    }));
    const { user } = renderCompanies({ updateCompany });
    await chooseRowAction(user, 'Globex Distribution', 'Edit');
    const dialog = screen.getByRole('dialog', { name: 'Edit company' });
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), 'Globex Distribution,Acme Manufacturing');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await within(dialog).findByText(COMPANY_MESSAGES.nameSplits)).toBeInTheDocument();
    expect(updateCompany).not.toHaveBeenCalled();
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), 'Globex Wholesale');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() =>
      expect(updateCompany).toHaveBeenCalledWith(globex.id, { name: 'Globex Wholesale', kind: 'distributor' }),
    );
  });

  it('names a company made before the rule in the last check, as a name QuickSight reads as several companies', async () => {
    const lastCheck: AccessCheck = {
      checkedAt: '2026-03-14T10:00:00.000Z',
      checkedBy: 'schedule',
      fix: false,
      quicksightCalls: 4,
      differences: [
        {
          kind: 'name-splits',
          company: 'Evil, Globex Distribution',
          subject: null,
          expected: 'a name without a comma or a double quote',
          found: 'QuickSight reads its rule as 2 companies (Evil; Globex Distribution)',
        },
      ],
    };
    renderCompanies({}, lastCheck);
    expect(await screen.findByText('Company name QuickSight reads as several companies')).toBeInTheDocument();
    expect(
      screen.getByText('QuickSight reads its rule as 2 companies (Evil; Globex Distribution)'),
    ).toBeInTheDocument();
  });
});

describe('an imported file', () => {
  it('marks a row whose company name holds a comma or a double quote, and offers to create no such company', () => {
    const preview = previewImport(
      [
        'email,companyName,dashboards,defaultDashboard,role',
        'a@example.com,"Evil, Acme",sales-performance,,Users',
        'b@example.com,"Acme ""North""",sales-performance,,Users',
        'c@example.com,Acme,sales-performance,,Users',
        'd@example.com,Initech,sales-performance,,Users',
      ].join('\n'),
      { catalogue: ['sales-performance'], existingEmails: [], companies: ['Acme'] },
    );
    if (!('rows' in preview)) throw new Error(preview.fileProblems.join(' '));
    expect(preview.rows.map((row) => [row.companyName, row.status, row.problems])).toEqual([
      ['Evil, Acme', 'invalid', [COMPANY_MESSAGES.nameSplits]],
      ['Acme "North"', 'invalid', [COMPANY_MESSAGES.nameSplits]],
      ['Acme', 'ready', []],
      ['Initech', 'ready', []],
    ]);
    expect(newCompaniesOf(preview.rows)).toEqual(['Initech']);
  });
});
