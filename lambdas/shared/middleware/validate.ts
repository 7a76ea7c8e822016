import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import type { z } from 'zod';
import { parseWith } from '../validation.ts';

/** Replaces the parsed JSON body with its validated form (400 naming the fields otherwise). */
export const validateBody = <S extends z.ZodType, E extends { body: unknown }, R, C extends Context>(schema: S): MiddlewareObj<E, R, Error, C> => ({
  before: async (request) => {
    request.event.body = parseWith(schema, request.event.body);
  },
});
