import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';

type Values = Record<string, string>;
export type FieldRules<V extends Values> = { readonly [K in keyof V]?: (value: string) => string | undefined };
export type FieldErrors<V extends Values> = Partial<Record<keyof V, string>>;

export interface RuleForm<V extends Values> {
  readonly errors: FieldErrors<V>;
  readonly isSubmitting: boolean;
  /** Props for a text input: name, value, onChange. */
  field(name: keyof V & string): {
    name: string;
    value: string;
    onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  };
  handleSubmit(onValid: (values: V) => Promise<void> | void): (event: FormEvent) => Promise<void>;
}

export function checkRules<V extends Values>(rules: FieldRules<V>, values: V): FieldErrors<V> {
  const errors: FieldErrors<V> = {};
  for (const name of Object.keys(rules) as (keyof V)[]) {
    const problem = rules[name]?.(values[name] ?? '');
    if (problem) errors[name] = problem;
  }
  return errors;
}

/**
 * Form state for the sign-in page, checked with the plain rule functions of
 * `contracts/rules.ts` (the same ones the zod schemas of the other forms are built from).
 * It exists for the sign-in page's script budget: react-hook-form and zod would add about
 * 25 KB gzip there. It behaves like react-hook-form's default mode: check on submit, then
 * again on every change.
 */
export function useRuleForm<V extends Values>(rules: FieldRules<V>, initial: V): RuleForm<V> {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors<V>>({});
  const [isSubmitting, setSubmitting] = useState(false);
  const submitted = useRef(false);

  const field = (name: keyof V & string) => ({
    name,
    value: values[name] ?? '',
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const next = { ...values, [name]: event.target.value };
      setValues(next);
      if (submitted.current) setErrors(checkRules(rules, next));
    },
  });

  const handleSubmit = (onValid: (values: V) => Promise<void> | void) => async (event: FormEvent) => {
    event.preventDefault();
    submitted.current = true;
    const found = checkRules(rules, values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSubmitting(true);
    try {
      await onValid(values);
    } finally {
      setSubmitting(false);
    }
  };

  return { errors, isSubmitting, field, handleSubmit };
}
