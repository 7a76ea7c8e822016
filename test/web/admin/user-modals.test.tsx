import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CreateUserModal } from '#web/features/admin/components/create-user-modal.tsx';
import { EditUserModal } from '#web/features/admin/components/edit-user-modal.tsx';
import { Toaster } from '#web/components/toaster.tsx';
import { COMPANY_MESSAGES } from '#contracts/companies.ts';
import type { UserCompanies } from '#web/features/admin/api/admin-api.ts';
import type { CompanyChoices } from '#web/features/admin/use-companies.ts';
import { apiError } from './support.tsx';

const COMPANIES: CompanyChoices = { names: ['Acme', 'Globex Distribution', 'Initech'], error: null };

/** The dialog with 'Set a password now' chosen (the invitation email is the default). */
async function renderCreate(onCreate = vi.fn(async () => undefined), delivery: 'invitation' | 'password' = 'password') {
  const onClose = vi.fn();
  render(<CreateUserModal open companies={COMPANIES} onClose={onClose} onCreate={onCreate} />);
  const user = userEvent.setup();
  if (delivery === 'password') await user.click(screen.getByLabelText(/Set a password now/));
  return { onCreate, onClose, user };
}

const requirement = (label: RegExp) =>
  within(screen.getByRole('list', { name: 'Password requirements' }))
    .getAllByRole('listitem')
    .find((item) => label.test(item.textContent ?? ''))!;

