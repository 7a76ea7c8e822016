import type { ReactNode } from 'react';
import { cx } from './class-names.ts';

export interface AlertProps {
  readonly tone?: 'error' | 'success' | 'info' | 'warning';
  readonly title?: string;
  readonly children?: ReactNode;
  readonly className?: string;
}

/** Errors are announced at once (role alert); other tones politely (role status). */
export function Alert({ tone = 'info', title, children, className }: AlertProps) {
  return (
    <div className={cx('alert', `alert-${tone}`, className)} role={tone === 'error' ? 'alert' : 'status'}>
      {title && <p className="alert-title">{title}</p>}
      {children}
    </div>
  );
}
