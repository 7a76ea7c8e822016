import type { HTMLAttributes, ReactNode } from 'react';
import { cx } from './class-names.ts';

export interface CardProps extends Omit<HTMLAttributes<HTMLElement>, 'title'> {
  readonly title?: ReactNode;
  /** Heading level of the title. */
  readonly titleAs?: 'h2' | 'h3';
  readonly actions?: ReactNode;
}

/** A surface with an optional titled header; a titled card is a labelled region. */
export function Card({ title, titleAs: Title = 'h2', actions, className, children, ...rest }: CardProps) {
  return (
    <section className={cx('card', className)} {...rest}>
      {(title || actions) && (
        <div className="card-header">
          {title && <Title className="card-title">{title}</Title>}
          {actions}
        </div>
      )}
      {children}
    </section>
  );
}
