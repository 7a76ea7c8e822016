import middy from '@middy/core';
import type { ContactRequest } from '#contracts/contact.ts';
import { type CallerContext, type HttpResult, type ParsedEvent, ok } from '../shared/http.ts';
import { createLogger } from '../shared/logger.ts';
import { requireCaller } from '../shared/middleware/auth.ts';
import { httpBase } from '../shared/middleware/http-base.ts';
import { jsonBody } from '../shared/middleware/json-body.ts';
import { validateBody } from '../shared/middleware/validate.ts';
import { FUNCTION_URL_METHODS } from '#contracts/function-urls.ts';

const logger = createLogger('contact');

/** Contact email function URL (POST, any signed-in user): `{message}`; at most 5 per user in any 60 minutes. */
export const handler = middy<ParsedEvent<ContactRequest>, HttpResult, Error, CallerContext>()
  .use(httpBase({ logger, methods: FUNCTION_URL_METHODS.contact }))
  .use(requireCaller())
  .use(jsonBody())
  .use(validateBody(async () => (await import('#contracts/contact.ts')).contactRequestSchema))
  .handler(async (event, context) =>
    ok(await (await import('./send-message.ts')).sendContactMessage(event.body, context.caller)),
  );
