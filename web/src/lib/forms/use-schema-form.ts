import { safeParse, type $ZodType, type input, type output } from 'zod/v4/core';
import { useValidatedForm, type FieldErrors, type FormValues, type ValidatedForm } from './use-validated-form.ts';

/** The first message per field of a zod error. */
function firstErrors<V extends FormValues>(issues: readonly { path: readonly PropertyKey[]; message: string }[]) {
  const errors: Record<string, string> = {};
  for (const issue of issues) errors[String(issue.path[0] ?? '')] ??= issue.message;
  return errors as FieldErrors<V>;
}

/** A light form checked with a zod schema (full or mini) of the contracts. */
export function useSchemaForm<S extends $ZodType<unknown, FormValues>>(
  schema: S,
  initial: input<S>,
): ValidatedForm<input<S>, output<S>> {
  return useValidatedForm<input<S>, output<S>>((values) => {
    const result = safeParse(schema, values);
    return result.success ? { ok: true, data: result.data } : { ok: false, errors: firstErrors(result.error.issues) };
  }, initial);
}
