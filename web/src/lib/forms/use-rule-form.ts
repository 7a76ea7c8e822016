import { useValidatedForm, type FieldErrors, type FormValues, type ValidatedForm } from './use-validated-form.ts';

export type FieldRules<V extends FormValues> = { readonly [K in keyof V]?: (value: string) => string | undefined };

function checkRules<V extends FormValues>(rules: FieldRules<V>, values: V): FieldErrors<V> {
  const errors: FieldErrors<V> = {};
  for (const name of Object.keys(rules) as (keyof V)[]) {
    const problem = rules[name]?.(values[name] ?? '');
    if (problem) errors[name] = problem;
  }
  return errors;
}

/**
 * A form checked with the plain rule functions of `contracts/rules.ts` (the ones the zod
 * schemas of the other forms are built from): the sign-in page loads no schema library,
 * which would cost about 14 KB gzip of its budget.
 */
export function useRuleForm<V extends FormValues>(rules: FieldRules<V>, initial: V): ValidatedForm<V, V> {
  return useValidatedForm<V, V>((values) => {
    const errors = checkRules(rules, values);
    return Object.keys(errors).length === 0 ? { ok: true, data: values } : { ok: false, errors };
  }, initial);
}
