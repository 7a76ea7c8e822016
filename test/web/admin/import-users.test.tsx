import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { IMPORT_MESSAGES, IMPORT_TEMPLATE } from '#contracts/user-import.ts';
import {
  FILE_PROBLEMS,
  previewImport,
  readImportFile,
  ROW_PROBLEMS,
  type PreviewRow,
} from '#web/features/admin/import-preview.ts';
import UsersPage from '#web/features/admin/routes/users-page.tsx';
import { COMPANY_MESSAGES } from '#contracts/companies.ts';
import {
  apiError,
  catalogueEntry,
  company,
  fakeAdminApi,
  listCompaniesOf,
  managedUser,
  renderAdmin,
  stubViewport,
  type AdminApiOverrides,
} from './support.tsx';

const CATALOGUE = ['sales-performance', 'inventory-margins', 'distributor-scorecard'];
const context = {
  catalogue: CATALOGUE,
  existingEmails: ['Existing@example.com'],
  companies: ['Acme', 'Example Manufacturing'],
};

const rowsOf = (text: string): readonly PreviewRow[] => {
  const preview = previewImport(text, context);
  if (!('rows' in preview)) throw new Error(`file refused: ${preview.fileProblems.join(' ')}`);
  return preview.rows;
};
const fileProblems = (text: string) => previewImport(text, context).fileProblems;

describe('import preview: the file', () => {
  it('takes the columns in any order and the template as it is offered', () => {
    const [row] = rowsOf(
      'role,dashboards,email,defaultDashboard,companyName\nAdmins,sales-performance; inventory-margins ,Ann@Example.com,inventory-margins,Acme\n',
    );
    expect(row).toMatchObject({
      line: 2,
      email: 'Ann@Example.com',
      dashboards: ['sales-performance', 'inventory-margins'],
      status: 'ready',
      request: {
        userEmail: 'Ann@Example.com',
        role: 'Admins',
        defaultDashboard: 'inventory-margins',
        companyName: 'Acme',
      },
    });
    expect(rowsOf(IMPORT_TEMPLATE)).toEqual([expect.objectContaining({ status: 'ready' })]);
  });

  it.each([
    ['a missing required column', 'email,companyName\na@example.com,Acme', FILE_PROBLEMS.missingColumn('dashboards')],
    [
      'a duplicate column',
      'email,dashboards,email\na@example.com,sales-performance,b@example.com',
      FILE_PROBLEMS.duplicateColumn('email'),
    ],
    [
      'an unknown column',
      'email,dashbaords\na@example.com,sales-performance',
      FILE_PROBLEMS.unknownColumn('dashbaords'),
    ],
    ['a header without rows', 'email,dashboards\n', FILE_PROBLEMS.noRows],
    ['an unclosed quote', 'email,dashboards\n"a@example.com,sales-performance\n', 'Line'],
  ])('refuses %s with a file-level message', (_label, text, message) => {
    expect(fileProblems(text).join(' ')).toContain(message);
  });

  it('takes a file of 500 rows and refuses one of 501', () => {
    const file = (count: number) =>
      `email,dashboards\n${Array.from({ length: count }, (_, index) => `user${index}@example.com,sales-performance`).join('\n')}`;
    expect(rowsOf(file(500))).toHaveLength(500);
    expect(fileProblems(file(501))).toEqual([
      'The file has 501 rows; at most 500 can be imported at once. Split it into smaller files.',
    ]);
  });
});

