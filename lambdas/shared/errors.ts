import type { ErrorBody } from '../../contracts/errors.ts';

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

export class BadRequestError extends HttpError {
  override readonly name = 'BadRequestError';
  constructor(message: string, details: ErrorDetails = {}) {
    super(400, message, details);
  }
}

export class UnauthorizedError extends HttpError {
  override readonly name = 'UnauthorizedError';
  constructor(message: string) {
    super(401, message);
  }
}

export class ForbiddenError extends HttpError {
  override readonly name = 'ForbiddenError';
  constructor(message: string, details: ErrorDetails = {}) {
    super(403, message, details);
  }
}

export class NotFoundError extends HttpError {
  override readonly name = 'NotFoundError';
  constructor(message: string, details: ErrorDetails = {}) {
    super(404, message, details);
  }
}

export class ConflictError extends HttpError {
  override readonly name = 'ConflictError';
  constructor(message: string, details: ErrorDetails = {}) {
    super(409, message, details);
  }
}

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

export class TooManyRequestsError extends HttpError {
  override readonly name = 'TooManyRequestsError';
  constructor(message: string) {
    super(429, message);
  }
}

/** A service this function depends on refused or failed; the message says which step. */
export class UpstreamError extends HttpError {
  override readonly name = 'UpstreamError';
  constructor(message: string, details: ErrorDetails = {}) {
    super(502, message, details);
  }
}

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
