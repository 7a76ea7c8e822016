import { useCallback, useMemo, useState } from 'react';
import { companiesLabel } from '#contracts/companies.ts';
import type { CognitoUserWithQuicksight, DashboardMetadata } from '#contracts/quicksight-admin.ts';
import { Badge } from '#web/components/badge.tsx';
import { Button } from '#web/components/button.tsx';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { PageHeader } from '#web/components/layout/page-header.tsx';
import { notify } from '#web/components/toaster.tsx';
import { useAuth } from '#web/lib/auth/auth-context.ts';
import { useServerCall } from '#web/lib/use-server-call.ts';
import type { DashboardFields, InviteFields } from '../api/admin-api.ts';
import { useAdminApi } from '../api/admin-api-context.tsx';
import { assignmentsByEmail } from '../components/assigned-dashboards.tsx';
import { CatalogueSection } from '../components/catalogue-section.tsx';
import { CognitoUsersTable, isAdminUser, type CognitoUserAction } from '../components/cognito-users-table.tsx';
import { DashboardFormModal } from '../components/dashboard-form-modal.tsx';
import { DeleteDashboardDialog } from '../components/delete-dashboard-dialog.tsx';
import { FailureAlert } from '../components/failure-alert.tsx';
import { InviteModal } from '../components/invite-modal.tsx';
import { UserDashboardsPanel } from '../components/user-dashboards-panel.tsx';
import { UserListCard, userSearchText } from '../components/user-list-card.tsx';
import { actionFailure, ADMIN_FAILURES, dashboardUpdatedText, registrationFailure, type Failure } from '../errors.ts';
import { countText } from '../count-text.ts';
import { useSearch } from '../search.ts';
import { useResource } from '#web/lib/use-resource.ts';
import { useUserListing } from '../use-resource.ts';

const NO_USERS: readonly CognitoUserWithQuicksight[] = [];
const NO_DASHBOARDS: readonly DashboardMetadata[] = [];

/** The key of the confirmed removal from QuickSight; a registration runs under the user's email. */
const DELETE_USER = Symbol('delete user');

