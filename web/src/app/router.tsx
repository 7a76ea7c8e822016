import { Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { FullPageLoading } from '../components/layout/full-page-status.tsx';
import { RouteErrorBoundary } from '../components/layout/route-error-boundary.tsx';
import { lazyPage } from './lazy-page.ts';
import { paths } from './paths.ts';

const LoginPage = lazyPage(() => import('../features/auth/routes/login-page.tsx'));
const AdminApp = lazyPage(() => import('../features/admin/admin-app.tsx'));

/** Every route; each page is its own chunk, loaded when first visited. */
export function AppRouter() {
  return (
    <BrowserRouter>
      <RouteErrorBoundary>
        <Suspense fallback={<FullPageLoading />}>
          <Routes>
            <Route path={paths.root} element={<LoginPage />} />
            <Route path={paths.login} element={<LoginPage />} />
            <Route path={paths.resetPasswordCallback} element={<Navigate to={paths.login} replace />} />
            <Route path={`${paths.admin.root}/*`} element={<AdminApp />} />
            <Route path="*" element={<Navigate to={paths.login} replace />} />
          </Routes>
        </Suspense>
      </RouteErrorBoundary>
    </BrowserRouter>
  );
}
