import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AuditEntry, AuditFilter } from '#contracts/user-admin.ts';
import Papa from 'papaparse';
import { activityCsv, activityJson, exportFileName } from '#web/features/admin/activity-export.ts';
import {
  ACTION_OPTIONS,
  actionLabel,
  EMPTY_FILTER_FORM,
  REVERSED_RANGE,
  toAuditFilter,
} from '#web/features/admin/activity-filter.ts';
import ActivityPage from '#web/features/admin/routes/activity-page.tsx';
import { buildSearchIndex, filterByIndex } from '#web/features/admin/search.ts';
import { apiError, fakeAdminApi, renderAdmin } from './support.tsx';

const entry = (id: string, overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  id,
  at: '2026-03-14T10:00:00.000Z',
  actor: 'demo.admin@example.com',
  action: 'CREATE_USER',
  target: `${id}@example.com`,
  outcome: 'success',
  detail: null,
  ...overrides,
});

const firstPage = [
  entry('a1', { action: 'DISABLE_USER', target: 'jane@example.com' }),
  entry('a2', {
    action: 'DELETE_USER',
    target: 'other.admin@example.com',
    outcome: 'failure',
    detail: 'Cannot delete other admin accounts',
  }),
  entry('a3', {
    action: 'INVITE_TO_DASHBOARD',
    target: 'jane@example.com',
    detail: 'dashboard sales-performance (default)',
  }),
];

describe('search index', () => {
  const rows = ['Jane.Doe@Example.com', 'sam@example.com', 'SAMANTHA@example.com'];
  const index = buildSearchIndex(rows, (row) => row);

  it('matches without case and ignores surrounding spaces', () => {
    expect(filterByIndex(rows, index, ' sam ')).toEqual(['sam@example.com', 'SAMANTHA@example.com']);
    expect(filterByIndex(rows, index, 'JANE')).toEqual(['Jane.Doe@Example.com']);
  });

  it('gives the same list back for an empty query', () => {
    expect(filterByIndex(rows, index, '  ')).toBe(rows);
  });
});

describe('activity filter', () => {
  it('sends only the filled fields, days as local midnight to the last millisecond of the To day', () => {
    expect(toAuditFilter(EMPTY_FILTER_FORM)).toEqual({ actor: undefined, target: undefined });
    const filter = toAuditFilter({
      actor: ' demo ',
      action: 'DELETE_USER',
      target: 'jane',
      outcome: 'failure',
      fromDay: '2026-03-01',
      toDay: '2026-03-02',
    });
    expect(filter).toEqual({
      actor: 'demo',
      action: 'DELETE_USER',
      target: 'jane',
      outcome: 'failure',
      from: new Date('2026-03-01T00:00:00').toISOString(),
      to: new Date('2026-03-02T23:59:59.999').toISOString(),
    });
  });

  it('refuses a From day after the To day', () => {
    expect(() => toAuditFilter({ ...EMPTY_FILTER_FORM, fromDay: '2026-03-05', toDay: '2026-03-01' })).toThrow(
      REVERSED_RANGE,
    );
  });
});

