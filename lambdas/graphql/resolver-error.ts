import type { Logger } from '../shared/logger.ts';
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { INTERNAL_ERROR_MESSAGE } from '../shared/errors.ts';
import { toHttpError } from '../shared/middleware/error-responder.ts';
import { actorOf } from '../shared/middleware/request-log.ts';

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

const toResolverError = (error: unknown): ResolverError => {
  if (error instanceof ResolverError) return error;
  const httpError = toHttpError(error);
  const name = NAMES[httpError.status];
  return name === undefined
    ? new ResolverError('InternalFailure', INTERNAL_ERROR_MESSAGE)
    : new ResolverError(name, httpError.message);
};

interface ResolverEventShape {
  info?: { fieldName?: string; parentTypeName?: string };
}

/**
 * One log line per resolved field (field, actor, duration, outcome), and failures turned
 * into named resolver errors that say nothing about internals.
 */
export const resolverLog = <E extends ResolverEventShape, R, C extends Context>({
  logger,
}: {
  logger: Logger;
}): MiddlewareObj<E, R, Error, C> => {
  const startedAt = new WeakMap<object, number>();
  const about = (request: { event: E; context: C }) => ({
    field: `${request.event.info?.parentTypeName ?? '?'}.${request.event.info?.fieldName ?? '?'}`,
    actor: actorOf(request.context),
    requestId: request.context.awsRequestId,
    durationMs: Date.now() - (startedAt.get(request) ?? Date.now()),
  });
  return {
    before: async (request) => {
      startedAt.set(request, Date.now());
      await logger.ready();
      if (typeof request.context.awsRequestId === 'string') logger.addContext(request.context);
    },
    after: async (request) => {
      logger.info('Field resolved', about(request));
    },
    onError: async (request) => {
      const resolverError = toResolverError(request.error);
      if (resolverError.name === 'InternalFailure') {
        logger.error('Field failed', { ...about(request), error: request.error ?? undefined });
      } else {
        logger.info('Field refused', {
          ...about(request),
          errorType: resolverError.name,
          reason: resolverError.message,
        });
      }
      request.error = resolverError;
    },
  };
};