describe('import preview: the rows', () => {
  const header = 'email,companyName,dashboards,defaultDashboard,role';
  const problemsOf = (line: string) => rowsOf(`${header}\n${line}`)[0]!.problems;

  it.each([
    ['a bad email', 'not-an-email,Acme,sales-performance,,Users', 'Please enter a valid email address'],
    ['a missing email', ',Acme,sales-performance,,Users', 'Email is required'],
    [
      'an unknown dashboard',
      'a@example.com,Acme,sales-performance;nope,,Users',
      IMPORT_MESSAGES.unknownDashboard('nope'),
    ],
    ['no dashboards', 'a@example.com,Acme,,,Users', IMPORT_MESSAGES.noDashboards],
    [
      'a default not among the dashboards',
      'a@example.com,Acme,sales-performance,inventory-margins,Users',
      IMPORT_MESSAGES.defaultNotListed('inventory-margins'),
    ],
    [
      'a dashboard twice',
      'a@example.com,Acme,sales-performance;Sales-Performance,,Users',
      IMPORT_MESSAGES.duplicateDashboard('Sales-Performance'),
    ],
    ['a bad role', 'a@example.com,Acme,sales-performance,,Owners', IMPORT_MESSAGES.role],
    [
      'a formula company',
      'a@example.com,=HYPERLINK("http://evil.example"),sales-performance,,Users',
      IMPORT_MESSAGES.formula('companyName'),
    ],
    ['a formula email', '@a@example.com,Acme,sales-performance,,Users', IMPORT_MESSAGES.formula('email')],
    ['a formula dashboard', 'a@example.com,Acme,+sales-performance,,Users', IMPORT_MESSAGES.formula('dashboards')],
    ['too few cells', 'a@example.com,Acme,sales-performance', ROW_PROBLEMS.cellCount(3, 5)],
  ])('marks %s', (_label, line, message) => {
    expect(problemsOf(line)).toContain(message);
    expect(rowsOf(`${header}\n${line}`)[0]).toMatchObject({ status: 'invalid' });
    expect(rowsOf(`${header}\n${line}`)[0]).not.toHaveProperty('request');
  });

  it('accepts an empty role as Users and any case of Users or Admins', () => {
    const rows = rowsOf(`${header}\na@example.com,,sales-performance,,\nb@example.com,,sales-performance,,ADMINS`);
    expect(rows.map((row) => row.request?.role)).toEqual(['Users', 'Admins']);
  });

  it('marks the second occurrence of an email (any case) as a duplicate', () => {
    const rows = rowsOf(`${header}\na@example.com,,sales-performance,,\nA@EXAMPLE.COM,,inventory-margins,,`);
    expect(rows[0]!.status).toBe('ready');
    expect(rows[1]).toMatchObject({ status: 'invalid', problems: [ROW_PROBLEMS.duplicateEmail(2)] });
  });

  it('reports an existing account as such, not as an error', () => {
    expect(rowsOf(`${header}\nexisting@EXAMPLE.com,,sales-performance,,`)[0]).toMatchObject({
      status: 'exists',
      problems: [],
    });
  });
});

describe('import preview: reading the file', () => {
  const file = (parts: BlobPart[]) => new File(parts, 'users.csv', { type: 'text/csv' });

  it('reads UTF-8 and drops a byte order mark', async () => {
    expect(
      await readImportFile(file([new Uint8Array([0xef, 0xbb, 0xbf]), 'email,dashboards\nzoë@example.com,x'])),
    ).toEqual({
      text: 'email,dashboards\nzoë@example.com,x',
    });
  });

  it.each([
    ['an empty file', [], FILE_PROBLEMS.empty],
    ['a file of 10 MB', [new Uint8Array(10 * 1024 * 1024).fill(65)], FILE_PROBLEMS.tooLarge(10 * 1024 * 1024)],
    ['a binary file', [new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00])], FILE_PROBLEMS.binary],
    ['Latin-1 text', [new Uint8Array([0x65, 0x6d, 0x61, 0x69, 0x6c, 0x0a, 0x7a, 0x6f, 0xeb])], FILE_PROBLEMS.encoding],
    ['UTF-16 text', [new Uint8Array([0xff, 0xfe, 0x65, 0x00, 0x6d, 0x00])], FILE_PROBLEMS.encoding],
  ])('refuses %s', async (_label, parts, problem) => {
    expect(await readImportFile(file(parts as BlobPart[]))).toEqual({ problem });
  });
});

