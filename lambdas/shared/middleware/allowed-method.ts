import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { MethodNotAllowedError } from '../errors.ts';

/**
 * A function URL invokes the function for every HTTP method, so the function refuses all but
 * its own (405). OPTIONS is listed as allowed: preflights are answered by the function URL's
 * CORS (and by the CORS middleware, which runs first).
 */
export const allowedMethod = <E extends Pick<APIGatewayProxyEventV2, 'requestContext'>, R>(
  method: 'GET' | 'POST',
): MiddlewareObj<E, R> => ({
  before: async (request) => {
    const requested = request.event.requestContext?.http?.method?.toUpperCase();
    if (requested !== method)
      throw new MethodNotAllowedError(String(requested ?? 'unknown').slice(0, 16), [method, 'OPTIONS']);
  },
});
