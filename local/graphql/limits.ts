import {
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { QUERY_DEPTH_LIMIT, RESOLVER_COUNT_LIMIT } from '#contracts/graphql-limits.ts';

/**
 * The request limits the AppSync API is deployed with (contracts/graphql-limits.ts), checked
 * before any resolver runs. Everything here is iterative: the input is what an attacker
 * sends, and recursion over it is what let a deep request exhaust the stack.
 */

/**
 * Bracket nesting accepted in a document or in variables. Well above anything the depth and
 * filter limits let through (8 field levels, a 10-level filter of `and` lists, arguments),
 * well below what the GraphQL parser's and value coercion's recursion can take.
 */
const MAX_REQUEST_NESTING = 64;

export const nestingMessage = `The request is nested more than ${MAX_REQUEST_NESTING} levels deep.`;

/** Skips a string literal starting at `start` (a `"`); answers the index of its last character. */
function endOfString(source: string, start: number): number {
  if (source.startsWith('"""', start)) {
    let end = source.indexOf('"""', start + 3);
    while (end !== -1 && source[end - 1] === '\\') end = source.indexOf('"""', end + 1);
    return end === -1 ? source.length : end + 2;
  }
  let index = start + 1;
  while (index < source.length && source[index] !== '"' && source[index] !== '\n' && source[index] !== '\r') {
    index += source[index] === '\\' ? 2 : 1;
  }
  return index;
}

/** Whether `{`, `[` and `(` nest deeper than the limit anywhere in the document (strings and comments skipped). */
export function documentNestsTooDeep(source: string, limit = MAX_REQUEST_NESTING): boolean {
  let depth = 0;
  for (let index = 0; index < source.length; index += 1) {
    const char = source[index];
    if (char === '#') {
      while (index < source.length && source[index] !== '\n' && source[index] !== '\r') index += 1;
    } else if (char === '"') {
      index = endOfString(source, index);
    } else if (char === '{' || char === '[' || char === '(') {
      depth += 1;
      if (depth > limit) return true;
    } else if (char === '}' || char === ']' || char === ')') {
      depth = Math.max(0, depth - 1);
    }
  }
  return false;
}

/** Whether objects and arrays nest deeper than the limit in a parsed JSON value. */
export function valueNestsTooDeep(value: unknown, limit = MAX_REQUEST_NESTING): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [current, depth] = entry;
    if (current === null || typeof current !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}

type Fragments = ReadonlyMap<string, FragmentDefinitionNode>;

/**
 * Field levels below a selection set, with fragment spreads taken from `known`; the names of
 * spread fragments not measured yet when it cannot tell.
 */
function measure(set: SelectionSetNode, known: ReadonlyMap<string, number>): number | string[] {
  let deepest = 0;
  const missing: string[] = [];
  const stack: [SelectionSetNode, number][] = [[set, 0]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [current, level] = entry;
    for (const selection of current.selections) {
      if (selection.kind === Kind.FIELD) {
        deepest = Math.max(deepest, level + 1);
        if (selection.selectionSet) stack.push([selection.selectionSet, level + 1]);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        stack.push([selection.selectionSet, level]);
      } else {
        const depth = known.get(selection.name.value);
        if (depth === undefined) missing.push(selection.name.value);
        else deepest = Math.max(deepest, level + depth);
      }
    }
  }
  return missing.length > 0 ? missing : deepest;
}

/**
 * Field levels of an operation with fragments expanded, each fragment measured once (a
 * fragment spread many times costs nothing more). The document must have passed
 * validation, which rules out unknown and cyclic fragments.
 */
function operationDepth(operation: OperationDefinitionNode, fragments: Fragments): number {
  const known = new Map<string, number>();
  const pending: (string | null)[] = [null];
  for (let name = pending.at(-1); name !== undefined; name = pending.at(-1)) {
    if (name !== null && known.has(name)) {
      pending.pop();
      continue;
    }
    const set = name === null ? operation.selectionSet : fragments.get(name)?.selectionSet;
    if (set === undefined) throw new Error(`Unknown fragment ${name}`);
    const result = measure(set, known);
    if (typeof result !== 'number') {
      pending.push(...result);
      continue;
    }
    if (name === null) return result;
    known.set(name, result);
    pending.pop();
  }
  return 0;
}

/** Distinct response keys at the root of an operation: one resolver call each. */
function rootFieldCount(operation: OperationDefinitionNode, fragments: Fragments): number {
  const keys = new Set<string>();
  const visited = new Set<string>();
  const stack: SelectionSetNode[] = [operation.selectionSet];
  for (let set = stack.pop(); set !== undefined; set = stack.pop()) {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (!selection.name.value.startsWith('__')) keys.add(selection.alias?.value ?? selection.name.value);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        stack.push(selection.selectionSet);
      } else if (!visited.has(selection.name.value)) {
        visited.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) stack.push(fragment.selectionSet);
      }
    }
  }
  return keys.size;
}

/** Why a validated document exceeds the deployed limits, or undefined when it does not. */
export function limitViolation(document: DocumentNode, operationName: string | null): string | undefined {
  const fragments = new Map<string, FragmentDefinitionNode>();
  const operations: OperationDefinitionNode[] = [];
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    else if (definition.kind === Kind.OPERATION_DEFINITION) operations.push(definition);
  }
  const operation =
    operationName === null
      ? operations.length === 1
        ? operations[0]
        : undefined
      : operations.find((o) => o.name?.value === operationName);
  // No operation to run: execution reports that, and no resolver runs.
  if (operation === undefined) return undefined;
  const rootFields = rootFieldCount(operation, fragments);
  if (rootFields > RESOLVER_COUNT_LIMIT) {
    return `The request has ${rootFields} root fields; at most ${RESOLVER_COUNT_LIMIT} are allowed per request.`;
  }
  const depth = operationDepth(operation, fragments);
  if (depth > QUERY_DEPTH_LIMIT) return `The query is ${depth} levels deep; at most ${QUERY_DEPTH_LIMIT} are allowed.`;
  return undefined;
}
