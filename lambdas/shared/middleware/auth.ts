import type { MiddlewareObj } from '@middy/core';
import { ENV } from '#contracts/env.ts';
import type { Caller } from '../auth/caller.ts';
import { requireEnvs } from '../env.ts';
import type { CallerContext } from '../http.ts';

interface WithHeaders {
  headers?: Record<string, string | undefined>;
}

export interface RequireCallerOptions {
  /**
   * For admin functions: the check that refuses callers outside the Admins group (403),
   * `requireLiveAdmin`. Passed in by those functions so that the others do not carry it (nor
   * need its IAM grant). @default none: any portal member
   */
  readonly admin?: (caller: Caller) => Promise<Caller>;
}

/**
 * Bearer authentication: a verified access token of this pool and client, a live session
 * (Cognito GetUser), membership of Users or Admins, and for admin functions the Admins group
 * in the verified token and, confirmed live, in Cognito.
 * Runs before the body is read, so an anonymous caller learns nothing about the payload rules.
 */
export const requireCaller = <E extends WithHeaders, R>({ admin }: RequireCallerOptions = {}): MiddlewareObj<
  E,
  R,
  Error,
  CallerContext
> => {
  // A function without its pool's identifiers fails at start (Runtime.ImportModuleError in
  // AWS), not at its first request, although the verifier itself is loaded later.
  requireEnvs([ENV.userPoolId, ENV.userPoolClientId]);
  return {
    before: async (request) => {
      // Loaded on the first request that needs it: the token verifier and the Cognito client
      // are not needed to start the function, nor to answer a preflight or a wrong method.
      const { authenticate, requirePortalMember, tokenFromHeader } = await import('../auth/caller.ts');
      const caller = await authenticate(tokenFromHeader(request.event.headers?.authorization));
      request.context.caller = requirePortalMember(admin ? await admin(caller) : caller);
    },
  };
};
