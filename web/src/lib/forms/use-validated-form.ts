import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';

export type FormValues = Record<string, string>;
export type FieldErrors<V extends FormValues> = Partial<Record<keyof V, string>>;
export type Validation<V extends FormValues, Out> =
  { readonly ok: true; readonly data: Out } | { readonly ok: false; readonly errors: FieldErrors<V> };

export interface ValidatedForm<V extends FormValues, Out> {
  readonly values: V;
  readonly errors: FieldErrors<V>;
  readonly isSubmitting: boolean;
  /** Props for an input or a select: name, value, onChange. */
  field(name: keyof V & string): {
    name: string;
    value: string;
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => void;
  };
  handleSubmit(onValid: (data: Out) => Promise<void> | void): (event: FormEvent) => Promise<void>;
}

/**
 * Form state for the screens that must stay light (the sign-in page and the admin sign-in
 * steps): a few hundred bytes where react-hook-form is about 10 KB gzip. It behaves like
 * react-hook-form's default mode: validate on submit, then again on every change.
 */
export function useValidatedForm<V extends FormValues, Out>(
  validate: (values: V) => Validation<V, Out>,
  initial: V,
): ValidatedForm<V, Out> {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors<V>>({});
  const [isSubmitting, setSubmitting] = useState(false);
  const submitted = useRef(false);

  const check = (next: V) => {
    const result = validate(next);
    setErrors(result.ok ? {} : result.errors);
    return result;
  };

  const field = (name: keyof V & string) => ({
    name,
    value: values[name] ?? '',
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
      const next = { ...values, [name]: event.target.value };
      setValues(next);
      if (submitted.current) check(next);
    },
  });

  const handleSubmit = (onValid: (data: Out) => Promise<void> | void) => async (event: FormEvent) => {
    event.preventDefault();
    submitted.current = true;
    const result = check(values);
    if (!result.ok) return;
    setSubmitting(true);
    try {
      await onValid(result.data);
    } finally {
      setSubmitting(false);
    }
  };

  return { values, errors, isSubmitting, field, handleSubmit };
}
