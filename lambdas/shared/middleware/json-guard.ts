/**
 * Checks on a JSON body beyond syntax, run before any schema sees it: limits that keep
 * parsing and validation cheap, and characters no field of the portal ever needs.
 */

/** The deepest valid request is one object of scalars and flat lists; 10 leaves room. */
export const MAX_JSON_DEPTH = 10;

/**
 * Whether the text nests arrays and objects deeper than `max`. Scans once without parsing,
 * so a body nested thousands deep costs no recursion anywhere.
 */
export const nestsDeeperThan = (text: string, max: number): boolean => {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
    } else if (char === '{' || char === '[') {
      depth += 1;
      if (depth > max) return true;
    } else if (char === '}' || char === ']') {
      depth -= 1;
    }
  }
  return false;
};

/**
 * Control characters other than tab and line breaks, line and paragraph separators, bidi
 * embeddings, overrides and isolates (text that displays differently from what it is), and
 * unpaired surrogates (not encodable as UTF-8 for the services downstream).
 */
const CONTROL_CHARACTER = /[^\P{Cc}\t\n\r]/u;
const FORMATTING_CHARACTER = /[\u2028\u2029\u202A-\u202E\u2066-\u2069\p{Cs}]/u;
const isUnsafeText = (text: string) => CONTROL_CHARACTER.test(text) || FORMATTING_CHARACTER.test(text);

/** A key that assignment-based merging turns into a prototype change. */
const FORBIDDEN_KEY = '__proto__';

export type JsonProblem = { readonly kind: 'character' | 'key'; readonly path: string };

/** The first string or key of a parsed body that no field accepts, with its path. */
export const findUnsafeJson = (value: unknown, path = ''): JsonProblem | undefined => {
  if (typeof value === 'string') return isUnsafeText(value) ? { kind: 'character', path } : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const itemPath = path === '' ? key : `${path}.${key}`;
    if (key === FORBIDDEN_KEY) return { kind: 'key', path: itemPath };
    if (isUnsafeText(key)) return { kind: 'character', path };
    const problem = findUnsafeJson(item, itemPath);
    if (problem !== undefined) return problem;
  }
  return undefined;
};
