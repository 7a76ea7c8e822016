import type { Logger } from '@aws-lambda-powertools/logger';
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { INTERNAL_ERROR_MESSAGE } from '../shared/errors.ts';
import { toHttpError } from '../shared/middleware/error-responder.ts';

/**
 * An error as AppSync shows it: `errorType` is the error's name. Authorization failures are
 * named 'Unauthorized', as AppSync names its own.
 */
export class ResolverError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

const NAMES: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Unauthorized',
  404: 'NotFound',
  409: 'Conflict',
  429: 'TooManyRequests',
};

export const toResolverError = (error: unknown): ResolverError => {
  if (error instanceof ResolverError) return error;
  const httpError = toHttpError(error);
  const name = NAMES[httpError.status];
  return name === undefined ? new ResolverError('InternalFailure', INTERNAL_ERROR_MESSAGE) : new ResolverError(name, httpError.message);
};

interface ResolverEventShape {
  info?: { fieldName?: string; parentTypeName?: string };
}

/** Logs each resolution and turns failures into named resolver errors with no internals. */
export const resolverErrors = <E extends ResolverEventShape, R, C extends Context>({ logger }: { logger: Logger }): MiddlewareObj<E, R, Error, C> => {
  let startedAt = 0;
  const fieldOf = (event: E) => `${event.info?.parentTypeName ?? '?'}.${event.info?.fieldName ?? '?'}`;
  return {
    before: async (request) => {
      startedAt = Date.now();
      if (typeof request.context.awsRequestId === 'string') logger.addContext(request.context);
    },
    after: async (request) => {
      logger.info('Field resolved', { field: fieldOf(request.event), durationMs: Date.now() - startedAt });
      logger.resetKeys();
    },
    onError: async (request) => {
      const resolverError = toResolverError(request.error);
      if (resolverError.name === 'InternalFailure') {
        logger.error('Field failed', { field: fieldOf(request.event), error: request.error ?? undefined });
      } else {
        logger.info('Field refused', { field: fieldOf(request.event), errorType: resolverError.name, reason: resolverError.message });
      }
      logger.resetKeys();
      request.error = resolverError;
    },
  };
};
