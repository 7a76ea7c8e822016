import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { INVITATION_VALIDITY_DAYS, type ManagedUser } from '#contracts/user-admin.ts';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { PageHeader } from '#web/components/layout/page-header.tsx';
import { notify } from '#web/components/toaster.tsx';
import { useAuth } from '#web/lib/auth/auth-context.ts';
import { useServerCall } from '#web/lib/use-server-call.ts';
import type { UserCompanies } from '../api/admin-api.ts';
import { useAdminApi } from '../api/admin-api-context.tsx';
import { COMPANY_TEXTS } from '../companies.ts';
import { CreateUserModal, type CreateUserForm } from '../components/create-user-modal.tsx';
import { EditUserModal, type EditedUser } from '../components/edit-user-modal.tsx';
import { FailureAlert } from '../components/failure-alert.tsx';
import { StatCards } from '../components/stat-cards.tsx';
import { UserFactors } from '../components/user-factors.tsx';
import { UserListCard, userSearchText } from '../components/user-list-card.tsx';
import { UsersTable, type UserAction } from '../components/users-table.tsx';
import {
  ADMIN_FAILURES,
  deleteUserFailureText,
  failureText,
  userManagementErrorText,
  type Failure,
} from '../errors.ts';
import { ADMINS_GROUP } from '#contracts/groups.ts';
import { useSearch } from '../search.ts';
import { useUserListing } from '../use-resource.ts';
import { companyChoicesOf, useCompanyList } from '../use-companies.ts';

/** The import dialog and its CSV parser load when first opened. */
const ImportUsersDialog = lazy(async () => ({
  default: (await import('../components/import-users-dialog.tsx')).ImportUsersDialog,
}));

/**
 * Wider than the spec's 'You cannot disable or delete admin accounts (including your own).':
 * the server protects every account change on those accounts, not only those two (see
 * docs/features.md, Admin tables).
 */
const SECURITY_NOTICE =
  'You cannot edit, disable, delete or reset MFA of admin accounts (including your own). Change your own password with Change Password.';

const NO_USERS: readonly ManagedUser[] = [];
const DAY_MS = 24 * 60 * 60 * 1000;

type Confirmation = { readonly kind: 'delete' | 'resetMfa' | 'promote'; readonly user: ManagedUser };

/** The key of the confirmed action's call; a row's own action runs under the user's email. */
const CONFIRM = Symbol('confirm');

