import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { COMPANY_MESSAGES } from '#contracts/companies.ts';
import type { InviteFields } from '#web/features/admin/api/admin-api.ts';
import { DashboardFormModal } from '#web/features/admin/components/dashboard-form-modal.tsx';
import { InviteModal } from '#web/features/admin/components/invite-modal.tsx';
import { apiError, catalogueEntry } from './support.tsx';

const sales = catalogueEntry('sales-performance', 'Sales Performance');
const scorecard = catalogueEntry('distributor-scorecard', 'Distributor Scorecard');
const inventory = catalogueEntry('inventory-margins', 'Inventory and Margins');
const catalogue = [sales, scorecard, inventory];

function renderForm(target: 'create' | typeof sales = 'create', onSave = vi.fn(async () => undefined)) {
  render(<DashboardFormModal target={target} catalogue={catalogue} onClose={vi.fn()} onSave={onSave} />);
  return { onSave, user: userEvent.setup() };
}

async function fill(user: ReturnType<typeof userEvent.setup>, values: { id?: string; name?: string; link?: string }) {
  if (values.id !== undefined) await user.type(screen.getByLabelText('Dashboard ID'), values.id);
  if (values.name !== undefined) await user.type(screen.getByLabelText('Dashboard Name'), values.name);
  if (values.link !== undefined) await user.type(screen.getByLabelText('Dashboard Link'), values.link);
}

