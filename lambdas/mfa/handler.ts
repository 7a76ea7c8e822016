import middy from '@middy/core';
import type { MfaRequest } from '#contracts/mfa.ts';
import { type CallerContext, type HttpResult, type ParsedEvent, ok } from '../shared/http.ts';
import { createLogger } from '../shared/logger.ts';
import { requireCaller } from '../shared/middleware/auth.ts';
import { httpBase } from '../shared/middleware/http-base.ts';
import { jsonBody } from '../shared/middleware/json-body.ts';
import { validateBody } from '../shared/middleware/validate.ts';
import { FUNCTION_URL_METHODS } from '#contracts/function-urls.ts';

const logger = createLogger('mfa');

/** MFA management function URL (POST, the caller's own account). Codes and secrets are never logged. */
export const handler = middy<ParsedEvent<MfaRequest>, HttpResult, Error, CallerContext>()
  .use(httpBase({ logger, methods: FUNCTION_URL_METHODS.mfa }))
  .use(requireCaller())
  .use(jsonBody())
  .use(validateBody(async () => (await import('#contracts/mfa.ts')).mfaRequestSchema))
  .handler(async (event, context) => ok(await (await import('./mfa.ts')).runMfaAction(event.body, context.caller)));
