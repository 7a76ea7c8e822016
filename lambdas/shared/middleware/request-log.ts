import type { MiddlewareObj, Request } from '@middy/core';
import type { Context } from 'aws-lambda';
import type { Caller } from '../auth/caller.ts';
import type { Logger } from '../logger.ts';

interface LoggedEvent {
  body?: unknown;
  requestContext?: { requestId?: string };
}

/** The function URL's request id, logged with every line about the request. */
export const requestIdOf = (event: unknown): string | undefined =>
  (event as LoggedEvent | undefined)?.requestContext?.requestId;

/** The caller once authenticated (absent when the request was refused before). */
export const actorOf = (context: unknown): string | undefined => (context as Partial<{ caller: Caller }>).caller?.email;

const actionOf = (body: unknown): string | undefined => {
  if (typeof body !== 'object' || body === null) return undefined;
  const action = (body as { action?: unknown }).action;
  return typeof action === 'string' ? action.slice(0, 64) : undefined;
};

/**
 * One log line per request with request id, actor, action, status and duration. Runs
 * outermost so its after/onError hooks see the final status. Per-request values travel in
 * each line rather than in logger-wide keys, so requests served side by side (local mode)
 * never mix.
 */
export const requestLog = <E extends LoggedEvent, R extends { statusCode?: number } | undefined, C extends Context>({
  logger,
}: {
  logger: Logger;
}): MiddlewareObj<E, R, Error, C> => {
  const startedAt = new WeakMap<object, number>();
  const finish = async (request: Request<E, R, Error, C>) => {
    logger.info('Request completed', {
      requestId: requestIdOf(request.event),
      status: request.response?.statusCode,
      durationMs: Date.now() - (startedAt.get(request) ?? Date.now()),
      actor: actorOf(request.context),
      action: actionOf(request.event.body),
    });
  };
  return {
    before: async (request) => {
      startedAt.set(request, Date.now());
      // The logger is loaded by the first request (lambdas/shared/logger.ts); this is the first middleware.
      await logger.ready();
      if (typeof request.context.awsRequestId === 'string') logger.addContext(request.context);
    },
    after: finish,
    onError: finish,
  };
};
