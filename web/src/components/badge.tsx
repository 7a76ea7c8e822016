import type { HTMLAttributes } from 'react';
import { cx } from './class-names.ts';

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  readonly tone?: 'neutral' | 'success' | 'danger' | 'info' | 'warning';
}

export function Badge({ tone = 'neutral', className, ...rest }: BadgeProps) {
  return <span className={cx('badge', tone !== 'neutral' && `badge-${tone}`, className)} {...rest} />;
}
