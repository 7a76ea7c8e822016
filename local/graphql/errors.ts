import type { GraphQLError } from 'graphql';

/** An error as AppSync lists it in a response's `errors`. */
export interface AppSyncErrorEntry {
  readonly path: readonly (string | number)[] | null;
  readonly data: null;
  readonly errorType: string | null;
  readonly errorInfo: null;
  readonly locations: readonly { line: number; column: number; sourceName: null }[] | null;
  readonly message: string;
}

/** A field failure carrying the errorType AppSync reports (e.g. `Unauthorized`, or the Lambda error's name). */
export class FieldError extends Error {
  constructor(
    readonly errorType: string,
    message: string,
  ) {
    super(message);
    this.name = 'FieldError';
  }
}

export function appsyncError(error: GraphQLError, fallbackType: string | null = null): AppSyncErrorEntry {
  const original = error.originalError;
  return {
    path: error.path ?? null,
    data: null,
    errorType: original instanceof FieldError ? original.errorType : fallbackType,
    errorInfo: null,
    locations: error.locations?.map(({ line, column }) => ({ line, column, sourceName: null })) ?? null,
    message: error.message,
  };
}

/** A request refused before execution for exceeding a limit, reported as AppSync reports validation errors. */
export function limitError(message: string): AppSyncErrorEntry {
  return { path: null, data: null, errorType: 'ValidationError', errorInfo: null, locations: null, message };
}

/** Transport-level failure body (malformed request, authorization): `{"errors":[{errorType, message}]}`. */
export function requestError(errorType: string, message: string): { errors: { errorType: string; message: string }[] } {
  return { errors: [{ errorType, message }] };
}

export const UNAUTHORIZED_BODY = requestError('UnauthorizedException', 'Valid authorization header not provided.');
