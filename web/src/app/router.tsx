import { Suspense, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { FullPageLoading } from '../components/layout/full-page-status.tsx';
import { RouteErrorBoundary } from '../components/layout/route-error-boundary.tsx';
import { RequireAuth } from '#web/components/sign-in/require-auth.tsx';
import { useAuth } from '../lib/auth/auth-context.ts';
import { USER_PORTAL_GROUPS } from '#contracts/groups.ts';
import { paths } from '../config/paths.ts';
import { lazyPage } from '../lib/lazy-page.ts';

const LoginPage = lazyPage(() => import('../features/auth/routes/login-page.tsx'));
const SignUpPage = lazyPage(() => import('../features/auth/routes/signup-page.tsx'));
const ChangePasswordPage = lazyPage(() => import('../features/auth/routes/change-password-page.tsx'));
const VerifyResetCodePage = lazyPage(() => import('../features/auth/routes/verify-reset-code-page.tsx'));
const PortalShell = lazyPage(() =>
  import('../features/portal/components/portal-shell.tsx').then((module) => ({ default: module.PortalShell })),
);
const HomePage = lazyPage(() => import('../features/dashboard/routes/home-page.tsx'));
const SupportPage = lazyPage(() => import('../features/support/routes/support-page.tsx'));
const SettingsPage = lazyPage(() => import('../features/settings/routes/settings-page.tsx'));
const MfaSettingsPage = lazyPage(() => import('../features/settings/routes/mfa-settings-page.tsx'));
const AdminApp = lazyPage(() => import('../features/admin/admin-app.tsx'));

const SessionGuard = lazyPage(() => import('./session-guard.tsx'));

/** The idle and absolute session limits, for whoever is signed in; loaded after the sign-in. */
export function SessionLimits() {
  const { status } = useAuth();
  if (status !== 'signedIn') return null;
  return (
    <Suspense fallback={null}>
      <SessionGuard />
    </Suspense>
  );
}

const page = (element: ReactNode) => <Suspense fallback={<FullPageLoading />}>{element}</Suspense>;

/** Every route of the SPA; each page is its own chunk, loaded when first visited. */
function AppRoutes() {
  return (
    <RouteErrorBoundary>
      <Suspense fallback={<FullPageLoading />}>
        <Routes>
          <Route path={paths.root} element={<LoginPage />} />
          <Route path={paths.login} element={<LoginPage />} />
          <Route path={paths.signup} element={<SignUpPage />} />
          <Route path={paths.changePassword} element={<ChangePasswordPage />} />
          <Route path={paths.verifyResetCode} element={<VerifyResetCodePage />} />
          <Route path={paths.resetPasswordCallback} element={<Navigate to={paths.login} replace />} />
          <Route
            element={
              <RequireAuth groups={USER_PORTAL_GROUPS} loginPath={paths.login}>
                <PortalShell />
              </RequireAuth>
            }
          >
            <Route path={paths.home} element={page(<HomePage />)} />
            <Route path={paths.dashboard} element={page(<HomePage />)} />
            <Route path={paths.support} element={page(<SupportPage />)} />
            <Route path={paths.settings} element={page(<SettingsPage />)} />
            <Route path={paths.mfaSettings} element={page(<MfaSettingsPage />)} />
          </Route>
          <Route path={`${paths.admin.root}/*`} element={<AdminApp />} />
          <Route path="*" element={<Navigate to={paths.login} replace />} />
        </Routes>
      </Suspense>
      <SessionLimits />
    </RouteErrorBoundary>
  );
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
