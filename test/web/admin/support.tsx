import { render, screen, type RenderResult } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';
import type { AccessCheck, Company } from '#contracts/companies.ts';
import type { CognitoUserWithQuicksight, DashboardMetadata } from '#contracts/quicksight-admin.ts';
import type { ManagedUser } from '#contracts/user-admin.ts';
import { Toaster } from '#web/components/toaster.tsx';
import type { AdminApi, QuicksightAdminApi, UserAdminApi } from '#web/features/admin/api/admin-api.ts';
import { AdminApiContext } from '#web/features/admin/api/admin-api-context.tsx';
import { ApiError } from '#web/lib/api.ts';
import { AuthContext, type AuthContextValue } from '#web/lib/auth/auth-context.ts';
import { ConfigProvider } from '#web/lib/config-context.tsx';
import { testConfig } from '../support/config.ts';
import { fakeAuth, userSession } from '../support/render.tsx';

export const ADMIN_EMAIL = 'demo.admin@example.com';

export const adminSession = () => userSession({ email: ADMIN_EMAIL, groups: ['Admins'], username: 'admin-sub' });
export const signedInAdmin = (overrides: Partial<AuthContextValue> = {}) =>
  fakeAuth({ session: adminSession(), ...overrides });

/**
 * jsdom lays nothing out, so scrolling regions measure 0 px and a virtualized table would
 * render no rows. Give every element a viewport of `height` pixels.
 */
export function stubViewport(height = 800) {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(height);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1200);
}

type Mocked<T> = { [K in keyof T]: T[K] & ReturnType<typeof vi.fn> };

export interface AdminApiOverrides {
  readonly quicksight?: Partial<QuicksightAdminApi>;
  readonly users?: Partial<UserAdminApi>;
}

/** Every call of both management functions is a mock that fails unless a test answers it. */
export function fakeAdminApi(overrides: AdminApiOverrides = {}) {
  const unexpected = (name: string) => vi.fn(async () => Promise.reject(new Error(`unexpected call: ${name}`)));
  const quicksight = {
    listUsers: unexpected('quicksight.listUsers'),
    registerUser: unexpected('registerUser'),
    deleteUser: unexpected('quicksight.deleteUser'),
    userDashboards: unexpected('userDashboards'),
    invite: unexpected('invite'),
    removeFromDashboard: unexpected('removeFromDashboard'),
    setDefaultDashboard: unexpected('setDefaultDashboard'),
    listCatalogue: unexpected('listCatalogue'),
    createDashboard: unexpected('createDashboard'),
    updateDashboard: unexpected('updateDashboard'),
    deleteDashboard: unexpected('deleteDashboard'),
    importUser: unexpected('importUser'),
    insights: unexpected('insights'),
    insightUsers: unexpected('insightUsers'),
    listCompanies: unexpected('listCompanies'),
    createCompany: unexpected('createCompany'),
    updateCompany: unexpected('updateCompany'),
    deleteCompany: unexpected('deleteCompany'),
    setUserCompanies: unexpected('setUserCompanies'),
    checkCompanyAccess: unexpected('checkCompanyAccess'),
    listSubscriptions: unexpected('listSubscriptions'),
    sendSubscriptionNow: unexpected('sendSubscriptionNow'),
    cancelSubscription: unexpected('cancelSubscription'),
    ...overrides.quicksight,
  } as unknown as Mocked<QuicksightAdminApi>;
  const users = {
    listUsers: unexpected('users.listUsers'),
    createUser: unexpected('createUser'),
    updatePassword: unexpected('updatePassword'),
    enableUser: unexpected('enableUser'),
    disableUser: unexpected('disableUser'),
    deleteUser: unexpected('users.deleteUser'),
    resetMfa: unexpected('resetMfa'),
    userFactors: unexpected('userFactors'),
    promoteToAdmin: unexpected('promoteToAdmin'),
    auditLog: unexpected('auditLog'),
    exportAuditLog: unexpected('exportAuditLog'),
    inviteUser: unexpected('inviteUser'),
    resendInvitation: unexpected('resendInvitation'),
    ...overrides.users,
  } as unknown as Mocked<UserAdminApi>;
  return { quicksight, users } satisfies AdminApi;
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname}</output>;
}

