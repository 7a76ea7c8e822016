/**
 * In-memory evaluation of the Amplify-style filter and condition inputs of
 * contracts/schema.graphql (ModelStringInput, ModelBooleanInput, and/or/not), with
 * DynamoDB's semantics: a comparison with a missing attribute is false.
 */
export type ModelFilter = Record<string, unknown>;

type Operand = string | number | boolean;

const isOperand = (value: unknown): value is Operand =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

const compare = (a: Operand, b: Operand): number => {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const left = String(a);
  const right = String(b);
  return left < right ? -1 : left > right ? 1 : 0;
};

const matchesCondition = (value: unknown, condition: Record<string, unknown>): boolean =>
  Object.entries(condition).every(([operator, operand]) => {
    if (operand === null || operand === undefined) return true;
    const present = value !== undefined && value !== null;
    switch (operator) {
      case 'attributeExists':
        return operand === present;
      case 'contains':
      case 'notContains': {
        const contained =
          present && (Array.isArray(value) ? value.includes(operand) : String(value).includes(String(operand)));
        return operator === 'contains' ? contained : !contained;
      }
      case 'beginsWith':
        return present && typeof value === 'string' && value.startsWith(String(operand));
      case 'between': {
        if (!present || !isOperand(value) || !Array.isArray(operand) || operand.length !== 2) return false;
        const [low, high] = operand as unknown[];
        return isOperand(low) && isOperand(high) && compare(value, low) >= 0 && compare(value, high) <= 0;
      }
      default: {
        if (!present || !isOperand(value) || !isOperand(operand)) return false;
        const order = compare(value, operand);
        switch (operator) {
          case 'eq':
            return order === 0;
          case 'ne':
            return order !== 0;
          case 'lt':
            return order < 0;
          case 'le':
            return order <= 0;
          case 'gt':
            return order > 0;
          case 'ge':
            return order >= 0;
          default:
            return false;
        }
      }
    }
  });

export const matchesFilter = (item: Record<string, unknown>, filter: ModelFilter | null | undefined): boolean => {
  if (filter === null || filter === undefined) return true;
  return Object.entries(filter).every(([key, value]) => {
    if (value === null || value === undefined) return true;
    if (key === 'and') return (value as ModelFilter[]).every((part) => matchesFilter(item, part));
    if (key === 'or') return (value as ModelFilter[]).some((part) => matchesFilter(item, part));
    if (key === 'not') return !matchesFilter(item, value as ModelFilter);
    return matchesCondition(item[key], value as Record<string, unknown>);
  });
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export interface FilterLimits {
  /** Levels: the filter is 1, each `and`, `or` and `not` adds one. */
  readonly depth: number;
  /** Terms: each comparison (operator with an operand) and each `and`/`or`/`not` part is one. */
  readonly terms: number;
  /** The request's total the `terms` of each root field add up to, named in the refusal. */
  readonly requestTerms: number;
}

/**
 * What is wrong with the shape, nesting or width of a filter, or undefined when it can be
 * evaluated. Walked with an explicit stack that stops past either limit (the parts of a list
 * are counted before any is visited), so a filter nested thousands of levels deep or holding
 * thousands of terms costs no more than one just past the limit; the recursive evaluation
 * above runs only on what passes here.
 */
export const filterProblem = (filter: unknown, limits: FilterLimits): string | undefined => {
  const tooWide =
    `has more than ${limits.terms} terms (each comparison and each and, or and not part counts one): ` +
    `a request may hold at most ${limits.requestTerms} filter terms, ${limits.terms} in each root field`;
  let terms = 0;
  const stack: [unknown, number][] = [[filter, 1]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [node, depth] = entry;
    if (node === null || node === undefined) continue;
    if (!isObject(node)) return 'must be an object of field conditions';
    if (depth > limits.depth)
      return `is nested more than ${limits.depth} levels deep (and, or and not each add a level)`;
    for (const [key, value] of Object.entries(node)) {
      if (value === null || value === undefined) continue;
      if (key === 'and' || key === 'or') {
        if (!Array.isArray(value)) return `${key} must be a list of filters`;
        terms += value.length;
        if (terms > limits.terms) return tooWide;
        for (const part of value) stack.push([part, depth + 1]);
      } else if (key === 'not') {
        terms += 1;
        stack.push([value, depth + 1]);
      } else if (!isObject(value)) {
        return `${key} must be an object of operators`;
      } else {
        for (const operand of Object.values(value)) if (operand !== null && operand !== undefined) terms += 1;
      }
      if (terms > limits.terms) return tooWide;
    }
  }
  return undefined;
};

/**
 * Emails are stored lowercased; a filter on userEmail is compared the same way, so a client
 * filtering by the login id as typed still finds its views.
 */
export const lowercaseEmailOperands = (filter: ModelFilter | null | undefined): ModelFilter | undefined => {
  if (filter === null || filter === undefined) return undefined;
  // Operands are scalars or lists of scalars (between): one level, never a walk.
  const lowerOne = (value: unknown): unknown => (typeof value === 'string' ? value.toLowerCase() : value);
  const lower = (value: unknown): unknown => (Array.isArray(value) ? value.map(lowerOne) : lowerOne(value));
  return Object.fromEntries(
    Object.entries(filter).map(([key, value]) => {
      if (key === 'and' || key === 'or')
        return [key, (value as ModelFilter[] | null)?.map((part) => lowercaseEmailOperands(part))];
      if (key === 'not') return [key, lowercaseEmailOperands(value as ModelFilter | null)];
      if (key === 'userEmail' && value !== null && typeof value === 'object') {
        return [
          key,
          Object.fromEntries(Object.entries(value).map(([operator, operand]) => [operator, lower(operand)])),
        ];
      }
      return [key, value];
    }),
  );
};
