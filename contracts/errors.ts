import * as z from 'zod';

/** Body of every non-2xx answer of the five functions. */
export const errorBodySchema = z.object({
  error: z.string(),
  reason: z.string().optional(),
  suggestion: z.string().optional(),
  userEmail: z.string().optional(),
  missing: z.array(z.string()).optional(),
  /** Names of the request fields that failed validation (400 only). */
  fields: z.array(z.string()).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const NO_TOKEN_MESSAGE = 'No authentication token found';
