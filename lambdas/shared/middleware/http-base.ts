import type { MiddlewareObj } from '@middy/core';
import httpCors from '@middy/http-cors';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import { EMBED_DASHBOARD_HEADER } from '#contracts/function-urls.ts';
import { allowedOrigins } from '../env.ts';
import type { Logger } from '../logger.ts';
import { allowedMethod } from './allowed-method.ts';
import { errorResponder } from './error-responder.ts';
import { requestLog } from './request-log.ts';

export interface HttpBaseOptions {
  readonly logger: Logger;
  /** The one method the function serves: CORS allows it, any other gets 405. */
  readonly methods: 'GET' | 'POST';
}

/**
 * The middlewares every function URL handler starts with, outermost first: the request log
 * (sees the final status), lowercase headers, CORS from ALLOWED_ORIGINS (never `*`; also
 * answers preflights), the one error handler, then 405 for any other method. Because middy
 * runs `onError` hooks in reverse, CORS headers are added to error answers too.
 */
// middy's own middlewares are typed loosely; the array is used with every function's event type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const httpBase = ({ logger, methods }: HttpBaseOptions): MiddlewareObj<any, any, Error, any>[] => [
  requestLog({ logger }),
  httpHeaderNormalizer(),
  httpCors({
    origins: allowedOrigins(),
    methods: `${methods},OPTIONS`,
    headers: `authorization,content-type,${EMBED_DASHBOARD_HEADER}`,
    maxAge: 600,
    disableBeforePreflightResponse: false,
  }),
  errorResponder({ logger }),
  allowedMethod(methods),
];
