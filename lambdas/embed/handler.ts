import middy from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod';
import { EMBED_DASHBOARD_HEADER, EMBED_SOURCE_HEADER, embedSourceSchema } from '../../contracts/embed.ts';
import { dashboardId } from '../../contracts/fields.ts';
import { type CallerContext, type HttpResult, ok } from '../shared/http.ts';
import { createLogger } from '../shared/logger.ts';
import { requireCaller } from '../shared/middleware/auth.ts';
import { httpBase } from '../shared/middleware/http-base.ts';
import { parseWith } from '../shared/validation.ts';
import { embedUrlFor } from './embed-url.ts';
import { recordViewWithinBudget } from './record-view.ts';
import { FUNCTION_URL_METHODS } from '../../contracts/function-urls.ts';

const logger = createLogger('embed');

const embedHeaders = z.object({ [EMBED_DASHBOARD_HEADER]: dashboardId, [EMBED_SOURCE_HEADER]: embedSourceSchema });

/**
 * Dashboard embed function URL (GET, any signed-in user): `{url, sessionExpiresAt}`. Each
 * issued URL is recorded as a view of the dashboard before the answer goes out.
 */
export const handler = middy<APIGatewayProxyEventV2, HttpResult, Error, CallerContext>()
  .use(httpBase({ logger, methods: FUNCTION_URL_METHODS.embed }))
  .use(requireCaller())
  .handler(async (event, context) => {
    const headers = parseWith(embedHeaders, event.headers ?? {});
    const dashboard = headers[EMBED_DASHBOARD_HEADER];
    const { response } = await embedUrlFor(context.caller, dashboard);
    await recordViewWithinBudget(
      { email: context.caller.email, dashboardId: dashboard, source: headers[EMBED_SOURCE_HEADER], at: new Date() },
      logger,
    );
    return ok(response);
  });
