import { Navigate, Route, Routes, useNavigate } from 'react-router';
import { paths } from '../../app/paths.ts';
import { Button } from '../../components/button.tsx';
import { AuthLayout } from '../../components/layout/auth-layout.tsx';
import { useAuth } from '../../lib/auth/auth-context.ts';
import { useConfig } from '../../lib/config-context.tsx';
import { RequireAuth } from '../auth/components/require-auth.tsx';
import { SignInFlow } from '../auth/components/sign-in-flow.tsx';
import { ADMIN_PORTAL_GROUPS } from '../auth/user-groups.ts';

function AdminLogin() {
  const { productName } = useConfig();
  const navigate = useNavigate();
  return (
    <AuthLayout productTitle={`${productName} Admin Portal`} tagline={<p>Administrative access to {productName} platform</p>}>
      <SignInFlow
        requiredGroups={ADMIN_PORTAL_GROUPS}
        privilege="admin"
        productName={productName}
        labels={{ email: 'Email', password: 'Password', submit: 'Admin Login', busy: 'Signing In...' }}
        redirectText="Redirecting to the admin portal..."
        onSignedIn={() => navigate(paths.admin.users, { replace: true })}
      />
    </AuthLayout>
  );
}

function AdminHome() {
  const { productName } = useConfig();
  const { session, signOut } = useAuth();
  const navigate = useNavigate();
  return (
    <main className="page stack" id="main">
      <h1>{productName} Admin Portal</h1>
      <p>Signed in as {session?.email}.</p>
      <div>
        <Button
          variant="secondary"
          onClick={async () => {
            await signOut();
            navigate(paths.admin.login, { replace: true });
          }}
        >
          Logout
        </Button>
      </div>
    </main>
  );
}

/** The admin portal, mounted at /admin/* and loaded on demand. */
export default function AdminApp() {
  return (
    <Routes>
      <Route index element={<Navigate to={paths.admin.login} replace />} />
      <Route path="login" element={<AdminLogin />} />
      <Route
        path="*"
        element={
          <RequireAuth groups={ADMIN_PORTAL_GROUPS} loginPath={paths.admin.login}>
            <AdminHome />
          </RequireAuth>
        }
      />
    </Routes>
  );
}
