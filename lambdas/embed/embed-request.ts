import type { Logger } from '../shared/logger.ts';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod';
import { EMBED_DASHBOARD_HEADER, EMBED_SOURCE_HEADER, embedSourceSchema } from '#contracts/embed.ts';
import { dashboardId } from '#contracts/fields.ts';
import type { Caller } from '../shared/auth/caller.ts';
import { type HttpResult, ok } from '../shared/http.ts';
import { parseWith } from '../shared/validation.ts';
import { embedUrlFor } from './embed-url.ts';
import { recordViewWithinBudget } from './record-view.ts';

const embedHeaders = z.object({ [EMBED_DASHBOARD_HEADER]: dashboardId, [EMBED_SOURCE_HEADER]: embedSourceSchema });

/** The embed answer for an authenticated caller: the URL, recorded as a view before it goes out. */
export const answerEmbedRequest = async (
  event: APIGatewayProxyEventV2,
  caller: Caller,
  logger: Logger,
): Promise<HttpResult> => {
  const headers = parseWith(embedHeaders, event.headers ?? {});
  const dashboard = headers[EMBED_DASHBOARD_HEADER];
  const { response } = await embedUrlFor(caller, dashboard);
  await recordViewWithinBudget(
    { email: caller.email, dashboardId: dashboard, source: headers[EMBED_SOURCE_HEADER], at: new Date() },
    logger,
  );
  return ok(response);
};
