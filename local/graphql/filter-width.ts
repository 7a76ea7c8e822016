import { GraphQLError, Lexer, Source, TokenKind, type Token } from 'graphql';
import { FILTER_TERMS_LIMIT, FILTER_TERMS_PER_FIELD } from '#contracts/graphql-limits.ts';

/**
 * The filter width of a request, counted before it is parsed. The resolver function refuses a
 * filter or condition of more than FILTER_TERMS_PER_FIELD terms (lambdas/graphql/filter.ts),
 * but only once the request has been parsed, validated and its arguments coerced, which for a
 * filter of tens of thousands of terms costs far more than a normal request. A request whose
 * filters hold more than FILTER_TERMS_LIMIT terms in all cannot pass the function whatever its
 * root fields are (at most RESOLVER_COUNT_LIMIT of FILTER_TERMS_PER_FIELD each), so the local
 * server refuses it from its tokens, which it reads only until the count passes the limit: the
 * refusal costs the first few hundred terms, not the whole filter.
 *
 * Terms count as the function counts them: each comparison (an operator with an operand that
 * is not null), each part of an `and` or `or` list, each `not`; variables are counted where a
 * filter names them. Only `filter` and `condition` arguments (and defaults of variables of a
 * filter or condition type) are counted. Everything is iterative, as the input is an attacker's.
 */

export const FILTER_WIDTH_MESSAGE =
  `The request holds more than ${FILTER_TERMS_LIMIT} filter terms (each comparison and each and, or and not part ` +
  `counts one); a request may hold at most ${FILTER_TERMS_LIMIT}, ${FILTER_TERMS_PER_FIELD} in each root field.`;

const FILTER_ARGUMENTS: ReadonlySet<string> = new Set(['filter', 'condition']);
const FILTER_TYPE = /(FilterInput|ConditionInput)$/;

/** What a value is to the count: a filter, a list of filters (and/or), an operator object, or nothing counted. */
type Role = 'filter' | 'filters' | 'operators' | 'skip';

/** A value about to be read: its role, and whether it is itself one term when it is not null. */
interface Expected {
  readonly role: Role;
  readonly counts: boolean;
}

class Budget {
  private terms = 0;
  constructor(private readonly limit: number) {}
  add(count: number): void {
    this.terms += count;
  }
  get exceeded(): boolean {
    return this.terms > this.limit;
  }
}

/** The role of a field's value inside an object of role `role`. */
function fieldRole(role: Role, key: string): Expected {
  if (role === 'filter') {
    if (key === 'and' || key === 'or') return { role: 'filters', counts: false };
    if (key === 'not') return { role: 'filter', counts: true };
    return { role: 'operators', counts: false };
  }
  if (role === 'operators') return { role: 'skip', counts: true };
  return { role: 'skip', counts: false };
}

/** Counts the terms of a variable's value (plain JSON) in the role it is named in. */
function countJson(value: unknown, expected: Expected, budget: Budget): void {
  const stack: [unknown, Expected][] = [[value, expected]];
  for (let entry = stack.pop(); entry !== undefined && !budget.exceeded; entry = stack.pop()) {
    const [node, { role, counts }] = entry;
    if (node === null || node === undefined) continue;
    if (counts) budget.add(1);
    if (role === 'filters') {
      // Input coercion makes a single filter a list of one.
      const parts = Array.isArray(node) ? node : [node];
      budget.add(parts.length);
      for (const part of parts) stack.push([part, { role: 'filter', counts: false }]);
    } else if (role !== 'skip' && typeof node === 'object' && !Array.isArray(node)) {
      for (const [key, child] of Object.entries(node)) stack.push([child, fieldRole(role, key)]);
    }
  }
}

interface Frame {
  readonly kind: 'object' | 'list';
  readonly role: Role;
}

const isNull = (token: Token) => token.kind === TokenKind.NAME && token.value === 'null';

