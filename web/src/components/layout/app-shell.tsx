import { useLayoutEffect, useRef, type ReactNode } from 'react';

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
  const navRef = useRef<HTMLElement>(null);
  const shownCurrent = useRef<string | null>(null);
  // On a narrow screen the tabs scroll sideways: when the current tab changes, the bar scrolls so
  // that it is in view (centred where it can be) instead of cut off past the edge.
  useLayoutEffect(() => {
    const current = navRef.current?.querySelector<HTMLElement>('[aria-current="page"]');
    const bar = current?.closest('ul');
    const key = current?.getAttribute('href') ?? null;
    if (!current || !bar || key === shownCurrent.current) return;
    shownCurrent.current = key;
    const tab = current.getBoundingClientRect();
    const box = bar.getBoundingClientRect();
    if (tab.left >= box.left && tab.right <= box.right) return;
    bar.scrollLeft += tab.left - box.left - (box.width - tab.width) / 2;
  });
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="shell-header">
        <div className="shell-header-inner">{header}</div>
      </header>
      <nav ref={navRef} className="shell-nav" aria-label={navLabel}>
        <div className="shell-nav-inner">{nav}</div>
      </nav>
      <main className="page" id="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
