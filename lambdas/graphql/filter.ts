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
        const contained = present && (Array.isArray(value) ? value.includes(operand) : String(value).includes(String(operand)));
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

/**
 * Emails are stored lowercased; a filter on userEmail is compared the same way, so a client
 * filtering by the login id as typed still finds its views.
 */
export const lowercaseEmailOperands = (filter: ModelFilter | null | undefined): ModelFilter | undefined => {
  if (filter === null || filter === undefined) return undefined;
  const lower = (value: unknown): unknown =>
    typeof value === 'string' ? value.toLowerCase() : Array.isArray(value) ? value.map(lower) : value;
  return Object.fromEntries(
    Object.entries(filter).map(([key, value]) => {
      if (key === 'and' || key === 'or') return [key, (value as ModelFilter[] | null)?.map((part) => lowercaseEmailOperands(part))];
      if (key === 'not') return [key, lowercaseEmailOperands(value as ModelFilter | null)];
      if (key === 'userEmail' && value !== null && typeof value === 'object') {
        return [key, Object.fromEntries(Object.entries(value).map(([operator, operand]) => [operator, lower(operand)]))];
      }
      return [key, value];
    }),
  );
};
