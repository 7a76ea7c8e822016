import type { ReactNode } from 'react';
import { Card } from '../card.tsx';

const MARKETING_TEXT =
  'Analytics giving actionable data and insights on business performance for manufacturers, distributors and their private equity owners.';

/** What one highlight of the brand panel says: a short title and a sentence. */
export type Highlight = readonly [title: string, text: string];

/** What the user portal gives, on its public pages. */
const PORTAL_HIGHLIGHTS: readonly Highlight[] = [
  ['Your dashboards in one place', 'Every dashboard assigned to you, opened on your default one.'],
  ['A protected sign-in', 'Your password and a code from your authenticator app, every time.'],
  ['Help at hand', 'Write to the support team from the portal.'],
];

export interface AuthLayoutProps {
  /** Product title shown on the brand panel, once. */
  readonly productTitle: string;
  /** Brand panel text under the title. */
  readonly tagline?: ReactNode;
  readonly highlights?: readonly Highlight[];
  readonly children: ReactNode;
}

/**
 * Public pages: a brand panel (the product, what it gives) beside one form card; on a
 * phone the form comes first and the panel follows it.
 */
export function AuthLayout({
  productTitle,
  tagline = MARKETING_TEXT,
  highlights = PORTAL_HIGHLIGHTS,
  children,
}: AuthLayoutProps) {
  return (
    <div className="auth-page">
      <header className="auth-brand">
        <h1 className="brand">
          <img src="/mark.svg" alt="" width={36} height={36} className="brand-mark" />
          {productTitle}
        </h1>
        <p className="auth-headline">{tagline}</p>
        <ul className="auth-highlights">
          {highlights.map(([title, text]) => (
            <li key={title}>
              <span>
                <strong>{title}</strong>
                {text}
              </span>
            </li>
          ))}
        </ul>
      </header>
      <main className="auth-main" id="main">
        <Card className="auth-card">{children}</Card>
      </main>
    </div>
  );
}
