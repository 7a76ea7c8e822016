import { useCallback, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { safeParse, type $ZodType, type input, type output } from 'zod/v4/core';

type Values = Record<string, string>;
type Errors<V> = Partial<Record<keyof V, string>>;

export interface SchemaForm<V extends Values, Out> {
  readonly values: V;
  readonly errors: Errors<V>;
  readonly isSubmitting: boolean;
  /** Props for a text input: name, value, onChange. */
  field(name: keyof V & string): {
    name: string;
    value: string;
    onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  };
  handleSubmit(onValid: (data: Out) => Promise<void> | void): (event: FormEvent) => Promise<void>;
}

function firstErrors<V>(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Errors<V> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? '');
    errors[key] ??= issue.message;
  }
  return errors as Errors<V>;
}

/**
 * A small form state hook for the sign-in screens, validating with the same zod schemas as
 * react-hook-form does elsewhere. It exists for the sign-in page's script budget: it is a
 * few hundred bytes where react-hook-form is about 10 KB gzip. Behaviour follows
 * react-hook-form's default: validate on submit, then again on every change.
 */
export function useSchemaForm<S extends $ZodType<unknown, Values>>(
  schema: S,
  initial: input<S>,
): SchemaForm<input<S>, output<S>> {
  type V = input<S>;
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<Errors<V>>({});
  const [isSubmitting, setSubmitting] = useState(false);
  const submitted = useRef(false);

  const validate = useCallback(
    (next: V) => {
      const result = safeParse(schema, next);
      setErrors(result.success ? {} : firstErrors<V>(result.error.issues));
      return result;
    },
    [schema],
  );

  const field = (name: keyof V & string) => ({
    name,
    value: values[name] ?? '',
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const next = { ...values, [name]: event.target.value };
      setValues(next);
      if (submitted.current) validate(next);
    },
  });

  const handleSubmit = (onValid: (data: output<S>) => Promise<void> | void) => async (event: FormEvent) => {
    event.preventDefault();
    submitted.current = true;
    const result = validate(values);
    if (!result.success) return;
    setSubmitting(true);
    try {
      await onValid(result.data);
    } finally {
      setSubmitting(false);
    }
  };

  return { values, errors, isSubmitting, field, handleSubmit };
}