/** Reads one value from the lexer (the token after it is not consumed), counting its terms. */
function readValue(lexer: Lexer, first: Expected, variables: Record<string, unknown>, budget: Budget): void {
  const frames: Frame[] = [];
  let expected: Expected | undefined = first;
  while (!budget.exceeded) {
    if (expected !== undefined) {
      const token = lexer.advance();
      const { role, counts } = expected;
      expected = undefined;
      if (token.kind === TokenKind.DOLLAR) {
        const name = lexer.advance();
        if (name.kind !== TokenKind.NAME) return;
        countJson(variables[name.value], { role, counts }, budget);
      } else if (token.kind === TokenKind.BRACE_L) {
        if (counts) budget.add(1);
        if (role === 'filters') budget.add(1);
        frames.push({ kind: 'object', role: role === 'filters' ? 'filter' : role });
      } else if (token.kind === TokenKind.BRACKET_L) {
        if (counts) budget.add(1);
        frames.push({ kind: 'list', role: role === 'filters' ? 'filters' : 'skip' });
      } else if (token.kind === TokenKind.EOF || token.kind === TokenKind.BRACE_R || token.kind === TokenKind.PAREN_R) {
        // Not a value: a syntax error the parser reports.
        return;
      } else if (!isNull(token) && (counts || role === 'filters')) {
        budget.add(1);
      }
    } else {
      const frame = frames.at(-1);
      if (frame === undefined) return;
      if (frame.kind === 'list') {
        if (lexer.lookahead().kind === TokenKind.BRACKET_R || lexer.lookahead().kind === TokenKind.EOF) {
          lexer.advance();
          frames.pop();
        } else if (frame.role === 'filters') {
          // Each part counts, a null one too (the function counts the list's length).
          budget.add(1);
          expected = { role: 'filter', counts: false };
        } else {
          expected = { role: 'skip', counts: false };
        }
      } else {
        const key = lexer.advance();
        if (key.kind !== TokenKind.NAME) {
          if (key.kind !== TokenKind.BRACE_R) return;
          frames.pop();
        } else {
          if (lexer.advance().kind !== TokenKind.COLON) return;
          const field = fieldRole(frame.role, key.value);
          // A field that is null is no term (`not: null`, `eq: null`).
          expected = isNull(lexer.lookahead()) ? { role: 'skip', counts: false } : field;
        }
      }
    }
  }
}

/** Reads a variable definition's type (the lexer is past its colon); answers its named type, or '' for a list. */
function readType(lexer: Lexer): string {
  let depth = 0;
  let name = '';
  let list = false;
  do {
    const token = lexer.advance();
    if (token.kind === TokenKind.EOF) break;
    if (token.kind === TokenKind.BRACKET_L) {
      depth += 1;
      list = true;
    } else if (token.kind === TokenKind.BRACKET_R) {
      depth -= 1;
    } else if (token.kind === TokenKind.NAME) {
      name = token.value;
    }
  } while (depth > 0 || lexer.lookahead().kind === TokenKind.BANG);
  return list ? '' : name;
}

const OPENING: ReadonlySet<string> = new Set([TokenKind.PAREN_L, TokenKind.BRACE_L, TokenKind.BRACKET_L]);
const CLOSING: ReadonlySet<string> = new Set([TokenKind.PAREN_R, TokenKind.BRACE_R, TokenKind.BRACKET_R]);

function scanDocument(lexer: Lexer, variables: Record<string, unknown>, budget: Budget): void {
  // Brackets around the current token outside the values read by readValue.
  const brackets: string[] = [];
  let previous: Token | undefined;
  for (let token = lexer.advance(); token.kind !== TokenKind.EOF && !budget.exceeded; token = lexer.advance()) {
    if (OPENING.has(token.kind)) brackets.push(token.kind);
    else if (CLOSING.has(token.kind)) brackets.pop();
    else if (
      token.kind === TokenKind.NAME &&
      brackets.at(-1) === TokenKind.PAREN_L &&
      lexer.lookahead().kind === TokenKind.COLON
    ) {
      lexer.advance();
      if (previous?.kind === TokenKind.DOLLAR) {
        // A variable definition: `$name: Type`, with an optional `= default`.
        const type = readType(lexer);
        if (lexer.lookahead().kind === TokenKind.EQUALS) {
          lexer.advance();
          readValue(lexer, { role: FILTER_TYPE.test(type) ? 'filter' : 'skip', counts: false }, variables, budget);
        }
      } else {
        const role = FILTER_ARGUMENTS.has(token.value) ? 'filter' : 'skip';
        readValue(lexer, { role, counts: false }, variables, budget);
      }
    }
    previous = lexer.token;
  }
}

/**
 * Whether the filters of a request (its document and variables) hold more than `limit` terms,
 * read lazily: the scan stops as soon as the count passes the limit. A document the lexer
 * cannot read is left to the parser, which reports the syntax error.
 */
export function filterTermsExceed(
  query: string,
  variables: Record<string, unknown>,
  limit: number = FILTER_TERMS_LIMIT,
): boolean {
  const budget = new Budget(limit);
  try {
    scanDocument(new Lexer(new Source(query)), variables, budget);
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
  }
  return budget.exceeded;
}