describe('Add/Edit Dashboard modal', () => {
  it('requires the ID, the name and the link', async () => {
    const { onSave, user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Dashboard ID is required')).toBeInTheDocument();
    expect(screen.getByText('Dashboard Name is required')).toBeInTheDocument();
    expect(screen.getByText('Dashboard Link is required')).toBeInTheDocument();
    expect(onSave).not.toHaveBeenCalled();
  });

  it('flags an ID already in the catalogue, whatever its case, and disables Create', async () => {
    const { user } = renderForm();
    await fill(user, { id: 'SALES-Performance' });
    expect(screen.getByText('This dashboard ID already exists. Please use a different ID.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create' })).toBeDisabled();
    await user.type(screen.getByLabelText('Dashboard ID'), '-2');
    expect(screen.queryByText('This dashboard ID already exists. Please use a different ID.')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create' })).toBeEnabled();
  });

  it('creates with the description optional', async () => {
    const { onSave, user } = renderForm();
    await fill(user, { id: 'regional-sales', name: 'Regional Sales', link: 'https://dashboards.example.com/regional' });
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(onSave).toHaveBeenCalledWith(
        {
          dashboardId: 'regional-sales',
          dashboardName: 'Regional Sales',
          dashboardLink: 'https://dashboards.example.com/regional',
          description: '',
        },
        null,
      ),
    );
  });

  it('edits an entry: its own ID is not a duplicate and the button reads Update', async () => {
    const { onSave, user } = renderForm(sales);
    expect(screen.getByRole('dialog', { name: 'Edit Dashboard' })).toBeInTheDocument();
    expect(screen.getByLabelText('Dashboard ID')).toHaveValue('sales-performance');
    expect(screen.queryByText('This dashboard ID already exists. Please use a different ID.')).not.toBeInTheDocument();
    await user.clear(screen.getByLabelText('Dashboard Name'));
    await user.type(screen.getByLabelText('Dashboard Name'), 'Sales KPIs');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() =>
      expect(onSave).toHaveBeenCalledWith(expect.objectContaining({ dashboardName: 'Sales KPIs' }), sales),
    );
  });

  it("shows the server's duplicate message", async () => {
    const { user } = renderForm(
      'create',
      vi.fn(async () =>
        Promise.reject(apiError(409, 'Dashboard ID "regional" already exists. Please use a different ID.')),
      ),
    );
    await fill(user, { id: 'regional', name: 'Regional', link: 'https://dashboards.example.com/regional' });
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(
      await screen.findByText('Dashboard ID "regional" already exists. Please use a different ID.'),
    ).toBeInTheDocument();
  });

  it('shows Failed to save dashboard with the reason', async () => {
    const { user } = renderForm(
      'create',
      vi.fn(async () => Promise.reject(apiError(400, 'Dashboard Link must be an http(s) URL'))),
    );
    await fill(user, { id: 'regional', name: 'Regional', link: 'https://dashboards.example.com/regional' });
    await user.click(screen.getByRole('button', { name: 'Create' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to save dashboard');
    expect(alert).toHaveTextContent('Dashboard Link must be an http(s) URL');
  });
});

function renderInvite(
  invite = vi.fn(async (_fields: InviteFields) => ({ message: 'ok' })),
  company?: string,
  hasDashboards = true,
) {
  const onClose = vi.fn();
  const onSharedDataConfirmed = vi.fn();
  render(
    <InviteModal
      email="jane@example.com"
      company={company}
      hasDashboards={hasDashboards}
      catalogue={catalogue}
      onClose={onClose}
      invite={invite}
      onSharedDataConfirmed={onSharedDataConfirmed}
    />,
  );
  return { invite, onClose, onSharedDataConfirmed, user: userEvent.setup() };
}

const openPicker = (user: ReturnType<typeof userEvent.setup>) =>
  user.click(screen.getByRole('button', { name: /^Dashboards/ }));

describe('Invite to Dashboard modal', () => {
  it('needs at least one dashboard', async () => {
    const { invite, user } = renderInvite();
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByText('Please select at least one dashboard.')).toBeInTheDocument();
    expect(invite).not.toHaveBeenCalled();
  });

  it('searches the dashboards, showing N of M, and counts the selection on Done', async () => {
    const { user } = renderInvite();
    await openPicker(user);
    expect(screen.getByText('3 of 3')).toBeInTheDocument();
    await user.type(screen.getByPlaceholderText('Search dashboards...'), 'SCORE');
    expect(screen.getByText('1 of 3')).toBeInTheDocument();
    await user.click(screen.getByLabelText(/Distributor Scorecard/));
    await user.clear(screen.getByPlaceholderText('Search dashboards...'));
    await user.click(screen.getByLabelText(/Sales Performance/));
    await user.click(screen.getByRole('button', { name: 'Done (2 selected)' }));
    expect(screen.queryByPlaceholderText('Search dashboards...')).not.toBeInTheDocument();
    const selected = screen.getByRole('group', { name: 'Selected dashboards' });
    expect(
      within(selected)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([expect.stringContaining('Distributor Scorecard'), expect.stringContaining('Sales Performance')]);
  });

  it('closes the dropdown on Escape without closing the dialog, and on a click outside', async () => {
    const { onClose, user } = renderInvite();
    await openPicker(user);
    await user.keyboard('{Escape}');
    expect(screen.queryByPlaceholderText('Search dashboards...')).not.toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: /^Dashboards/ })).toHaveFocus();
    await openPicker(user);
    await user.click(screen.getByText('No company'));
    expect(screen.queryByPlaceholderText('Search dashboards...')).not.toBeInTheDocument();
  });

  it('keeps one default, and deselecting it clears the default', async () => {
    const { invite, user } = renderInvite();
    await openPicker(user);
    await user.click(screen.getByLabelText(/Sales Performance/));
    await user.click(screen.getByLabelText(/Inventory and Margins/));
    await user.click(screen.getByRole('button', { name: 'Done (2 selected)' }));
    await user.click(screen.getByRole('radio', { name: /Set as Default \(Sales Performance\)/ }));
    await user.click(screen.getByRole('radio', { name: /Set as Default \(Inventory and Margins\)/ }));
    expect(screen.getByRole('radio', { name: /Sales Performance/ })).not.toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Remove Inventory and Margins from the selection' }));
    expect(screen.getAllByRole('radio')).toHaveLength(1);
    expect(screen.getByRole('radio', { name: /Sales Performance/ })).not.toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    await waitFor(() => expect(invite).toHaveBeenCalledTimes(1));
    expect(invite).toHaveBeenCalledWith(
      expect.objectContaining({ dashboardId: 'sales-performance', makeDefault: false }),
    );
  });

  it('makes the first dashboard picked the default of a user who has none, and only then', async () => {
    const invite = vi.fn(async (_fields: InviteFields) => ({ message: 'ok' }));
    const { user } = renderInvite(invite, undefined, false);
    await openPicker(user);
    await user.click(screen.getByLabelText(/Sales Performance/));
    await user.click(screen.getByRole('button', { name: 'Done (1 selected)' }));
    expect(screen.getByRole('radio', { name: /Set as Default \(Sales Performance\)/ })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    await waitFor(() => expect(invite).toHaveBeenCalledWith(expect.objectContaining({ makeDefault: true })));
  });

  it('leaves the default of a user who has dashboards as it is unless one is chosen', async () => {
    const { user } = renderInvite();
    await openPicker(user);
    await user.click(screen.getByLabelText(/Sales Performance/));
    await user.click(screen.getByRole('button', { name: 'Done (1 selected)' }));
    expect(screen.getByRole('radio', { name: /Set as Default \(Sales Performance\)/ })).not.toBeChecked();
  });

  it("shows the user's company, which the server fills in, then invites each dashboard in turn and closes", async () => {
    const { invite, onClose, user } = renderInvite(undefined, 'Acme Distribution');
    // Shown as text: nothing to type in.
    expect(screen.getByRole('term')).toHaveTextContent('Company Name');
    expect(screen.getAllByRole('definition')[0]).toHaveTextContent(/^Acme Distribution$/);
    expect(screen.queryByRole('textbox', { name: /Company/ })).not.toBeInTheDocument();
    await openPicker(user);
    await user.click(screen.getByLabelText(/Sales Performance/));
    await user.click(screen.getByLabelText(/Distributor Scorecard/));
    await user.click(screen.getByRole('button', { name: 'Done (2 selected)' }));
    await user.click(screen.getByRole('radio', { name: /Distributor Scorecard/ }));
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(invite.mock.calls.map(([fields]) => fields)).toEqual([
      {
        userEmail: 'jane@example.com',
        dashboardId: 'sales-performance',
        dashboardName: 'Sales Performance',
        dashboardLink: 'https://dashboards.example.com/sales-performance',
        makeDefault: false,
      },
      {
        userEmail: 'jane@example.com',
        dashboardId: 'distributor-scorecard',
        dashboardName: 'Distributor Scorecard',
        dashboardLink: 'https://dashboards.example.com/distributor-scorecard',
        makeDefault: true,
      },
    ]);
  });

  it('stays open with the result of each dashboard when one failed', async () => {
    const invite = vi.fn(async (fields: InviteFields) => {
      if (fields.dashboardId === 'distributor-scorecard') throw apiError(404, 'QuickSight user not found');
      return { message: 'ok' };
    });
    const { onClose, user } = renderInvite(invite);
    await openPicker(user);
    await user.click(screen.getByLabelText(/Sales Performance/));
    await user.click(screen.getByLabelText(/Distributor Scorecard/));
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByText('Successfully assigned 1 dashboard(s), 1 failed')).toBeInTheDocument();
    expect(screen.getByText('✓ Sales Performance: assigned')).toBeInTheDocument();
    expect(screen.getByText('✗ Distributor Scorecard: QuickSight user not found')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Invite to Dashboard' })).toBeInTheDocument();
  });
});

