import { safeParse, type $ZodType, type output } from 'zod/v4/core';

/** Parses with any zod schema; returns the data or the first issue's message. */
export function checkShape<S extends $ZodType>(
  schema: S,
  value: unknown,
): { ok: true; data: output<S> } | { ok: false; problem: string } {
  const result = safeParse(schema, value);
  if (result.success) return { ok: true, data: result.data };
  const issue = result.error.issues[0];
  return { ok: false, problem: issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'invalid' };
}
