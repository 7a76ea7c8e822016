import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppShell } from '#web/components/layout/app-shell.tsx';

const TABS = ['Manage Users', 'Manage Dashboards', 'Companies', 'Activity', 'Insights'];

/** A 390 px bar whose tabs are 120 px wide each, laid out as the browser would with the bar scrolled by scrollLeft. */
function layOut(bar: HTMLElement) {
  bar.getBoundingClientRect = () => new DOMRect(0, 0, 390, 40);
  bar.querySelectorAll('a').forEach((link, index) => {
    link.getBoundingClientRect = () => new DOMRect(index * 120 - bar.scrollLeft, 0, 120, 40);
  });
}

function shell(current: string) {
  return (
    <AppShell
      header={<span>Portal</span>}
      navLabel="Admin sections"
      nav={
        <ul>
          {TABS.map((tab) => (
            <li key={tab}>
              <a href={`/admin/${tab}`} aria-current={tab === current ? 'page' : undefined}>
                {tab}
              </a>
            </li>
          ))}
        </ul>
      }
    >
      <p>Page</p>
    </AppShell>
  );
}

/** The shell with `current` as the current tab, its bar laid out; `show` makes another tab current. */
function renderShell(current: string) {
  const { rerender } = render(shell(current));
  const bar = screen.getByRole('navigation', { name: 'Admin sections' }).querySelector('ul')!;
  layOut(bar);
  return { bar, show: (tab: string) => rerender(shell(tab)) };
}

describe('the tab bar on a narrow screen', () => {
  it('scrolls the current tab into view, centred, when it lies past the edge', () => {
    const { bar, show } = renderShell('Manage Users');
    show('Insights');
    // Insights spans 480-600 px: the bar scrolls so that its centre (540 px) is the bar's (195 px).
    expect(bar.scrollLeft).toBe(345);
    const tab = screen.getByRole('link', { name: 'Insights' }).getBoundingClientRect();
    expect(tab.left).toBeGreaterThanOrEqual(0);
    expect(tab.right).toBeLessThanOrEqual(390);
  });

  it('leaves the bar where it is when the current tab is in view, and when the current tab has not changed', () => {
    const { bar, show } = renderShell('Manage Users');
    show('Manage Dashboards');
    expect(bar.scrollLeft).toBe(0);
    // The person scrolled the bar; a render with the same current tab keeps their scroll.
    bar.scrollLeft = 200;
    show('Manage Dashboards');
    expect(bar.scrollLeft).toBe(200);
  });
});
