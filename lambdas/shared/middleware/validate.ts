import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import type { z } from 'zod';

/**
 * Replaces the parsed JSON body with its validated form (400 naming the fields otherwise).
 * The schema may be given as a loader: the contract's schemas (and zod) are then loaded by
 * the first request with a body, not when the function starts.
 */
export const validateBody = <S extends z.ZodType, E extends { body: unknown }, R, C extends Context>(
  schema: S | (() => Promise<S>),
): MiddlewareObj<E, R, Error, C> => ({
  before: async (request) => {
    const [{ parseWith }, resolved] = await Promise.all([
      import('../validation.ts'),
      typeof schema === 'function' ? schema() : schema,
    ]);
    request.event.body = parseWith(resolved, request.event.body);
  },
});
