import { useId } from 'react';
import './search-field.css';

export interface SearchFieldProps {
  readonly label: string;
  readonly placeholder: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  /** How many rows match, announced politely. */
  readonly resultText?: string;
}

/** A labelled search box; the label is for assistive technology, the placeholder for sight. */
export function SearchField({ label, placeholder, value, onChange, resultText }: SearchFieldProps) {
  const id = useId();
  return (
    <div className="search-field">
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input
        id={id}
        type="search"
        className="input"
        placeholder={placeholder}
        value={value}
        autoComplete="off"
        onChange={(event) => onChange(event.target.value)}
      />
      {resultText !== undefined && (
        <span className="search-result text-muted" role="status" aria-live="polite">
          {resultText}
        </span>
      )}
    </div>
  );
}