describe('Create New User modal', () => {
  it('requires an email and a password', async () => {
    const { onCreate, user } = await renderCreate();
    expect(screen.getByRole('dialog', { name: 'Create New User' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(onCreate).not.toHaveBeenCalled();
  });

  it('offers the invitation email by default and sends no password with it', async () => {
    const { onCreate, user } = await renderCreate(undefined, 'invitation');
    expect(screen.getByLabelText(/Send an invitation email/)).toBeChecked();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'invited@example.com');
    await user.click(screen.getByRole('button', { name: 'Create User & Send Invitation' }));
    await waitFor(() => expect(onCreate).toHaveBeenCalledWith({ email: 'invited@example.com' }));
  });

  it('still checks the email with the invitation', async () => {
    const { onCreate, user } = await renderCreate(undefined, 'invitation');
    await user.type(screen.getByLabelText('Email'), 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Create User & Send Invitation' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(onCreate).not.toHaveBeenCalled();
  });

  it('rejects an address without the simple pattern', async () => {
    const { onCreate, user } = await renderCreate();
    await user.type(screen.getByLabelText('Email'), 'jane@example');
    await user.type(screen.getByLabelText('Password'), 'Secret#2026');
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(onCreate).not.toHaveBeenCalled();
  });

  it.each([
    ['Sh#1a', 'Password must be at least 8 characters long'],
    ['SECRET#2026', 'Password must contain at least one lowercase letter'],
    ['secret#2026', 'Password must contain at least one uppercase letter'],
    ['Secret#word', 'Password must contain at least one number'],
    ['Secret2026', 'Password must contain at least one special character (!@#$%^&*)'],
  ])('refuses %s with "%s"', async (password, message) => {
    const { onCreate, user } = await renderCreate();
    await user.type(screen.getByLabelText('Email'), 'jane@example.com');
    await user.type(screen.getByLabelText('Password'), password);
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(onCreate).not.toHaveBeenCalled();
  });

  it('checks the requirements off while the password is typed', async () => {
    const { user } = await renderCreate();
    expect(requirement(/At least 8 characters/)).toHaveTextContent('(not met)');
    await user.type(screen.getByLabelText('Password'), 'secret');
    expect(requirement(/One lowercase letter/)).toHaveTextContent('(met)');
    expect(requirement(/One uppercase letter/)).toHaveTextContent('(not met)');
    await user.type(screen.getByLabelText('Password'), 'S#12');
    for (const label of [/At least 8/, /lowercase/, /uppercase/, /number/, /special character \(!@#\$%\^&\*\)/]) {
      expect(requirement(label)).toHaveTextContent('(met)');
    }
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(
      expect.stringContaining('At least 8 characters'),
    );
  });

  it('sends the email and password', async () => {
    const { onCreate, user } = await renderCreate();
    await user.type(screen.getByLabelText('Email'), ' new.user@example.com ');
    await user.type(screen.getByLabelText('Password'), 'Secret#2026');
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    await waitFor(() =>
      expect(onCreate).toHaveBeenCalledWith({ email: 'new.user@example.com', password: 'Secret#2026' }),
    );
  });

  it.each([
    [apiError(409, 'User already exists'), 'A user with this email already exists'],
    [apiError(500, 'Internal server error'), 'Server error. Please try again later'],
    [apiError(403, 'Forbidden'), "You don't have permission to perform this action"],
  ])('translates a refusal: %s', async (failure, text) => {
    const { user } = await renderCreate(vi.fn(async () => Promise.reject(failure)));
    await user.type(screen.getByLabelText('Email'), 'jane@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secret#2026');
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to create user');
    expect(alert).toHaveTextContent(text);
    expect(screen.getByRole('dialog', { name: 'Create New User' })).toBeInTheDocument();
  });

  it('closes on Escape and traps the focus inside', async () => {
    const { onClose, user } = await renderCreate(undefined, 'invitation');
    expect(screen.getByLabelText('Email')).toHaveFocus();
    await user.tab();
    await user.tab();
    await user.tab();
    await user.tab();
    expect(screen.getByRole('dialog')).toContainElement(document.activeElement as HTMLElement);
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalled();
  });
});

interface EditOptions {
  readonly onUpdatePassword?: (email: string, password: string) => Promise<void>;
  readonly onSetCompanies?: (email: string, companies: UserCompanies) => Promise<string>;
  readonly current?: UserCompanies;
}

function renderEdit({
  onUpdatePassword = vi.fn(async () => undefined),
  onSetCompanies = vi.fn(async () => COMPANY_MESSAGES.userCompaniesSet),
  current = { companies: ['Acme'], owner: false },
}: EditOptions = {}) {
  const onClose = vi.fn();
  render(
    <>
      <EditUserModal
        user={{ email: 'jane@example.com', ...current }}
        companies={COMPANIES}
        onClose={onClose}
        onUpdatePassword={onUpdatePassword}
        onSetCompanies={onSetCompanies}
      />
      <Toaster />
    </>,
  );
  return { onUpdatePassword, onSetCompanies, onClose, user: userEvent.setup() };
}

describe('Edit User modal', () => {
  it('shows the current email read-only', () => {
    renderEdit();
    expect(screen.getByRole('dialog', { name: 'Edit User' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('jane@example.com');
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');
  });

  it('needs a change, and a new password of at least 8 characters', async () => {
    const { onUpdatePassword, onSetCompanies, user } = renderEdit();
    await user.click(screen.getByRole('button', { name: 'Update User' }));
    expect(await screen.findByText('At least one field must be updated')).toBeInTheDocument();
    await user.type(screen.getByLabelText('New Password'), 'short');
    expect(await screen.findByText('Password must be at least 8 characters long')).toBeInTheDocument();
    expect(onUpdatePassword).not.toHaveBeenCalled();
    expect(onSetCompanies).not.toHaveBeenCalled();
  });

  it('sends only the new password when the company is unchanged', async () => {
    const { onUpdatePassword, onSetCompanies, onClose, user } = renderEdit();
    await user.type(screen.getByLabelText('New Password'), 'Another#2026');
    await user.click(screen.getByRole('button', { name: 'Update User' }));
    await waitFor(() => expect(onUpdatePassword).toHaveBeenCalledWith('jane@example.com', 'Another#2026'));
    expect(onSetCompanies).not.toHaveBeenCalled();
    expect(await screen.findByText('User updated successfully')).toBeInTheDocument();
    expect(onClose).toHaveBeenCalled();
  });

  it.each([
    [apiError(400, 'Invalid password'), 'Password does not meet the security requirements.'],
    [apiError(404, 'User not found'), 'User not found. Please refresh and try again'],
    [apiError(409, 'Email already exists'), 'This email address is already in use by another user'],
  ])('translates a refusal: %s', async (failure, text) => {
    const { user } = renderEdit({ onUpdatePassword: vi.fn(async () => Promise.reject(failure)) });
    await user.type(screen.getByLabelText('New Password'), 'weakweakweak');
    await user.click(screen.getByRole('button', { name: 'Update User' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to update user');
    expect(alert).toHaveTextContent(text);
  });

  it('changes only the company, without a password, and shows the server message', async () => {
    const { onUpdatePassword, onSetCompanies, onClose, user } = renderEdit();
    const select = screen.getByRole('combobox', { name: 'Company' });
    expect(select).toHaveValue('Acme');
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['No company', 'Acme', 'Globex Distribution', 'Initech']);
    await user.selectOptions(select, 'Initech');
    await user.click(screen.getByRole('button', { name: 'Update User' }));
    await waitFor(() =>
      expect(onSetCompanies).toHaveBeenCalledWith('jane@example.com', { companies: ['Initech'], owner: false }),
    );
    expect(onUpdatePassword).not.toHaveBeenCalled();
    expect(await screen.findByText(COMPANY_MESSAGES.userCompaniesSet)).toBeInTheDocument();
    expect(onClose).toHaveBeenCalled();
  });

  it('turns the company into a multi-choice for an owner account and sends every chosen company', async () => {
    const { onSetCompanies, user } = renderEdit();
    await user.click(screen.getByRole('checkbox', { name: 'Owner account (several companies)' }));
    expect(screen.queryByRole('combobox', { name: 'Company' })).not.toBeInTheDocument();
    const choices = screen.getByRole('group', { name: 'Companies' });
    expect(within(choices).getByRole('checkbox', { name: 'Acme' })).toBeChecked();
    await user.click(within(choices).getByRole('checkbox', { name: 'Globex Distribution' }));
    await user.click(screen.getByRole('button', { name: 'Update User' }));
    await waitFor(() =>
      expect(onSetCompanies).toHaveBeenCalledWith('jane@example.com', {
        companies: ['Acme', 'Globex Distribution'],
        owner: true,
      }),
    );
  });

  it('refuses several companies for an account that is not an owner, and sends nothing', async () => {
    const { onSetCompanies, user } = renderEdit({ current: { companies: ['Acme', 'Initech'], owner: true } });
    await user.click(screen.getByRole('checkbox', { name: 'Owner account (several companies)' }));
    expect(await screen.findByText(COMPANY_MESSAGES.oneCompanyOnly)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Update User' }));
    expect(onSetCompanies).not.toHaveBeenCalled();
  });

  it('saves the password, then the company, and says which part failed', async () => {
    const onUpdatePassword = vi.fn(async () => undefined);
    const onSetCompanies = vi.fn(async () => Promise.reject(apiError(400, COMPANY_MESSAGES.unknownCompany('Initech'))));
    const { onClose, user } = renderEdit({ onUpdatePassword, onSetCompanies });
    await user.type(screen.getByLabelText('New Password'), 'Another#2026');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Company' }), 'Initech');
    await user.click(screen.getByRole('button', { name: 'Update User' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to set the company');
    expect(alert).toHaveTextContent(COMPANY_MESSAGES.unknownCompany('Initech'));
    expect(alert).toHaveTextContent('The new password was saved.');
    expect(onClose).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Update User' }));
    await waitFor(() => expect(onSetCompanies).toHaveBeenCalledTimes(2));
    expect(onUpdatePassword).toHaveBeenCalledTimes(1);
  });
});

describe('Create New User modal: company', () => {
  it('creates without a company by default, or with the chosen one', async () => {
    const { onCreate, user } = await renderCreate(
      vi.fn(async () => undefined),
      'invitation',
    );
    await user.type(screen.getByLabelText('Email'), 'new.user@example.com');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Company' }), 'Globex Distribution');
    await user.click(screen.getByRole('button', { name: 'Create User & Send Invitation' }));
    await waitFor(() =>
      expect(onCreate).toHaveBeenCalledWith({
        email: 'new.user@example.com',
        companies: { companies: ['Globex Distribution'], owner: false },
      }),
    );
  });
});