describe('activity export', () => {
  const hostile = [
    entry('x1', { detail: '=HYPERLINK("http://evil.example","click")', target: '+1+cmd|calc' }),
    entry('x2', { actor: '@admin@example.com', action: 'DELETE_USER', outcome: 'failure', detail: '-2+3' }),
  ];

  it('writes readable action names, ISO times and neutralised formula cells in CSV', () => {
    const [header, ...rows] = Papa.parse<string[]>(activityCsv(hostile).trim()).data;
    expect(header).toEqual(['Time (UTC)', 'Admin', 'Action', 'Action code', 'Target', 'Outcome', 'Detail']);
    expect(rows[0]).toEqual([
      '2026-03-14T10:00:00.000Z',
      'demo.admin@example.com',
      'Create user',
      'CREATE_USER',
      "'+1+cmd|calc",
      'Success',
      '\'=HYPERLINK("http://evil.example","click")',
    ]);
    expect(rows[1]).toEqual([
      '2026-03-14T10:00:00.000Z',
      "'@admin@example.com",
      'Delete user',
      'DELETE_USER',
      'x2@example.com',
      'Failure',
      "'-2+3",
    ]);
    for (const cell of rows.flat()) expect(cell).not.toMatch(/^[=+\-@]/);
  });

  it('writes JSON with the filter, the count and readable names', () => {
    const document = JSON.parse(activityJson(hostile, { action: 'DELETE_USER' }, '2026-03-15T08:00:00.000Z'));
    expect(document).toMatchObject({
      exportedAt: '2026-03-15T08:00:00.000Z',
      filter: { action: 'DELETE_USER' },
      count: 2,
    });
    expect(document.entries[1]).toEqual({
      time: '2026-03-14T10:00:00.000Z',
      admin: '@admin@example.com',
      action: 'Delete user',
      actionCode: 'DELETE_USER',
      target: 'x2@example.com',
      outcome: 'Failure',
      detail: '-2+3',
    });
  });

  it.each([
    ['CREATE_COMPANY', 'Create company'],
    ['UPDATE_COMPANY', 'Update company'],
    ['DELETE_COMPANY', 'Delete company'],
    ['SET_USER_COMPANIES', 'Set user company'],
    ['CHECK_COMPANY_ACCESS', 'Check company access'],
    ['CONFIRM_SHARED_DATA', 'Confirm shared data'],
  ])('names the company action %s "%s", in the trail, the export and the action filter', (code, label) => {
    expect(actionLabel(code)).toBe(label);
    expect(ACTION_OPTIONS).toContainEqual({ value: code, label });
    const [, row] = Papa.parse<string[]>(activityCsv([entry('c1', { action: code })]).trim()).data;
    expect(row?.slice(2, 4)).toEqual([label, code]);
  });

  it('names files by the export time', () => {
    expect(exportFileName('2026-03-15T08:00:00.123Z', 'csv')).toBe('activity-2026-03-15T08-00-00Z.csv');
  });
});

