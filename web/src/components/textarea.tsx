import { useId, type Ref, type TextareaHTMLAttributes } from 'react';
import { cx } from './class-names.ts';

export interface TextareaProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  readonly label: string;
  readonly error?: string | undefined;
  readonly ref?: Ref<HTMLTextAreaElement>;
}

export function Textarea({ label, error, className, id, ref, ...rest }: TextareaProps) {
  const generated = useId();
  const textareaId = id ?? generated;
  const errorId = error ? `${textareaId}-error` : undefined;
  return (
    <div className={cx('field', className)}>
      <label className="field-label" htmlFor={textareaId}>
        {label}
      </label>
      <textarea
        ref={ref}
        id={textareaId}
        className="textarea"
        aria-invalid={error ? true : undefined}
        aria-describedby={errorId}
        {...rest}
      />
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
