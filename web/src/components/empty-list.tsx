import type { ReactNode } from 'react';

export interface EmptyListProps {
  /** That the list is empty (a text the spec may fix). */
  readonly title: string;
  /** What to do next. */
  readonly children: ReactNode;
  /** The button or link that does it, when the page offers one here. */
  readonly action?: ReactNode;
}

/** An empty list or table: that nothing is there, then what to do next. */
export function EmptyList({ title, children, action }: EmptyListProps) {
  return (
    <div className="empty-list">
      <p className="empty-list-title">{title}</p>
      <p className="empty-list-next">{children}</p>
      {action && <div className="empty-list-action">{action}</div>}
    </div>
  );
}
