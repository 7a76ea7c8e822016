import middy from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod';
import { EMBED_DASHBOARD_HEADER } from '../../contracts/embed.ts';
import { dashboardId } from '../../contracts/fields.ts';
import { type CallerContext, type HttpResult, ok } from '../shared/http.ts';
import { createLogger } from '../shared/logger.ts';
import { requireCaller } from '../shared/middleware/auth.ts';
import { httpBase } from '../shared/middleware/http-base.ts';
import { parseWith } from '../shared/validation.ts';
import { embedUrlFor } from './embed-url.ts';
import { FUNCTION_URL_METHODS } from '../../contracts/function-urls.ts';

const logger = createLogger('embed');

const embedHeaders = z.object({ [EMBED_DASHBOARD_HEADER]: dashboardId });

/** Dashboard embed function URL (GET, any signed-in user): `{url, sessionExpiresAt}`. */
export const handler = middy<APIGatewayProxyEventV2, HttpResult, Error, CallerContext>()
  .use(httpBase({ logger, methods: FUNCTION_URL_METHODS.embed }))
  .use(requireCaller())
  .handler(async (event, context) => {
    const headers = parseWith(embedHeaders, event.headers ?? {});
    return ok(await embedUrlFor(context.caller, headers[EMBED_DASHBOARD_HEADER]));
  });
