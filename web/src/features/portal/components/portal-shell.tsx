import { matchPath, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { paths } from '#web/config/paths.ts';
import { AppShell } from '#web/components/layout/app-shell.tsx';
import { Menu } from '#web/components/menu.tsx';
import { useAuth } from '#web/lib/auth/auth-context.ts';
import { useConfig } from '#web/lib/config-context.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { avatarInitials } from '../initials.ts';

const NAV_LINKS = [
  { to: paths.home, label: 'Home' },
  { to: paths.support, label: 'Support' },
] as const;

/** The document title of each page of the portal (their headings, or the navigation's name). */
const PAGE_TITLES: readonly (readonly [pattern: string, title: string])[] = [
  [paths.home, 'Home'],
  [paths.dashboard, 'Home'],
  [paths.support, 'Support'],
  [paths.settings, 'Settings'],
  [paths.mfaSettings, 'Multi-Factor Authentication'],
];

const pageTitle = (pathname: string) => PAGE_TITLES.find(([pattern]) => matchPath(pattern, pathname))?.[1];

/** The signed-in user portal: header with the logo (the product's name, once) and the avatar menu, navigation, page. */
export function PortalShell() {
  const { productName } = useConfig();
  const { session, signOut } = useAuth();
  const navigate = useNavigate();
  useDocumentTitle(pageTitle(useLocation().pathname));
  const loginId = session?.email ?? '';
  const initials = avatarInitials(loginId);

  // The page is signed out at once (signOut's first step); ending the sessions with the
  // identity provider finishes in the background, and must not move a person who has since
  // gone on (e.g. to Forgot password?) back to the sign-in page.
  const logOut = async () => {
    const ending = signOut();
    navigate(paths.login, { replace: true });
    await ending;
  };

  return (
    <AppShell
      header={
        <>
          <img src="/logo.svg" alt={productName} width={200} height={56} className="shell-logo" />
          <Menu
            // The name starts with the initials the button shows (WCAG 2.5.3, label in name).
            label={`${initials} Account menu`.trim()}
            triggerClassName="avatar-button"
            trigger={
              <span className="avatar" aria-hidden="true">
                {initials}
              </span>
            }
            header={
              <>
                <strong>{productName}</strong>
                <span>{loginId}</span>
              </>
            }
            items={[
              { label: 'Profile', disabled: true },
              { label: 'Change Password', onSelect: () => navigate(paths.settings) },
              { label: 'Log out', onSelect: () => void logOut() },
            ]}
          />
        </>
      }
      navLabel="Main"
      nav={
        <ul>
          {NAV_LINKS.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to}>{link.label}</NavLink>
            </li>
          ))}
        </ul>
      }
    >
      <Outlet />
    </AppShell>
  );
}
