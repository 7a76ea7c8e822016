import type { ChangeEvent } from 'react';
import { cx } from './class-names.ts';
import './file-picker.css';

interface FilePickerProps {
  readonly id: string;
  /** The field's label, above the button. */
  readonly label: string;
  /** The button's text, e.g. "Choose a CSV file". */
  readonly buttonText: string;
  readonly accept?: string;
  readonly disabled?: boolean;
  /** The chosen file's name; "No file chosen" before one is. */
  readonly fileName?: string | undefined;
  readonly onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}

/**
 * A file field drawn as the portal's own secondary button with the chosen file's name beside it,
 * instead of the browser's unstyled "Choose File" control. The native input stays in the page
 * (visually hidden, focusable, labelled by both texts), so keyboards, screen readers and
 * drag-free uploads work as with any file input; its focus ring shows on the button.
 */
export function FilePicker({ id, label, buttonText, accept, disabled, fileName, onChange }: FilePickerProps) {
  return (
    <div className="field file-picker">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="file-picker-row">
        <input
          id={id}
          type="file"
          className="visually-hidden file-picker-input"
          accept={accept}
          disabled={disabled}
          onChange={onChange}
        />
        <label htmlFor={id} className={cx('btn btn-secondary btn-sm', disabled && 'file-picker-disabled')}>
          {buttonText}
        </label>
        <span className={cx('file-picker-name', !fileName && 'text-muted')}>{fileName ?? 'No file chosen'}</span>
      </div>
    </div>
  );
}
