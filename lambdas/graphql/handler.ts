import middy, { type MiddlewareObj } from '@middy/core';
import type { AppSyncResolverEvent } from 'aws-lambda';
import type { CallerContext } from '../shared/http.ts';
import { createLogger } from '../shared/logger.ts';
import { checkArguments } from './arguments.ts';
import { resolverLog } from './resolver-error.ts';

const logger = createLogger('graphql');

type ResolverEvent = AppSyncResolverEvent<Record<string, unknown>>;

/**
 * The arguments' filter limits and character rule, checked before the session is and before
 * any table is read: a request refused for them costs no call to Cognito or DynamoDB.
 */
const argumentRules = (): MiddlewareObj<ResolverEvent, unknown, Error, CallerContext> => ({
  before: async (request) => {
    checkArguments(request.event.arguments ?? {});
  },
});

/**
 * The token is verified again here (not only by AppSync) and the session checked live, so
 * local mode and AWS enforce the same rules; an account in neither portal group is refused.
 * A token that claims Admins is confirmed with Cognito, so admin operations (catalogue
 * writes, other users' views) follow the group as it is now. AppSync passes the bare token.
 */
const appsyncCaller = (): MiddlewareObj<ResolverEvent, unknown, Error, CallerContext> => ({
  before: async (request) => {
    // Loaded on the first request: the verifier and the Cognito client are not needed to start.
    const [{ authenticate, requirePortalMember, tokenFromHeader }, { confirmAdmin }] = await Promise.all([
      import('../shared/auth/caller.ts'),
      import('../shared/auth/live-admin.ts'),
    ]);
    const token = tokenFromHeader(request.event.request?.headers?.authorization, { allowBare: true });
    // AppSync invokes the resolver once per root field: one request's fields share one session check.
    request.context.caller = requirePortalMember(
      await confirmAdmin(await authenticate(token, { reuseRecentCheck: true })),
    );
  },
});

/** AppSync direct Lambda resolver for every field of contracts/schema.graphql. */
export const handler = middy<ResolverEvent, unknown, Error, CallerContext>()
  .use(resolverLog({ logger }))
  .use(argumentRules())
  .use(appsyncCaller())
  .handler(async (event, context) => (await import('./resolve.ts')).resolve(event, context.caller, logger));
