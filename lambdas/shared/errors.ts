import type { ErrorBody } from '#contracts/errors.ts';

/** Extra fields of an error body besides its message (see contracts/errors.ts). */
export type ErrorDetails = Omit<ErrorBody, 'error'>;

/**
 * An error meant for the caller: its status and body are the answer. Anything thrown that
 * is not an HttpError becomes a 500 whose body says nothing about the cause.
 */
export class HttpError extends Error {
  override readonly name: string = 'HttpError';

  constructor(
    readonly status: number,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
  }

  toBody(): ErrorBody {
    return { error: this.message, ...this.details };
  }

  /** The same answer with more fields, e.g. the target account of a failed action. */
  withDetails(extra: ErrorDetails): HttpError {
    return new HttpError(this.status, this.message, { ...this.details, ...extra });
  }
}

/**
 * The base of an error that always answers with one status; `name` tells the subclasses
 * apart in logs.
 */
function withStatus<const Name extends string>(status: number, name: Name) {
  return class extends HttpError {
    override readonly name: Name = name;
    constructor(message: string, details: ErrorDetails = {}) {
      super(status, message, details);
    }
  };
}

export class BadRequestError extends withStatus(400, 'BadRequestError') {}
export class UnauthorizedError extends withStatus(401, 'UnauthorizedError') {}
export class ForbiddenError extends withStatus(403, 'ForbiddenError') {}
export class NotFoundError extends withStatus(404, 'NotFoundError') {}
export class ConflictError extends withStatus(409, 'ConflictError') {}

export class PayloadTooLargeError extends HttpError {
  override readonly name = 'PayloadTooLargeError';
  constructor(limitBytes: number) {
    super(413, `Request body is larger than ${limitBytes} bytes`);
  }
}

export class UnsupportedMediaTypeError extends HttpError {
  override readonly name = 'UnsupportedMediaTypeError';
  constructor() {
    super(415, 'Content-Type must be application/json');
  }
}

/** A method the function does not serve; `allow` lists the ones it does (the Allow header). */
export class MethodNotAllowedError extends HttpError {
  override readonly name = 'MethodNotAllowedError';
  constructor(
    method: string,
    readonly allow: readonly string[],
  ) {
    super(405, `Method ${method} is not allowed; use ${allow.join(' or ')}`);
  }
}

export class TooManyRequestsError extends withStatus(429, 'TooManyRequestsError') {}

/** A service this function depends on refused or failed; the message says which step. */
export class UpstreamError extends withStatus(502, 'UpstreamError') {}

/**
 * The function lacks configuration it needs. Its body names the missing variables (the
 * admin portal shows them), never their values.
 */
export class ConfigurationError extends HttpError {
  override readonly name = 'ConfigurationError';
  constructor(missing: readonly string[], details: ErrorDetails = {}) {
    super(500, 'The function is not fully configured', {
      reason: `Missing environment variables: ${missing.join(', ')}`,
      suggestion: 'Set the missing variables in the function configuration and deploy again.',
      ...details,
      missing: [...missing],
    });
  }
}

export const INTERNAL_ERROR_MESSAGE = 'Internal server error';