describe('Add/Edit Dashboard modal: shared data', () => {
  it('offers Shared data only when editing, and sends it only when changed', async () => {
    const { onSave, user } = renderForm(sales);
    const shared = screen.getByRole('checkbox', { name: 'Shared data' });
    expect(shared).not.toBeChecked();
    await user.click(shared);
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() =>
      expect(onSave).toHaveBeenCalledWith(
        expect.objectContaining({ dashboardId: 'sales-performance', sharedData: true }),
        sales,
      ),
    );
  });

  it('withdraws a confirmation', async () => {
    const confirmed = { ...sales, sharedData: true };
    const withdrawn = renderForm(confirmed);
    expect(screen.getByRole('checkbox', { name: 'Shared data' })).toBeChecked();
    await withdrawn.user.click(screen.getByRole('checkbox', { name: 'Shared data' }));
    await withdrawn.user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() =>
      expect(withdrawn.onSave).toHaveBeenCalledWith(expect.objectContaining({ sharedData: false }), confirmed),
    );
  });

  it('sends no shared-data field when only the name changed', async () => {
    const edited = renderForm(sales);
    await edited.user.clear(screen.getByLabelText('Dashboard Name'));
    await edited.user.type(screen.getByLabelText('Dashboard Name'), 'Sales KPIs');
    await edited.user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() =>
      expect(edited.onSave).toHaveBeenCalledWith(
        {
          dashboardId: 'sales-performance',
          dashboardName: 'Sales KPIs',
          dashboardLink: sales.dashboardLink,
          description: sales.description,
        },
        sales,
      ),
    );
  });

  it('has no Shared data choice when adding', () => {
    renderForm('create');
    expect(screen.queryByRole('checkbox', { name: 'Shared data' })).not.toBeInTheDocument();
  });
});

