import { Suspense } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { paths } from '../../../app/paths.ts';
import { Button } from '../../../components/button.tsx';
import { AppShell } from '../../../components/layout/app-shell.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useAuth } from '../../../lib/auth/auth-context.ts';
import { useConfig } from '../../../lib/config-context.tsx';

const DASHBOARD_ROUTES: readonly string[] = [paths.admin.dashboard, paths.admin.quicksight];

/** The signed-in admin portal: title, the admin's email, Change Password, Logout, tabs. */
export function AdminShell() {
  const { productName } = useConfig();
  const { session, signOut } = useAuth();
  const navigate = useNavigate();
  const { pathname } = useLocation();

  const logOut = async () => {
    await signOut();
    navigate(paths.admin.login, { replace: true });
  };

  const tabs = [
    { to: paths.admin.users, label: 'Manage Users', current: pathname === paths.admin.users },
    { to: paths.admin.dashboard, label: 'Manage Dashboards', current: DASHBOARD_ROUTES.includes(pathname) },
    { to: paths.admin.activity, label: 'Activity', current: pathname === paths.admin.activity },
    { to: paths.admin.insights, label: 'Insights', current: pathname === paths.admin.insights },
  ];

  return (
    <AppShell
      header={
        <>
          <div className="admin-brand">
            <img src="/logo.svg" alt="" width={200} height={56} className="shell-logo" />
            <p className="admin-title">{productName} Admin Portal</p>
          </div>
          <div className="admin-account">
            <span className="admin-email">
              <span className="visually-hidden">Signed in as </span>
              {session?.email}
            </span>
            <Link className="admin-header-link" to={paths.admin.changePassword}>
              Change Password
            </Link>
            <Button size="sm" variant="secondary" onClick={() => void logOut()}>
              Logout
            </Button>
          </div>
        </>
      }
      navLabel="Admin sections"
      nav={
        <ul>
          {tabs.map((tab) => (
            <li key={tab.to}>
              <Link to={tab.to} aria-current={tab.current ? 'page' : undefined}>
                {tab.label}
              </Link>
            </li>
          ))}
        </ul>
      }
    >
      <Suspense fallback={<Spinner />}>
        <Outlet />
      </Suspense>
    </AppShell>
  );
}
