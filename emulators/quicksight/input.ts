import type { z } from 'zod';
import { DEFAULT_NAMESPACE, type AccountScope } from './arns.ts';
import { QuickSightError, invalidParameter, namespaceNotFound } from './errors.ts';

/** Checks of request input shared by the operations, with QuickSight's error names. */

const ACCOUNT_ID = /^\d{12}$/;
const NAMESPACE = /^[a-zA-Z0-9._-]{1,64}$/;

/** The account in the path must be the emulated one; another account is not the caller's. */
export function requireAccount(scope: AccountScope, accountId: string | undefined, operation: string): void {
  if (!accountId || !ACCOUNT_ID.test(accountId)) {
    throw invalidParameter('AwsAccountId must be a 12-digit AWS account ID');
  }
  if (accountId !== scope.accountId) {
    throw new QuickSightError(
      'AccessDeniedException',
      `You are not authorized to perform quicksight:${operation} in account ${accountId}`,
    );
  }
}

/** QuickSight keeps users per namespace; the emulated account has only the default one. */
export function requireNamespace(namespace: string | undefined): string {
  if (!namespace || !NAMESPACE.test(namespace)) {
    throw invalidParameter('Namespace must be 1-64 letters, digits, dots, hyphens or underscores');
  }
  if (namespace !== DEFAULT_NAMESPACE) throw namespaceNotFound(namespace);
  return namespace;
}

export function requireParam(params: Readonly<Record<string, string>>, name: string): string {
  const value = params[name];
  if (value === undefined || value === '') throw invalidParameter(`${name} is required`);
  return value;
}

export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'request body';
  throw invalidParameter(`Invalid value for ${where}: ${issue?.message ?? 'malformed input'}`);
}

export interface Page<T> {
  readonly items: T[];
  readonly nextToken?: string;
}

/**
 * Pages a list with QuickSight's `max-results` / `next-token` query. The token is opaque to
 * callers; it names the list it belongs to so a token of one list is refused by another.
 * A bad token is an InvalidNextTokenException, or an InvalidParameterValueException for the
 * operations whose documented errors lack the former (`invalidTokenError`).
 */
export function paginate<T>(
  items: readonly T[],
  query: URLSearchParams,
  listName: string,
  invalidTokenError: 'InvalidNextTokenException' | 'InvalidParameterValueException' = 'InvalidNextTokenException',
): Page<T> {
  const rawMax = query.get('max-results');
  let maxResults = 100;
  if (rawMax !== null) {
    if (!/^\d+$/.test(rawMax) || Number(rawMax) < 1 || Number(rawMax) > 100) {
      throw invalidParameter('MaxResults must be between 1 and 100');
    }
    maxResults = Number(rawMax);
  }
  let start = 0;
  const token = query.get('next-token');
  if (token !== null) {
    const decoded = /^(?<list>[a-z-]+):(?<offset>\d{1,9})$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
    if (decoded?.groups?.list !== listName) {
      throw new QuickSightError(invalidTokenError, 'The NextToken is not valid');
    }
    start = Number(decoded.groups.offset);
  }
  const end = start + maxResults;
  return {
    items: items.slice(start, end),
    nextToken: end < items.length ? Buffer.from(`${listName}:${end}`).toString('base64url') : undefined,
  };
}
