import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CATALOGUE_MESSAGES } from '#contracts/quicksight-admin.ts';
import type { InviteFields } from '#web/features/admin/api/admin-api.ts';
import { DashboardFormModal } from '#web/features/admin/components/dashboard-form-modal.tsx';
import { InviteModal } from '#web/features/admin/components/invite-modal.tsx';
import { apiError, catalogueEntry } from './support.tsx';

const sales = catalogueEntry('sales-performance', 'Sales Performance');
const scorecard = catalogueEntry('distributor-scorecard', 'Distributor Scorecard');
const inventory = catalogueEntry('inventory-margins', 'Inventory and Margins');
const catalogue = [sales, scorecard, inventory];

function renderInvite(invite: (fields: InviteFields) => Promise<unknown>) {
  const onClose = vi.fn();
  render(<InviteModal email="jane@example.com" catalogue={catalogue} onClose={onClose} invite={invite} />);
  return { onClose, user: userEvent.setup() };
}

async function inviteTo(user: ReturnType<typeof userEvent.setup>, names: readonly RegExp[]) {
  await user.click(screen.getByRole('button', { name: /^Dashboards/ }));
  for (const name of names) await user.click(screen.getByLabelText(name));
  await user.keyboard('{Escape}');
  await user.click(screen.getByRole('button', { name: 'Invite' }));
}

const notRegistered = () =>
  apiError(404, 'The user is not registered in QuickSight', {
    reason: 'QuickSightUserNotFoundException',
    suggestion: 'Register the user first.',
  });

describe('Invite results', () => {
  it('shows an assignment that failed entirely as an error, with what failed and why', async () => {
    const { onClose, user } = renderInvite(vi.fn(async () => Promise.reject(notRegistered())));
    await inviteTo(user, [/Sales Performance/]);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to invite: the dashboard was not assigned');
    expect(screen.queryByText(/Successfully assigned 0/)).not.toBeInTheDocument();
    expect(within(alert).getByText('Not assigned (1):')).toBeInTheDocument();
    const failed = within(alert).getAllByRole('listitem');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toHaveTextContent('✗ Sales Performance: The user is not registered in QuickSight');
    expect(failed[0]).toHaveTextContent('Reason: QuickSightUserNotFoundException');
    expect(failed[0]).toHaveTextContent('Suggestion: Register the user first.');
    expect(within(alert).queryByText(/^Assigned/)).not.toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('counts every dashboard when several fail', async () => {
    const { user } = renderInvite(vi.fn(async () => Promise.reject(apiError(502, 'QuickSight is unavailable'))));
    await inviteTo(user, [/Sales Performance/, /Distributor Scorecard/]);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to invite: none of the 2 dashboards was assigned',
    );
  });

  it("keeps the spec's summary for a partial result and lists what failed and why, then what was assigned", async () => {
    const invite = vi.fn(async (fields: InviteFields) => {
      if (fields.dashboardId === 'distributor-scorecard') throw notRegistered();
      return { message: 'ok' };
    });
    const { onClose, user } = renderInvite(invite);
    await inviteTo(user, [/Sales Performance/, /Distributor Scorecard/, /Inventory and Margins/]);
    const summary = await screen.findByText('Successfully assigned 2 dashboard(s), 1 failed');
    const box = summary.closest('.alert') as HTMLElement;
    expect(box).toHaveAttribute('role', 'status');
    const lists = within(box).getAllByRole('list');
    expect(within(box).getByText('Not assigned (1):')).toBeInTheDocument();
    expect(
      within(lists[0]!)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      '✗ Distributor Scorecard: The user is not registered in QuickSightReason: QuickSightUserNotFoundExceptionSuggestion: Register the user first.',
    ]);
    expect(within(box).getByText('Assigned (2):')).toBeInTheDocument();
    expect(
      within(lists[1]!)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['✓ Sales Performance: assigned', '✓ Inventory and Margins: assigned']);
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('Add Dashboard: an ID QuickSight does not have', () => {
  it("shows the server's refusal naming the ID", async () => {
    const refusal = CATALOGUE_MESSAGES.unknownDashboard('regional-sales');
    const onSave = vi.fn(async () => Promise.reject(apiError(400, refusal)));
    render(<DashboardFormModal target="create" catalogue={catalogue} onClose={vi.fn()} onSave={onSave} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Dashboard ID'), 'regional-sales');
    await user.type(screen.getByLabelText('Dashboard Name'), 'Regional Sales');
    await user.type(screen.getByLabelText('Dashboard Link'), 'https://dashboards.example.com/regional');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to save dashboard');
    expect(alert).toHaveTextContent('QuickSight has no dashboard with the ID "regional-sales"');
  });
});
