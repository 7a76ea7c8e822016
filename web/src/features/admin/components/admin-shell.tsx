import { Suspense } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { paths } from '#web/config/paths.ts';
import { Button } from '#web/components/button.tsx';
import { AppShell } from '#web/components/layout/app-shell.tsx';
import { Menu } from '#web/components/menu.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { useAuth } from '#web/lib/auth/auth-context.ts';
import { useConfig } from '#web/lib/config-context.tsx';
import { adminPortalTitle } from '../admin-messages.ts';
import { ADMIN_PAGE_PATHS } from '../admin-paths.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import './admin-shell.css';

const DASHBOARD_ROUTES: readonly string[] = [paths.admin.dashboard, paths.admin.quicksight];

/**
 * The signed-in admin portal: title, the admin's email, Change Password, Logout, tabs. On a
 * phone the header stays on one line: the account controls fold into a menu.
 */
/** The browser tab's title of each admin page ("User Management · TVIQ Admin"). */
const ADMIN_PAGE_TITLES: Readonly<Record<string, string>> = {
  [paths.admin.users]: 'User Management',
  [paths.admin.dashboard]: 'Manage Dashboards',
  [paths.admin.quicksight]: 'Manage Dashboards',
  [ADMIN_PAGE_PATHS.companies]: 'Companies',
  [ADMIN_PAGE_PATHS.activity]: 'Activity',
  [ADMIN_PAGE_PATHS.insights]: 'Insights',
  [ADMIN_PAGE_PATHS.deliveries]: 'Deliveries',
  [paths.admin.changePassword]: 'Change Password',
};

export function AdminShell() {
  const { productName } = useConfig();
  const { session, signOut } = useAuth();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  useDocumentTitle(ADMIN_PAGE_TITLES[pathname], 'admin');
  const email = session?.email ?? '';

  // The page is signed out at once (signOut's first step); ending the sessions with the
  // identity provider finishes in the background, and must not move a person who has since
  // gone on (e.g. to Forgot password?) back to the sign-in page.
  const logOut = async () => {
    const ending = signOut();
    navigate(paths.admin.login, { replace: true });
    await ending;
  };

  const tabs = [
    { to: paths.admin.users, label: 'Manage Users', current: pathname === paths.admin.users },
    { to: paths.admin.dashboard, label: 'Manage Dashboards', current: DASHBOARD_ROUTES.includes(pathname) },
    { to: ADMIN_PAGE_PATHS.companies, label: 'Companies', current: pathname === ADMIN_PAGE_PATHS.companies },
    { to: ADMIN_PAGE_PATHS.activity, label: 'Activity', current: pathname === ADMIN_PAGE_PATHS.activity },
    { to: ADMIN_PAGE_PATHS.insights, label: 'Insights', current: pathname === ADMIN_PAGE_PATHS.insights },
    { to: ADMIN_PAGE_PATHS.deliveries, label: 'Deliveries', current: pathname === ADMIN_PAGE_PATHS.deliveries },
  ];

  return (
    <AppShell
      header={
        <>
          <div className="admin-brand">
            <img src="/mark.svg" alt="" width={32} height={32} className="brand-mark" />
            <p className="admin-title">{adminPortalTitle(productName)}</p>
          </div>
          <div className="admin-account">
            <span className="admin-email truncate" title={email}>
              <span className="visually-hidden">Signed in as </span>
              {email}
            </span>
            <Link className="admin-header-link" to={paths.admin.changePassword}>
              Change Password
            </Link>
            <Button size="sm" variant="secondary" onClick={() => void logOut()}>
              Logout
            </Button>
          </div>
          <div className="admin-account-menu">
            <Menu
              label="Account"
              triggerClassName="btn btn-ghost btn-icon"
              trigger={<span aria-hidden="true">⋯</span>}
              header={
                <>
                  <strong>Signed in as</strong>
                  <span>{email}</span>
                </>
              }
              items={[
                { label: 'Change Password', onSelect: () => navigate(paths.admin.changePassword) },
                { label: 'Logout', onSelect: () => void logOut() },
              ]}
            />
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
