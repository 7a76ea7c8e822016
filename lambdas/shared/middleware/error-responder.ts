import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { HttpError, INTERNAL_ERROR_MESSAGE, MethodNotAllowedError } from '../errors.ts';
import { jsonResponse, type HttpResult } from '../http.ts';
import type { Logger } from '../logger.ts';
import { actorOf, requestIdOf } from './request-log.ts';

const isAwsServiceError = (error: unknown): boolean =>
  error instanceof Error && '$fault' in error && '$metadata' in error;

/** Maps anything thrown to an HttpError; unknown failures keep their details in the logs only. */
export const toHttpError = (error: unknown): HttpError => {
  if (error instanceof HttpError) return error;
  if (isAwsServiceError(error))
    return new HttpError(502, 'A service this function depends on failed. Please try again.');
  return new HttpError(500, INTERNAL_ERROR_MESSAGE);
};

/**
 * The one error handler of every function: the body of contracts/errors.ts with the
 * error's status. A 5xx answer never carries a stack trace or the cause's message.
 */
export const errorResponder = <E, C extends Context>({
  logger,
}: {
  logger: Logger;
}): MiddlewareObj<E, HttpResult, Error, C> => ({
  onError: async (request) => {
    if (request.response !== undefined) return;
    const httpError = toHttpError(request.error);
    const about = { requestId: requestIdOf(request.event), actor: actorOf(request.context), status: httpError.status };
    if (httpError.status >= 500) {
      logger.error('Request failed', { ...about, error: request.error ?? undefined });
    } else {
      logger.info('Request refused', { ...about, reason: httpError.message });
    }
    const response = jsonResponse(httpError.status, httpError.toBody());
    if (httpError instanceof MethodNotAllowedError)
      response.headers = { ...response.headers, allow: httpError.allow.join(', ') };
    request.response = response;
  },
});
