import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import { cx } from './class-names.ts';
import './checkbox.css';

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  readonly label: ReactNode;
  /** Explains the choice, under the label. */
  readonly hint?: ReactNode;
  readonly ref?: Ref<HTMLInputElement>;
}

/** A checkbox with its label beside it and an optional hint, which describes it, on a line under the label. */
export function Checkbox({ label, hint, className, id, ref, ...rest }: CheckboxProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const hintId = hint ? `${inputId}-hint` : undefined;
  return (
    <div className={cx('checkbox-field', className)}>
      <input ref={ref} id={inputId} type="checkbox" aria-describedby={hintId} {...rest} />
      <div>
        <label className="checkbox-label" htmlFor={inputId}>
          {label}
        </label>
        {hint && (
          <p id={hintId} className="field-hint checkbox-hint">
            {hint}
          </p>
        )}
      </div>
    </div>
  );
}