describe('Invite to Dashboard modal: dashboards that are not company-scoped', () => {
  const refusal = COMPANY_MESSAGES.notScoped('sales-performance', 'Globex Distribution', ['Acme Manufacturing']);

  it('shows the refusal, then assigns again as shared data when the admin confirms', async () => {
    const invite = vi.fn(async (fields: InviteFields) => {
      if (fields.dashboardId === 'sales-performance' && !fields.confirmSharedData) throw apiError(409, refusal);
      return { message: 'ok' };
    });
    const { onClose, onSharedDataConfirmed, user } = renderInvite(invite);
    await openPicker(user);
    await user.click(screen.getByLabelText(/Sales Performance/));
    await user.click(screen.getByLabelText(/Distributor Scorecard/));
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    // A question, not a failure: a warning titled with what to do, the refusal listed without a failure mark.
    expect(await screen.findByText(`Sales Performance: ${refusal}`)).toBeInTheDocument();
    expect(screen.getByText('✓ Distributor Scorecard: assigned')).toBeInTheDocument();
    expect(
      screen.getByText('This dashboard is not company-scoped: confirm shared data to assign it'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Failed to invite/)).not.toBeInTheDocument();
    expect(screen.queryByText(/✗/)).not.toBeInTheDocument();
    // The dialog's own button asks the question; there is no second, competing one.
    expect(screen.queryByRole('button', { name: 'Invite' })).not.toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Assign as shared data' })).toHaveLength(1);
    expect(onClose).not.toHaveBeenCalled();
    expect(invite).toHaveBeenCalledTimes(2);

    await user.click(screen.getByRole('button', { name: 'Assign as shared data' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onSharedDataConfirmed).toHaveBeenCalledTimes(1);
    expect(invite).toHaveBeenCalledTimes(3);
    expect(invite).toHaveBeenLastCalledWith(
      expect.objectContaining({
        userEmail: 'jane@example.com',
        dashboardId: 'sales-performance',
        confirmSharedData: true,
      }),
    );
    expect(invite.mock.calls.slice(0, 2).map(([fields]) => fields)).not.toContainEqual(
      expect.objectContaining({ confirmSharedData: true }),
    );
  });

  it('asks again with Invite once the selection changes, and keeps a failure beside a question as a failure', async () => {
    const invite = vi.fn(async (fields: InviteFields) => {
      if (fields.dashboardId === 'sales-performance') throw apiError(409, refusal);
      throw apiError(409, 'Dashboard already assigned');
    });
    const { onSharedDataConfirmed, user } = renderInvite(invite);
    await openPicker(user);
    await user.click(screen.getByLabelText(/Sales Performance/));
    await user.click(screen.getByLabelText(/Distributor Scorecard/));
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByText('✗ Distributor Scorecard: Dashboard already assigned')).toBeInTheDocument();
    expect(screen.getByText(`Sales Performance: ${refusal}`)).toBeInTheDocument();
    expect(screen.getByText(/Failed to invite: none of the 2 dashboards was assigned/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Assign as shared data' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /Remove Distributor Scorecard from the selection/ }));
    expect(screen.getByRole('button', { name: 'Invite' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Assign as shared data' })).not.toBeInTheDocument();
    expect(screen.queryByText(`Sales Performance: ${refusal}`)).not.toBeInTheDocument();
    expect(onSharedDataConfirmed).not.toHaveBeenCalled();
  });

  it('offers no shared-data confirmation for any other refusal', async () => {
    const invite = vi.fn(async () => Promise.reject(apiError(409, 'Dashboard already assigned')));
    const { user } = renderInvite(invite);
    await openPicker(user);
    await user.click(screen.getByLabelText(/Sales Performance/));
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByText('✗ Sales Performance: Dashboard already assigned')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Assign as shared data' })).not.toBeInTheDocument();
  });
});