describe('Activity tab', () => {
  it('lists the trail newest first, filters it on the server and loads more with the same filter', async () => {
    const auditLog = vi.fn(async (filter: AuditFilter, nextToken?: string) => {
      if (filter.outcome === 'failure') return { entries: [firstPage[1]!], nextToken: null };
      if (filter.actor === 'nobody') return { entries: [], nextToken: null };
      return nextToken === undefined
        ? { entries: firstPage, nextToken: 'page-2' }
        : { entries: [entry('b1', { action: 'RESET_USER_MFA', target: 'sam@example.com' })], nextToken: null };
    });
    renderAdmin(<ActivityPage />, { api: fakeAdminApi({ users: { auditLog } }), path: '/admin/activity' });
    const table = await screen.findByRole('table');
    const rows = () => within(table).getAllByRole('row').slice(1);
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(auditLog).toHaveBeenLastCalledWith({});
    expect(rows()[0]).toHaveTextContent('Disable user');
    expect(rows()[1]).toHaveTextContent('Failure');
    expect(rows()[1]).toHaveTextContent('Cannot delete other admin accounts');

    const user = userEvent.setup();
    // A choice applies at once, with no Apply button to press.
    await user.selectOptions(screen.getByLabelText('Outcome'), 'failure');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(auditLog).toHaveBeenLastCalledWith({ outcome: 'failure' });
    expect(screen.queryByRole('button', { name: /apply/i })).not.toBeInTheDocument();
    expect(screen.getByText('1 entry matching the filters')).toHaveAttribute('role', 'status');

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(auditLog).toHaveBeenLastCalledWith({}));
    // Typed text applies once typing pauses: one request for the whole word, not one per letter.
    const before = auditLog.mock.calls.length;
    const admin = screen.getByLabelText('Admin');
    for (const typed of ['n', 'no', 'nob', 'nobo', 'nobod', 'nobody'])
      fireEvent.change(admin, { target: { value: typed } });
    expect(auditLog).toHaveBeenCalledTimes(before);
    expect(await screen.findByText('No activity matches the filters')).toBeInTheDocument();
    expect(auditLog).toHaveBeenLastCalledWith({ actor: 'nobody' });
    expect(auditLog).toHaveBeenCalledTimes(before + 1);
    expect(screen.getByText(/Widen the days/)).toBeInTheDocument();

    // The empty result offers the way back.
    await user.click(within(table).getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.getByLabelText('Admin')).toHaveValue('');
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(rows()).toHaveLength(4));
    expect(auditLog).toHaveBeenLastCalledWith({}, 'page-2');
    expect(rows()[3]).toHaveTextContent('Reset MFA');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('wraps an email before its @ and never inside a word, keeps each time on one line, and shows the whole Target hint', async () => {
    const auditLog = vi.fn(async () => ({ entries: firstPage, nextToken: null }));
    renderAdmin(<ActivityPage />, { api: fakeAdminApi({ users: { auditLog } }), path: '/admin/activity' });
    const table = await screen.findByRole('table');
    const [first] = await waitFor(() => {
      const rows = within(table).getAllByRole('row').slice(1);
      expect(rows).toHaveLength(3);
      return rows;
    });
    const cell = (label: string) => first!.querySelector(`td[data-label="${label}"]`)!;
    expect(cell('Admin').innerHTML).toBe('demo.admin<wbr>@example.com');
    expect(cell('Target').innerHTML).toBe('jane<wbr>@example.com');
    const when = within(cell('When') as HTMLElement).getByText(/2026|26/);
    expect(when.tagName).toBe('TIME');
    expect(when.textContent).not.toMatch(/ /);
    expect(screen.getByLabelText('Target')).toHaveAttribute('placeholder', 'Email or dashboard');
  });

  it('shows a reversed day range next to the field and asks nothing of the server', async () => {
    const auditLog = vi.fn(async () => ({ entries: firstPage, nextToken: null }));
    renderAdmin(<ActivityPage />, { api: fakeAdminApi({ users: { auditLog } }), path: '/admin/activity' });
    await screen.findByRole('table');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('From'), '2026-03-05');
    await user.type(screen.getByLabelText('To'), '2026-03-01');
    expect(await screen.findByText(REVERSED_RANGE)).toBeInTheDocument();
    // Only the From day was applied; the reversed range asked nothing more of the server.
    expect(auditLog).not.toHaveBeenCalledWith(expect.objectContaining({ to: expect.any(String) }));
  });

  it('exports the filtered trail as a CSV download', async () => {
    const auditLog = vi.fn(async () => ({ entries: firstPage, nextToken: null }));
    const exportAuditLog = vi.fn(async () => ({ entries: [firstPage[0]!], exportedAt: '2026-03-15T08:00:00.000Z' }));
    const blobs: Blob[] = [];
    const names: string[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:activity';
    });
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    renderAdmin(<ActivityPage />, {
      api: fakeAdminApi({ users: { auditLog, exportAuditLog } }),
      path: '/admin/activity',
    });
    await screen.findByRole('table');
    const user = userEvent.setup();
    // Export takes the form as it stands, applied or not, and the table follows it.
    await user.selectOptions(screen.getByLabelText('Action'), 'DISABLE_USER');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(names).toEqual(['activity-2026-03-15T08-00-00Z.csv']));
    expect(exportAuditLog).toHaveBeenCalledWith({ action: 'DISABLE_USER' }, 'csv');
    expect(auditLog).toHaveBeenCalledWith({ action: 'DISABLE_USER' });
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blobs[0]!);
    });
    expect(text.split('\r\n')).toEqual([
      'Time (UTC),Admin,Action,Action code,Target,Outcome,Detail',
      '2026-03-14T10:00:00.000Z,demo.admin@example.com,Disable user,DISABLE_USER,jane@example.com,Success,',
    ]);
    click.mockRestore();
  });

  it('reports a trail that cannot be loaded', async () => {
    const auditLog = vi.fn(async () => Promise.reject(apiError(403, 'Forbidden')));
    renderAdmin(<ActivityPage />, { api: fakeAdminApi({ users: { auditLog } }), path: '/admin/activity' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load the activity log');
    expect(alert).toHaveTextContent('Forbidden');
  });
});
