import type { Logger } from '@aws-lambda-powertools/logger';
import type { MiddlewareObj, Request } from '@middy/core';
import type { Context } from 'aws-lambda';
import type { Caller } from '../auth/caller.ts';

interface LoggedEvent {
  body?: unknown;
  requestContext?: { requestId?: string };
}

const actionOf = (body: unknown): string | undefined => {
  if (typeof body !== 'object' || body === null) return undefined;
  const action = (body as { action?: unknown }).action;
  return typeof action === 'string' ? action.slice(0, 64) : undefined;
};

/**
 * One log line per request with request id, actor, action, status and duration. Runs
 * outermost so its after/onError hooks see the final status; keys are reset between
 * invocations of a warm function.
 */
export const requestLog = <E extends LoggedEvent, R extends { statusCode?: number } | undefined, C extends Context>({
  logger,
}: {
  logger: Logger;
}): MiddlewareObj<E, R, Error, C> => {
  let startedAt = 0;
  const finish = (request: Request<E, R, Error, C>) => {
    const caller = (request.context as Partial<{ caller: Caller }>).caller;
    logger.info('Request completed', {
      status: request.response?.statusCode,
      durationMs: Date.now() - startedAt,
      actor: caller?.email,
      action: actionOf(request.event.body),
    });
    logger.resetKeys();
  };
  return {
    before: async (request) => {
      startedAt = Date.now();
      if (typeof request.context.awsRequestId === 'string') logger.addContext(request.context);
      logger.appendKeys({ requestId: request.event.requestContext?.requestId });
    },
    after: async (request) => finish(request),
    onError: async (request) => finish(request),
  };
};
