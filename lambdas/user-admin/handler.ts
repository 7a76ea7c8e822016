import middy from '@middy/core';
import type { UserAdminRequest } from '#contracts/user-admin.ts';
import { type CallerContext, type HttpResult, type ParsedEvent, ok } from '../shared/http.ts';
import { createLogger } from '../shared/logger.ts';
import { requireCaller } from '../shared/middleware/auth.ts';
import { httpBase } from '../shared/middleware/http-base.ts';
import { jsonBody } from '../shared/middleware/json-body.ts';
import { validateBody } from '../shared/middleware/validate.ts';
import { FUNCTION_URL_METHODS } from '#contracts/function-urls.ts';

const logger = createLogger('user-admin');

/** User management function URL (POST, Admins only): admin-portal §7 plus RESET_USER_MFA and GET_AUDIT_LOG. */
export const handler = middy<ParsedEvent<UserAdminRequest>, HttpResult, Error, CallerContext>()
  .use(httpBase({ logger, methods: FUNCTION_URL_METHODS.userAdmin }))
  .use(
    requireCaller({ admin: async (caller) => (await import('../shared/auth/live-admin.ts')).requireLiveAdmin(caller) }),
  )
  .use(jsonBody())
  .use(validateBody(async () => (await import('#contracts/user-admin.ts')).userAdminRequestSchema))
  .handler(async (event, context) =>
    ok(await (await import('./actions.ts')).runUserAdminAction(event.body, context.caller, logger)),
  );
