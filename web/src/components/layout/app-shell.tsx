import type { ReactNode } from 'react';

export interface AppShellProps {
  /** What the header row holds: brand and account controls. */
  readonly header: ReactNode;
  /** The accessible name of the navigation landmark. */
  readonly navLabel: string;
  /** What the navigation bar holds: its links and any title. */
  readonly nav: ReactNode;
  /** The page itself. */
  readonly children: ReactNode;
}

/** The frame of a signed-in portal: skip link, header, navigation bar and the main region the skip link lands on. */
export function AppShell({ header, navLabel, nav, children }: AppShellProps) {
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="shell-header">
        <div className="shell-header-inner">{header}</div>
      </header>
      <nav className="shell-nav" aria-label={navLabel}>
        <div className="shell-nav-inner">{nav}</div>
      </nav>
      <main className="page" id="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