/** /admin/dashboard and /admin/quicksight: the catalogue, and Cognito users with their QuickSight access. */
export default function DashboardsPage() {
  const api = useAdminApi();
  const signedInEmail = useAuth().session?.email ?? '';
  const listUsers = useCallback((fullListing: boolean) => api.quicksight.listUsers(fullListing), [api]);
  const loadCatalogue = useCallback(() => api.quicksight.listCatalogue(), [api]);
  const users = useUserListing(listUsers);
  const catalogue = useResource(loadCatalogue);
  const { update: updateUsers } = users;
  const allUsers = users.data ?? NO_USERS;
  const search = useSearch(allUsers, userSearchText);
  const adminCount = useMemo(() => allUsers.filter(isAdminUser).length, [allUsers]);
  const { update: updateCatalogue } = catalogue;
  const assignments = useMemo(
    () => (catalogue.data === undefined ? undefined : assignmentsByEmail(catalogue.data)),
    [catalogue.data],
  );

  /** Keeps each user's dashboards current after an assignment or a removal, without reloading the catalogue. */
  const noteAssignment = useCallback(
    (email: string, dashboardId: string, assigned: boolean) => {
      const key = email.toLowerCase();
      updateCatalogue((list) =>
        list.map((entry) => {
          if (entry.dashboardId.toLowerCase() !== dashboardId.toLowerCase()) return entry;
          const others = (entry.assignedUserEmails ?? []).filter((holder) => holder.toLowerCase() !== key);
          const holders = assigned ? [...others, key].sort() : others;
          return { ...entry, assignedUserEmails: holders, assignedUsers: holders.length };
        }),
      );
    },
    [updateCatalogue],
  );
  const invite = useCallback(
    async (fields: InviteFields) => {
      const answer = await api.quicksight.invite(fields);
      noteAssignment(fields.userEmail, fields.dashboardId, true);
      return answer;
    },
    [api, noteAssignment],
  );

  const call = useServerCall<string | typeof DELETE_USER, Failure>();
  const { run, setFailure } = call;
  // The row whose registration started last and is still under way.
  const busyEmail = call.pending.findLast((key) => typeof key === 'string') ?? null;
  const [panelEmail, setPanelEmail] = useState<string | null>(null);
  const [inviteEmail, setInviteEmail] = useState<string | null>(null);
  const [deletingUser, setDeletingUser] = useState<string | null>(null);
  const [editTarget, setEditTarget] = useState<'create' | DashboardMetadata | null>(null);
  const [deletingDashboard, setDeletingDashboard] = useState<DashboardMetadata | null>(null);

  const setRegistration = useCallback(
    (email: string, quicksight: CognitoUserWithQuicksight['quicksight']) =>
      updateUsers((list) =>
        list.map((u) => (u.email === email ? { ...u, existsInQuickSight: quicksight !== null, quicksight } : u)),
      ),
    [updateUsers],
  );

  const register = useCallback(
    (email: string) =>
      run(
        email,
        async () => {
          const { message, user } = await api.quicksight.registerUser(email);
          setRegistration(email, user);
          notify.success(message);
        },
        { failure: registrationFailure },
      ),
    [api, setRegistration, run],
  );

  const invited = inviteEmail === null ? undefined : allUsers.find((candidate) => candidate.email === inviteEmail);
  const companyOfInvited = companiesLabel(invited?.companies ?? []);

  const onUserAction = useCallback(
    (action: CognitoUserAction, user: CognitoUserWithQuicksight) => {
      if (action === 'register') void register(user.email);
      else if (action === 'dashboards') setPanelEmail(user.email);
      else if (action === 'invite') setInviteEmail(user.email);
      else setDeletingUser(user.email);
    },
    [register],
  );

  const deleteFromQuickSight = async () => {
    if (deletingUser === null) return;
    const work = async () => {
      await api.quicksight.deleteUser(deletingUser);
      setRegistration(deletingUser, null);
      notify.success(`${deletingUser} was removed from QuickSight`);
    };
    await run(DELETE_USER, work, {
      failure: (error) => actionFailure(ADMIN_FAILURES.deleteUser, error),
      settled: () => setDeletingUser(null),
    });
  };

  const saveDashboard = async (fields: DashboardFields, existing: DashboardMetadata | null) => {
    if (existing) {
      const { updatedUserAssignments } = await api.quicksight.updateDashboard(existing.id, fields);
      notify.success(dashboardUpdatedText(updatedUserAssignments));
    } else {
      const { message } = await api.quicksight.createDashboard(fields);
      notify.success(message);
    }
    setEditTarget(null);
    catalogue.reload();
  };

  const refresh = () => {
    users.reloadFull();
    catalogue.reload();
  };

  // Kept stable, so the memoized catalogue renders again only when the load changes.
  const { error: catalogueError, loading: catalogueLoading, reload: reloadCatalogue } = catalogue;
  const catalogueLoaded = catalogue.data !== undefined;
  const catalogueFailure = useMemo(
    () => ({
      error: catalogueError,
      title: ADMIN_FAILURES.loadDashboards,
      onRetry: reloadCatalogue,
      retrying: catalogueLoading,
      hasRows: catalogueLoaded,
    }),
    [catalogueError, catalogueLoading, reloadCatalogue, catalogueLoaded],
  );

  const onEditDashboard = useCallback((dashboard: DashboardMetadata) => setEditTarget(dashboard), []);
  const onAddDashboard = useCallback(() => setEditTarget('create'), []);

  return (
    <div className="stack">
      <PageHeader
        title="Cognito Users"
        description="The dashboard catalogue, and who may see which dashboard."
        actions={
          <Button variant="secondary" onClick={refresh} disabled={users.loading || catalogue.loading}>
            {users.loading && users.data !== undefined ? 'Refreshing...' : 'Refresh'}
          </Button>
        }
      />
      {call.failure && <FailureAlert failure={call.failure} onDismiss={() => setFailure(null)} />}
      <CatalogueSection
        dashboards={catalogue.data}
        onAdd={onAddDashboard}
        onEdit={onEditDashboard}
        onDelete={setDeletingDashboard}
        failure={catalogueFailure}
      />

      <UserListCard
        titleId="cognito-users-title"
        title={
          <span id="cognito-users-title" className="row">
            Cognito Users
            {users.data !== undefined && (
              <>
                <Badge tone="info">{countText(allUsers.length, 'user', 'users')}</Badge>
                <Badge tone="warning">{countText(adminCount, 'admin', 'admins')}</Badge>
              </>
            )}
          </span>
        }
        search={search}
        total={allUsers.length}
        loading={users.data === undefined && users.loading}
        failure={{
          error: users.error,
          title: ADMIN_FAILURES.loadCognitoUsers,
          onRetry: users.reload,
          retrying: users.loading,
          hasRows: users.data !== undefined,
        }}
      >
        <CognitoUsersTable
          users={search.rows}
          signedInEmail={signedInEmail}
          busyEmail={busyEmail}
          query={search.appliedQuery}
          assignments={assignments}
          onAction={onUserAction}
        />
      </UserListCard>

      <UserDashboardsPanel
        email={panelEmail}
        onClose={() => setPanelEmail(null)}
        onRemoved={(email, dashboardId) => noteAssignment(email, dashboardId, false)}
      />
      <InviteModal
        email={inviteEmail}
        company={companyOfInvited}
        hasDashboards={
          inviteEmail === null ||
          assignments === undefined ||
          (assignments.get(inviteEmail.toLowerCase())?.length ?? 0) > 0
        }
        catalogue={catalogue.data ?? NO_DASHBOARDS}
        onClose={() => setInviteEmail(null)}
        invite={invite}
        // The catalogue card shows 'Shared data' from the entry the confirmation just updated.
        onSharedDataConfirmed={catalogue.reload}
      />
      <DashboardFormModal
        target={editTarget}
        catalogue={catalogue.data ?? NO_DASHBOARDS}
        onClose={() => setEditTarget(null)}
        onSave={saveDashboard}
      />
      <DeleteDashboardDialog
        dashboard={deletingDashboard}
        onClose={() => setDeletingDashboard(null)}
        onDeleted={() => {
          setDeletingDashboard(null);
          catalogue.reload();
        }}
      />
      <ConfirmDialog
        open={deletingUser !== null}
        title="Delete QuickSight User"
        confirmLabel="Delete"
        busyLabel="Deleting..."
        busy={call.isBusy(DELETE_USER)}
        onConfirm={() => void deleteFromQuickSight()}
        onCancel={() => setDeletingUser(null)}
      >
        <p>
          Remove <strong>{deletingUser}</strong> from QuickSight? Their dashboard assignments are removed too. The
          sign-in account stays.
        </p>
      </ConfirmDialog>
    </div>
  );
}
