import middy from '@middy/core';
import { type UserAdminRequest, userAdminRequestSchema } from '../../contracts/user-admin.ts';
import { type CallerContext, type HttpResult, type ParsedEvent, ok } from '../shared/http.ts';
import { createLogger } from '../shared/logger.ts';
import { requireLiveAdmin } from '../shared/auth/live-admin.ts';
import { requireCaller } from '../shared/middleware/auth.ts';
import { httpBase } from '../shared/middleware/http-base.ts';
import { jsonBody } from '../shared/middleware/json-body.ts';
import { validateBody } from '../shared/middleware/validate.ts';
import { runUserAdminAction } from './actions.ts';
import { FUNCTION_URL_METHODS } from '../../contracts/function-urls.ts';

const logger = createLogger('user-admin');

/** User management function URL (POST, Admins only): admin-portal §7 plus RESET_USER_MFA and GET_AUDIT_LOG. */
export const handler = middy<ParsedEvent<UserAdminRequest>, HttpResult, Error, CallerContext>()
  .use(httpBase({ logger, methods: FUNCTION_URL_METHODS.userAdmin }))
  .use(requireCaller({ admin: requireLiveAdmin }))
  .use(jsonBody())
  .use(validateBody(userAdminRequestSchema))
  .handler(async (event, context) => ok(await runUserAdminAction(event.body, context.caller, logger)));
