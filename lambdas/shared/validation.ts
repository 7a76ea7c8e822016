import * as z from 'zod';
import { BadRequestError } from './errors.ts';

/**
 * A missing string field is reported with the message the field gives an empty value
 * (e.g. 'Dashboard ID is required'), so both read the same to the person filling the form.
 * Fields whose schema names its own "required" message keep it (that message takes precedence).
 */
const missingFieldMessage: z.core.$ZodErrorMap = (issue) => {
  if (issue.code !== 'invalid_type' || issue.input !== undefined || issue.expected !== 'string') return undefined;
  const field = issue.inst;
  if (field === undefined || !(field instanceof z.ZodType)) return undefined;
  const asEmpty = field.safeParse('');
  return asEmpty.success ? undefined : asEmpty.error.issues[0]?.message;
};

const fieldName = (path: readonly PropertyKey[]) => path.map(String).join('.');

/** An action name worth echoing back; anything else is not repeated to the caller. */
const ECHOABLE_ACTION = /^[\w-]{1,64}$/;

const describeActionIssue = (input: unknown): BadRequestError => {
  const action = typeof input === 'object' && input !== null ? (input as Record<string, unknown>).action : undefined;
  if (action === undefined) return new BadRequestError('action is required', { fields: ['action'] });
  // Never String(action): an object's toString may be missing, throw or run long.
  if (typeof action !== 'string') return new BadRequestError('action must be a string', { fields: ['action'] });
  return new BadRequestError(ECHOABLE_ACTION.test(action) ? `Unknown action: ${action}` : 'Unknown action', {
    fields: ['action'],
  });
};

/**
 * Parses input with a shared contract schema. Failure: 400 whose `error` is the first
 * message (the spec's wording), `fields` names every failing field and `reason` lists the
 * other messages.
 */
export const parseWith = <S extends z.ZodType>(schema: S, input: unknown): z.output<S> => {
  const result = schema.safeParse(input, { error: missingFieldMessage });
  if (result.success) return result.data;
  const issues = result.error.issues;
  const unionIssue = issues.find((issue) => issue.code === 'invalid_union' && 'discriminator' in issue);
  if (unionIssue !== undefined) throw describeActionIssue(input);
  if (issues.some((issue) => issue.path.length === 0 && issue.code === 'invalid_type')) {
    throw new BadRequestError('Request body must be a JSON object');
  }
  const fields = [...new Set(issues.map((issue) => fieldName(issue.path)))];
  const messages = [...new Set(issues.map((issue) => issue.message))];
  const [first = 'Invalid request', ...others] = messages;
  throw new BadRequestError(first, { fields, ...(others.length > 0 ? { reason: others.join('; ') } : {}) });
};
