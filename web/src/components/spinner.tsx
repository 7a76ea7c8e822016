import { cx } from './class-names.ts';

export interface SpinnerProps {
  /** Announced to screen readers and, unless `hideLabel`, shown under the spinner. */
  readonly label?: string;
  readonly hideLabel?: boolean;
  readonly size?: 'md' | 'sm';
}

export function Spinner({ label = 'Loading...', hideLabel = false, size = 'md' }: SpinnerProps) {
  return (
    <div className="spinner-block" role="status" aria-live="polite">
      <span className={cx('spinner', size === 'sm' && 'spinner-sm')} aria-hidden="true" />
      <span className={hideLabel ? 'visually-hidden' : undefined}>{label}</span>
    </div>
  );
}