/** /admin/users: every account, with create, edit, enable/disable, delete, MFA reset and promotion to admin. */
export default function UsersPage() {
  const api = useAdminApi();
  const signedInEmail = useAuth().session?.email ?? '';
  const listUsers = useCallback((fullListing: boolean) => api.users.listUsers(fullListing), [api]);
  const users = useUserListing(listUsers);
  const { update: updateUsers, reload, reloadFull } = users;
  const allUsers = users.data ?? NO_USERS;
  const search = useSearch(allUsers, userSearchText);
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const [editing, setEditing] = useState<EditedUser | null>(null);
  const companyList = useCompanyList();
  const companyChoices = companyChoicesOf(companyList);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const call = useServerCall<string | typeof CONFIRM, Failure>();
  const { run, setFailure } = call;
  const confirmBusy = call.isBusy(CONFIRM);
  // The row whose action started last and is still under way.
  const busyEmail = call.pending.findLast((key) => typeof key === 'string') ?? null;

  const { reload: reloadCompanies } = companyList;
  const retry = useCallback(() => {
    reload();
    reloadCompanies();
  }, [reload, reloadCompanies]);
  const refresh = () => {
    reloadFull();
    reloadCompanies();
  };

  const stats = useMemo(() => {
    const active = allUsers.reduce((count, user) => count + (user.enabled ? 1 : 0), 0);
    return [
      { label: 'Total Users', value: allUsers.length },
      { label: 'Active Users', value: active, tone: 'success' as const },
      { label: 'Disabled Users', value: allUsers.length - active, tone: 'danger' as const },
    ];
  }, [allUsers]);

  const toggle = useCallback(
    (user: ManagedUser) =>
      run(
        user.email,
        async () => {
          await (user.enabled ? api.users.disableUser(user.email) : api.users.enableUser(user.email));
          updateUsers((list) => list.map((u) => (u.email === user.email ? { ...u, enabled: !user.enabled } : u)));
          notify.success(`User ${user.enabled ? 'disabled' : 'enabled'} successfully`);
        },
        {
          failure: (error) => ({
            title: user.enabled ? ADMIN_FAILURES.disableUser : ADMIN_FAILURES.enableUser,
            lines: [userManagementErrorText(error)],
          }),
        },
      ),
    [api, updateUsers, run],
  );

  const resendInvitation = useCallback(
    (user: ManagedUser) =>
      run(
        user.email,
        async () => {
          const { message } = await api.users.resendInvitation(user.email);
          // The new temporary password works for the pool's validity from now.
          const invitationExpires = new Date(Date.now() + INVITATION_VALIDITY_DAYS * DAY_MS).toISOString();
          updateUsers((list) => list.map((u) => (u.email === user.email ? { ...u, invitationExpires } : u)));
          notify.success(message);
        },
        { failure: (error) => ({ title: ADMIN_FAILURES.resendInvitation, lines: [userManagementErrorText(error)] }) },
      ),
    [api, updateUsers, run],
  );

  const onAction = useCallback(
    (action: UserAction, user: ManagedUser) => {
      if (action === 'edit') setEditing({ email: user.email, companies: user.companies, owner: user.owner });
      else if (action === 'toggle') void toggle(user);
      else if (action === 'resendInvitation') void resendInvitation(user);
      else setConfirmation({ kind: action, user });
    },
    [toggle, resendInvitation],
  );

  const setUserCompanies = useCallback(
    async (email: string, choice: UserCompanies) => {
      const { message, companies, owner } = await api.quicksight.setUserCompanies(email, choice);
      updateUsers((list) => list.map((u) => (u.email === email ? { ...u, companies, owner } : u)));
      return message;
    },
    [api, updateUsers],
  );

  const create = async ({ email, password, companies }: CreateUserForm) => {
    const { message } =
      password === undefined ? await api.users.inviteUser(email) : await api.users.createUser(email, password);
    setCreating(false);
    if (companies !== undefined) {
      // The account exists now; a refused company is reported without undoing it.
      try {
        await api.quicksight.setUserCompanies(email, companies);
      } catch (error) {
        setFailure({
          title: COMPANY_TEXTS.createdWithoutCompany,
          lines: [failureText(error, ADMIN_FAILURES.setUserCompanies), COMPANY_TEXTS.setCompanyLater],
        });
      }
    }
    // Announced once the account holds its company, so the reloaded row shows it.
    notify.success(password === undefined ? message : 'User created successfully');
    reload();
  };

  const updatePassword = async (email: string, newPassword: string) => {
    await api.users.updatePassword(email, newPassword);
  };

  const confirm = async () => {
    if (!confirmation) return;
    const { kind, user } = confirmation;
    const work = async () => {
      if (kind === 'delete') {
        await api.users.deleteUser(user.email);
        updateUsers((list) => list.filter((u) => u.email !== user.email));
        notify.success(`User ${user.email} deleted successfully`);
      } else if (kind === 'promote') {
        const { message } = await api.users.promoteToAdmin(user.email);
        updateUsers((list) => list.map((u) => (u.email === user.email ? { ...u, cognitoGroup: ADMINS_GROUP } : u)));
        notify.success(message);
      } else {
        const { message } = await api.users.resetMfa(user.email);
        notify.success(message);
      }
    };
    await run(CONFIRM, work, {
      failure: (error) =>
        kind === 'delete'
          ? { title: deleteUserFailureText(user.email, error), lines: [] }
          : {
              title: kind === 'promote' ? ADMIN_FAILURES.promote : ADMIN_FAILURES.resetMfa,
              lines: [userManagementErrorText(error)],
            },
      settled: () => setConfirmation(null),
    });
  };

  return (
    <div className="stack">
      <PageHeader
        title="User Management"
        description="Create accounts, change passwords, and enable, disable or delete users."
        actions={
          <div className="row">
            <Button variant="secondary" onClick={refresh} disabled={users.loading}>
              {users.loading && users.data !== undefined ? 'Refreshing...' : 'Refresh'}
            </Button>
            <Button variant="secondary" onClick={() => setImporting(true)}>
              Import Users
            </Button>
            <Button onClick={() => setCreating(true)}>Add New User</Button>
          </div>
        }
      />
      <StatCards stats={stats} />
      <Alert tone="warning" title="Security notice">
        <p>{SECURITY_NOTICE}</p>
      </Alert>
      {call.failure && <FailureAlert failure={call.failure} onDismiss={() => setFailure(null)} />}
      <UserListCard
        title="All Users"
        search={search}
        total={allUsers.length}
        loading={users.data === undefined && users.loading}
        failure={{
          error: users.error,
          title: ADMIN_FAILURES.loadUsers,
          onRetry: retry,
          retrying: users.loading,
          hasRows: users.data !== undefined,
        }}
      >
        <UsersTable
          users={search.rows}
          signedInEmail={signedInEmail}
          busyEmail={busyEmail}
          query={search.appliedQuery}
          onAction={onAction}
        />
      </UserListCard>

      <CreateUserModal
        open={creating}
        companies={companyChoices}
        onClose={() => setCreating(false)}
        onCreate={create}
      />
      {importing && (
        <Suspense fallback={null}>
          <ImportUsersDialog
            open
            existingEmails={allUsers.map((user) => user.email)}
            onClose={(imported) => {
              setImporting(false);
              if (imported) reload();
            }}
          />
        </Suspense>
      )}
      <EditUserModal
        user={editing}
        companies={companyChoices}
        onClose={() => setEditing(null)}
        onUpdatePassword={updatePassword}
        onSetCompanies={setUserCompanies}
      />
      <ConfirmDialog
        open={confirmation?.kind === 'delete'}
        title="Delete User"
        confirmLabel="Delete"
        busyLabel="Deleting..."
        busy={confirmBusy}
        onConfirm={() => void confirm()}
        onCancel={() => setConfirmation(null)}
      >
        <p>
          Are you sure you want to delete <strong>{confirmation?.user.email}</strong>? The account, its dashboard
          assignments and its QuickSight user are removed. This cannot be undone.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirmation?.kind === 'resetMfa'}
        title="Reset MFA"
        confirmLabel="Reset MFA"
        busyLabel="Resetting..."
        busy={confirmBusy}
        onConfirm={() => void confirm()}
        onCancel={() => setConfirmation(null)}
      >
        <p>
          Reset MFA for <strong>{confirmation?.user.email}</strong>? Their authenticator app and passkeys are removed
          and they are signed out everywhere. At their next sign-in they set up a new authenticator before they can
          continue.
        </p>
        {confirmation?.kind === 'resetMfa' && <UserFactors email={confirmation.user.email} />}
      </ConfirmDialog>
      <ConfirmDialog
        open={confirmation?.kind === 'promote'}
        title="Make Admin"
        confirmLabel="Make Admin"
        busyLabel="Making Admin..."
        busy={confirmBusy}
        onConfirm={() => void confirm()}
        onCancel={() => setConfirmation(null)}
      >
        <p>
          Make <strong>{confirmation?.user.email}</strong> an admin? They can then manage every account and dashboard,
          and their own account becomes protected like yours. The portal cannot undo this: removing someone from the
          Admins group is done in Cognito by the platform team.
        </p>
      </ConfirmDialog>
    </div>
  );
}
