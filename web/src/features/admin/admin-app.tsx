import { Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { lazyPage } from '#web/lib/lazy-page.ts';
import { paths } from '#web/config/paths.ts';
import { FullPageLoading } from '#web/components/layout/full-page-status.tsx';
import { RequireAuth } from '#web/components/sign-in/require-auth.tsx';
import { ADMIN_PORTAL_GROUPS } from '#contracts/groups.ts';
import { AdminApiProvider } from './api/admin-api-context.tsx';
import { ADMIN_PAGE_PATHS } from './admin-paths.ts';
import { AdminShell } from './components/admin-shell.tsx';

const AdminLoginPage = lazyPage(() => import('./routes/admin-login-page.tsx'));
const AdminForgotPasswordPage = lazyPage(() => import('./routes/admin-forgot-password-page.tsx'));
const AdminChangePasswordPage = lazyPage(() => import('./routes/admin-change-password-page.tsx'));
const DashboardsPage = lazyPage(() => import('./routes/dashboards-page.tsx'));
const UsersPage = lazyPage(() => import('./routes/users-page.tsx'));
const CompaniesPage = lazyPage(() => import('./routes/companies-page.tsx'));
const ActivityPage = lazyPage(() => import('./routes/activity-page.tsx'));
const InsightsPage = lazyPage(() => import('./routes/insights-page.tsx'));
const DeliveriesPage = lazyPage(() => import('./routes/deliveries-page.tsx'));

/** A route of `paths.admin` relative to the /admin/* mount point. */
const below = (path: string) => path.slice(paths.admin.root.length + 1);

/** The admin portal, mounted at /admin/* and loaded on demand; each screen is its own chunk. */
export default function AdminApp() {
  return (
    <Suspense fallback={<FullPageLoading />}>
      <Routes>
        <Route index element={<Navigate to={paths.admin.login} replace />} />
        <Route path={below(paths.admin.login)} element={<AdminLoginPage />} />
        <Route path={below(paths.admin.forgotPassword)} element={<AdminForgotPasswordPage />} />
        <Route path={below(paths.admin.changePassword)} element={<AdminChangePasswordPage />} />
        <Route
          element={
            <RequireAuth groups={ADMIN_PORTAL_GROUPS} loginPath={paths.admin.login}>
              <AdminApiProvider>
                <AdminShell />
              </AdminApiProvider>
            </RequireAuth>
          }
        >
          <Route path={below(paths.admin.dashboard)} element={<DashboardsPage />} />
          <Route path={below(paths.admin.quicksight)} element={<DashboardsPage />} />
          <Route path={below(paths.admin.users)} element={<UsersPage />} />
          <Route path={below(ADMIN_PAGE_PATHS.companies)} element={<CompaniesPage />} />
          <Route path={below(ADMIN_PAGE_PATHS.activity)} element={<ActivityPage />} />
          <Route path={below(ADMIN_PAGE_PATHS.insights)} element={<InsightsPage />} />
          <Route path={below(ADMIN_PAGE_PATHS.deliveries)} element={<DeliveriesPage />} />
        </Route>
        <Route path="*" element={<Navigate to={paths.admin.login} replace />} />
      </Routes>
    </Suspense>
  );
}
