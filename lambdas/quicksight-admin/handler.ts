import middy from '@middy/core';
import type { QuicksightAdminRequest } from '#contracts/quicksight-admin.ts';
import { type CallerContext, type HttpResult, type ParsedEvent, ok } from '../shared/http.ts';
import { createLogger } from '../shared/logger.ts';
import { requireCaller } from '../shared/middleware/auth.ts';
import { httpBase } from '../shared/middleware/http-base.ts';
import { jsonBody } from '../shared/middleware/json-body.ts';
import { validateBody } from '../shared/middleware/validate.ts';
import { FUNCTION_URL_METHODS } from '#contracts/function-urls.ts';

const logger = createLogger('quicksight-admin');

/** QuickSight management function URL (POST, Admins only): admin-portal §7. */
export const handler = middy<ParsedEvent<QuicksightAdminRequest>, HttpResult, Error, CallerContext>()
  .use(httpBase({ logger, methods: FUNCTION_URL_METHODS.quicksightAdmin }))
  .use(
    requireCaller({ admin: async (caller) => (await import('../shared/auth/live-admin.ts')).requireLiveAdmin(caller) }),
  )
  .use(jsonBody())
  .use(validateBody(async () => (await import('#contracts/quicksight-admin.ts')).quicksightAdminRequestSchema))
  .handler(async (event, context) =>
    ok(await (await import('./actions.ts')).runQuicksightAdminAction(event.body, context.caller, logger)),
  );
