import middy from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { FUNCTION_URL_METHODS } from '#contracts/function-urls.ts';
import type { CallerContext, HttpResult } from '../shared/http.ts';
import { createLogger } from '../shared/logger.ts';
import { requireCaller } from '../shared/middleware/auth.ts';
import { httpBase } from '../shared/middleware/http-base.ts';

const logger = createLogger('embed');

/**
 * Dashboard embed function URL (GET, any signed-in user): `{url, sessionExpiresAt}`. Each
 * issued URL is recorded as a view of the dashboard before the answer goes out. The request's
 * work (embed-request.ts, with the QuickSight and DynamoDB clients) is loaded by the first
 * request that gets past the token check, not when the function starts.
 */
export const handler = middy<APIGatewayProxyEventV2, HttpResult, Error, CallerContext>()
  .use(httpBase({ logger, methods: FUNCTION_URL_METHODS.embed }))
  .use(requireCaller())
  .handler(async (event, context) =>
    (await import('./embed-request.ts')).answerEmbedRequest(event, context.caller, logger),
  );