describe('Import Users dialog', () => {
  beforeEach(() => stubViewport());

  const catalogue = CATALOGUE.map((dashboardId) => catalogueEntry(dashboardId, dashboardId));
  const people = [managedUser('existing@example.com')];

  type ImportUser = (row: {
    userEmail: string;
  }) => Promise<{ outcome: 'created' | 'exists'; message: string; userEmail: string }>;
  const notCalled: ImportUser = async () => Promise.reject(new Error('unexpected import'));

  const open = async (importUser: ImportUser, quicksight: AdminApiOverrides['quicksight'] = {}) => {
    const listUsers = vi.fn(async () => people);
    const api = fakeAdminApi({
      users: { listUsers },
      quicksight: {
        listCatalogue: vi.fn(async () => catalogue),
        listCompanies: listCompaniesOf([company('Acme')]),
        importUser,
        ...quicksight,
      },
    });
    renderAdmin(<UsersPage />, { api });
    const user = userEvent.setup();
    await screen.findByText('existing@example.com');
    await user.click(screen.getByRole('button', { name: 'Import Users' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import Users' });
    await waitFor(() => expect(within(dialog).getByLabelText('CSV file')).toBeEnabled());
    return { dialog, user, listUsers, api };
  };

  const csv = [
    'email,companyName,dashboards,defaultDashboard,role',
    'ann@example.com,Acme,sales-performance;inventory-margins,inventory-margins,Users',
    'bob@example.com,Acme,sales-performance,,',
    'existing@example.com,Acme,sales-performance,,',
    'bad-address,Acme,sales-performance,,',
    'carl@example.com,=cmd|calc,sales-performance,,',
  ].join('\n');

  it('previews every row, imports only the valid new ones and shows a result per row', async () => {
    const importUser = vi.fn(async (row: { userEmail: string }) => {
      if (row.userEmail === 'bob@example.com') throw apiError(502, 'Failed to register the user in QuickSight');
      return { outcome: 'created' as const, message: 'Account created and invitation sent', userEmail: row.userEmail };
    });
    const { dialog, user, listUsers } = await open(importUser);
    await user.upload(within(dialog).getByLabelText('CSV file'), new File([csv], 'cohort.csv', { type: 'text/csv' }));
    expect(
      await within(dialog).findByText(/cohort.csv: 5 rows — 2 ready, 2 will be skipped, 1 already exist/),
    ).toBeInTheDocument();
    const rowFor = (email: string) => within(dialog).getByText(email).closest('tr')!;
    expect(rowFor('bad-address')).toHaveTextContent('Please enter a valid email address');
    expect(rowFor('carl@example.com')).toHaveTextContent(IMPORT_MESSAGES.formula('companyName'));
    expect(rowFor('existing@example.com')).toHaveTextContent('Already exists');
    expect(importUser).not.toHaveBeenCalled();

    await user.click(within(dialog).getByRole('button', { name: 'Import 2 users' }));
    expect(await within(dialog).findByText('1 created, 1 already existed, 1 failed, 2 skipped.')).toBeInTheDocument();
    expect(importUser.mock.calls.map(([row]) => row.userEmail).sort()).toEqual(['ann@example.com', 'bob@example.com']);
    expect(importUser).toHaveBeenCalledWith(
      expect.objectContaining({
        userEmail: 'ann@example.com',
        dashboards: ['sales-performance', 'inventory-margins'],
        defaultDashboard: 'inventory-margins',
        role: 'Users',
      }),
    );
    expect(rowFor('ann@example.com')).toHaveTextContent('Created');
    expect(rowFor('bob@example.com')).toHaveTextContent('Failed');
    expect(rowFor('bob@example.com')).toHaveTextContent('Failed to register the user in QuickSight');
    expect(within(dialog).getByRole('progressbar')).toHaveAttribute('value', '2');

    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(listUsers).toHaveBeenCalledTimes(2));
  });

  it('refuses a file with a bad header and sends nothing', async () => {
    const importUser = vi.fn(notCalled);
    const { dialog, user } = await open(importUser);
    await user.upload(
      within(dialog).getByLabelText('CSV file'),
      new File(['email,email,dashboards\na@example.com,b@example.com,x'], 'bad.csv'),
    );
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('bad.csv cannot be imported');
    expect(alert).toHaveTextContent(FILE_PROBLEMS.duplicateColumn('email'));
    expect(within(dialog).getByRole('button', { name: 'Import 0 users' })).toBeDisabled();
    expect(importUser).not.toHaveBeenCalled();
  });

  it('offers the template for download', async () => {
    const { dialog, user } = await open(vi.fn(notCalled));
    const names: string[] = [];
    URL.createObjectURL = vi.fn(() => 'blob:template');
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    await user.click(within(dialog).getByRole('button', { name: 'Download template' }));
    expect(names).toEqual(['user-import-template.csv']);
    click.mockRestore();
  });
  const withNewCompanies = [
    'email,companyName,dashboards,defaultDashboard,role',
    'ann@example.com,Acme,sales-performance,,',
    'dina@example.com,Globex Distribution,sales-performance,,',
    'eve@example.com,globex distribution,inventory-margins,,',
    'finn@example.com,,sales-performance,,',
  ].join('\n');
  const created = async (row: { userEmail: string }) => ({
    outcome: 'created' as const,
    message: 'Account created and invitation sent',
    userEmail: row.userEmail,
  });

  it('marks a company that does not exist as new and, without confirmation, skips its rows with the reason', async () => {
    const importUser = vi.fn(created);
    const createCompany = vi.fn(async () => Promise.reject(new Error('unexpected createCompany')));
    const { dialog, user } = await open(importUser, { createCompany });
    await user.upload(
      within(dialog).getByLabelText('CSV file'),
      new File([withNewCompanies], 'new.csv', { type: 'text/csv' }),
    );
    expect(
      await within(dialog).findByText(/new.csv: 4 rows — 2 ready, 2 will be skipped, 0 already exist/),
    ).toBeInTheDocument();
    const rowFor = (email: string) => within(dialog).getByText(email).closest('tr')!;
    expect(within(rowFor('dina@example.com')).getByText('New company')).toBeInTheDocument();
    expect(within(rowFor('eve@example.com')).getByText('New company')).toBeInTheDocument();
    expect(within(rowFor('ann@example.com')).queryByText('New company')).not.toBeInTheDocument();
    expect(rowFor('dina@example.com')).toHaveTextContent(COMPANY_MESSAGES.unknownCompany('Globex Distribution'));
    const choice = within(dialog).getByRole('group', { name: 'New companies' });
    expect(within(choice).getByRole('listitem')).toHaveTextContent('Globex Distribution');
    expect(within(choice).getByRole('checkbox', { name: 'Create 1 new company' })).not.toBeChecked();

    await user.click(within(dialog).getByRole('button', { name: 'Import 2 users' }));
    expect(await within(dialog).findByText('2 created, 0 already existed, 0 failed, 2 skipped.')).toBeInTheDocument();
    expect(importUser.mock.calls.map(([row]) => row.userEmail).sort()).toEqual(['ann@example.com', 'finn@example.com']);
    expect(createCompany).not.toHaveBeenCalled();
    expect(rowFor('dina@example.com')).toHaveTextContent('Skipped');
  });

  it('creates the new companies with the chosen kind once the admin confirms, then imports their rows', async () => {
    const importUser = vi.fn(created);
    const createCompany = vi.fn(async (fields: { name: string; kind: string }) => ({
      message: COMPANY_MESSAGES.created,
      company: company(fields.name, { kind: 'distributor' }),
    }));
    const { dialog, user } = await open(importUser, { createCompany });
    await user.upload(
      within(dialog).getByLabelText('CSV file'),
      new File([withNewCompanies], 'new.csv', { type: 'text/csv' }),
    );
    const choice = await within(dialog).findByRole('group', { name: 'New companies' });
    expect(within(choice).getByLabelText('Kind of the new companies')).toHaveValue('manufacturer');
    await user.selectOptions(within(choice).getByLabelText('Kind of the new companies'), 'distributor');
    await user.click(within(choice).getByRole('checkbox', { name: 'Create 1 new company' }));
    expect(within(dialog).getByText(/4 ready, 0 will be skipped/)).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Import 4 users' }));
    expect(await within(dialog).findByText('4 created, 0 already existed, 0 failed, 0 skipped.')).toBeInTheDocument();
    expect(createCompany).toHaveBeenCalledTimes(1);
    expect(createCompany).toHaveBeenCalledWith({ name: 'Globex Distribution', kind: 'distributor' });
    expect(createCompany.mock.invocationCallOrder[0]).toBeLessThan(importUser.mock.invocationCallOrder[0]!);
    expect(importUser).toHaveBeenCalledWith(
      expect.objectContaining({ userEmail: 'eve@example.com', companyName: 'globex distribution' }),
    );
  });

  it('fails the rows of a company that could not be created, with the reason, and imports the others', async () => {
    const importUser = vi.fn(created);
    const createCompany = vi.fn(async () => Promise.reject(apiError(400, COMPANY_MESSAGES.nameControl)));
    const { dialog, user } = await open(importUser, { createCompany });
    await user.upload(
      within(dialog).getByLabelText('CSV file'),
      new File([withNewCompanies], 'new.csv', { type: 'text/csv' }),
    );
    await user.click(await within(dialog).findByRole('checkbox', { name: 'Create 1 new company' }));
    await user.click(within(dialog).getByRole('button', { name: 'Import 4 users' }));
    expect(await within(dialog).findByText('2 created, 0 already existed, 2 failed, 0 skipped.')).toBeInTheDocument();
    const dina = within(dialog).getByText('dina@example.com').closest('tr')!;
    expect(dina).toHaveTextContent(
      `Company "Globex Distribution" could not be created: ${COMPANY_MESSAGES.nameControl}`,
    );
    expect(importUser.mock.calls.map(([row]) => row.userEmail).sort()).toEqual(['ann@example.com', 'finn@example.com']);
  });
});
