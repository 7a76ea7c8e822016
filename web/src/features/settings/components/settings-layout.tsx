import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { paths } from '#web/config/paths.ts';
import { PageHeader } from '#web/components/layout/page-header.tsx';

export interface SettingsLayoutProps {
  readonly title: string;
  readonly description?: string;
  readonly children: ReactNode;
}

/** Settings pages: heading, side navigation, content. */
export function SettingsLayout({ title, description, children }: SettingsLayoutProps) {
  return (
    <>
      <PageHeader title={title} description={description} />
      <div className="settings-layout">
        <nav className="side-nav" aria-label="Settings">
          <ul>
            <li>
              <NavLink to={paths.settings} end>
                Change Password
              </NavLink>
            </li>
            <li>
              <NavLink to={paths.mfaSettings}>Multi-Factor Authentication</NavLink>
            </li>
          </ul>
        </nav>
        <div className="stack">{children}</div>
      </div>
    </>
  );
}
