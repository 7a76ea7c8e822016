import type { ReactNode } from 'react';
import { Card } from '../card.tsx';

export const MARKETING_TEXT =
  'Analytics giving actionable data and insights on business performance for manufacturers, distributors and their private equity owners.';

export interface AuthLayoutProps {
  /** Product title shown on the brand panel. */
  readonly productTitle: string;
  /** Brand panel text under the title. */
  readonly tagline?: ReactNode;
  readonly children: ReactNode;
}

/** Public pages: a brand panel beside (or, on phones, above) one form card. */
export function AuthLayout({ productTitle, tagline = <p>{MARKETING_TEXT}</p>, children }: AuthLayoutProps) {
  return (
    <div className="auth-page">
      <header className="auth-brand">
        <img src="/logo.svg" alt="" width={200} height={56} className="shell-logo" />
        <h1>{productTitle}</h1>
        {tagline}
      </header>
      <main className="auth-main" id="main">
        <Card className="auth-card">{children}</Card>
      </main>
    </div>
  );
}
