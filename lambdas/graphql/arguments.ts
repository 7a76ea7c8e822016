import { FILTER_DEPTH_LIMIT, FILTER_TERMS_LIMIT, FILTER_TERMS_PER_FIELD } from '#contracts/graphql-limits.ts';
import { BadRequestError } from '../shared/errors.ts';
import { findUnsafeJson } from '../shared/middleware/json-guard.ts';
import { type FilterLimits, filterProblem } from './filter.ts';

/**
 * Checks on a field's arguments that run before the caller's session is checked and before
 * any table is read (handler.ts), with no schema library, so they cost the cold start
 * nothing: the filter limits of contracts/graphql-limits.ts and the character rule of the
 * function URLs. The resolvers' own validation (inputs.ts) checks the filters again.
 */

export const FILTER_LIMITS: FilterLimits = {
  depth: FILTER_DEPTH_LIMIT,
  terms: FILTER_TERMS_PER_FIELD,
  requestTerms: FILTER_TERMS_LIMIT,
};

const UNSAFE_TEXT = 'must not contain control characters, line separators or bidirectional formatting characters';

/**
 * The function URLs' character rule (lambdas/shared/middleware/json-guard.ts) for every text
 * of the arguments, filter operands included: no control characters other than tab and line
 * breaks, no line or paragraph separators, bidirectional embeddings, overrides or isolates,
 * no unpaired surrogates. Walked with an explicit stack, so arguments nested however deep
 * cost no recursion; refused with the function URLs' message, naming the argument.
 */
const assertSafeText = (args: Record<string, unknown>): void => {
  const stack: [unknown, string][] = [[args, '']];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [value, path] = entry;
    if (typeof value === 'string') {
      if (findUnsafeJson(value) === undefined) continue;
      const where = path || 'arguments';
      throw new BadRequestError(`${where} ${UNSAFE_TEXT}`, { fields: [where] });
    }
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, item] of Object.entries(value)) {
      stack.push([key, path || 'arguments'], [item, path === '' ? key : `${path}.${key}`]);
    }
  }
};

/** Refuses a field's arguments that break the filter limits or the character rule. */
export const checkArguments = (args: Record<string, unknown>): void => {
  for (const argument of ['filter', 'condition'] as const) {
    const problem = filterProblem(args[argument], FILTER_LIMITS);
    if (problem !== undefined) throw new BadRequestError(`${argument} ${problem}`, { fields: [argument] });
  }
  assertSafeText(args);
};