export interface AdminRenderOptions {
  readonly api?: AdminApi;
  readonly auth?: AuthContextValue;
  /** Provides the auth context itself (e.g. one whose sign-in changes the session); replaces `auth`. */
  readonly AuthHost?: (props: { readonly children: ReactNode }) => ReactNode;
  readonly path?: string;
  readonly route?: string;
}

/** Renders an admin screen as the app does: config, auth, management API, router, toaster. */
export function renderAdmin(
  element: ReactNode,
  { api = fakeAdminApi(), auth = signedInAdmin(), AuthHost, path = '/admin/users', route }: AdminRenderOptions = {},
): RenderResult {
  const Host =
    AuthHost ??
    (({ children }: { readonly children: ReactNode }) => (
      <AuthContext.Provider value={auth}>{children}</AuthContext.Provider>
    ));
  return render(
    <ConfigProvider config={testConfig}>
      <Host>
        <AdminApiContext.Provider value={api}>
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              <Route path={route ?? path} element={element} />
              <Route path="*" element={null} />
            </Routes>
            <LocationProbe />
          </MemoryRouter>
          <Toaster />
        </AdminApiContext.Provider>
      </Host>
    </ConfigProvider>,
  );
}

/** A failed call as the API client reports it. */
export const apiError = (
  status: number,
  error: string,
  extra: Partial<ConstructorParameters<typeof ApiError>[0]> = {},
) => new ApiError({ status, statusText: '', error, ...extra });

export const managedUser = (email: string, overrides: Partial<ManagedUser> = {}): ManagedUser => ({
  username: `sub-${email}`,
  email,
  enabled: true,
  status: 'CONFIRMED',
  cognitoGroup: 'Users',
  created: '2026-03-14T10:00:00.000Z',
  companies: [],
  owner: false,
  ...overrides,
});

export const cognitoUser = (
  email: string,
  overrides: Partial<CognitoUserWithQuicksight> = {},
): CognitoUserWithQuicksight => ({
  username: `sub-${email}`,
  email,
  enabled: true,
  status: 'CONFIRMED',
  existsInQuickSight: false,
  cognito: { cognitoGroup: 'Users' },
  quicksight: null,
  companies: [],
  owner: false,
  ...overrides,
});

export const registered = (email: string, role = 'READER', group = 'Users') =>
  cognitoUser(email, {
    existsInQuickSight: true,
    cognito: { cognitoGroup: group },
    quicksight: { role, userName: email, arn: `arn:aws:quicksight:us-east-2:000000000000:user/default/${email}` },
  });

export const catalogueEntry = (
  dashboardId: string,
  dashboardName: string,
  overrides: Partial<DashboardMetadata> = {},
): DashboardMetadata => ({
  id: `rec-${dashboardId}`,
  dashboardId,
  dashboardName,
  dashboardLink: `https://dashboards.example.com/${dashboardId}`,
  description: `${dashboardName} for distributors`,
  isActive: true,
  ...overrides,
});

export const company = (name: string, overrides: Partial<Company> = {}): Company => ({
  id: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
  name,
  kind: 'manufacturer',
  groupName: `portal-company-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
  userCount: 0,
  dashboards: [],
  createdAt: '2026-03-01T09:00:00.000Z',
  updatedAt: '2026-03-01T09:00:00.000Z',
  ...overrides,
});

/** LIST_COMPANIES as a mock: the companies and the last company-access check. */
export const listCompaniesOf = (companies: readonly Company[], lastCheck: AccessCheck | null = null) =>
  vi.fn(async () => ({ companies: [...companies], lastCheck }));

type UserEventApi = ReturnType<typeof userEvent.setup>;

/** Opens the '⋯' menu of a row or card ('Actions for {label}') and returns the item of that name. */
export async function rowActionItem(user: UserEventApi, label: string, item: string): Promise<HTMLElement> {
  await user.click(await screen.findByRole('button', { name: `Actions for ${label}` }));
  return screen.getByRole('menuitem', { name: item });
}

/** Chooses one action of a row's '⋯' menu. */
export async function chooseRowAction(user: UserEventApi, label: string, item: string): Promise<void> {
  await user.click(await rowActionItem(user, label, item));
}
