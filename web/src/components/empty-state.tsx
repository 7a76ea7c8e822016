import type { ReactNode } from 'react';

export interface EmptyStateProps {
  readonly title: string;
  readonly children?: ReactNode;
  readonly action?: ReactNode;
}

export function EmptyState({ title, children, action }: EmptyStateProps) {
  return (
    <div className="empty-state">
      <svg width="48" height="48" viewBox="0 0 48 48" aria-hidden="true" focusable="false">
        <rect x="6" y="10" width="36" height="28" rx="4" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="M13 31l7-8 6 5 9-11" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <h2>{title}</h2>
      {children}
      {action}
    </div>
  );
}
