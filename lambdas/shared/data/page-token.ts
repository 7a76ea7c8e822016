import * as z from 'zod';
import { BadRequestError } from '../errors.ts';

/**
 * Paging tokens are opaque to callers: the DynamoDB start key, base64url-encoded. On the way
 * back the key is checked against the shape the query expects, so a token cannot steer a
 * query into another partition.
 */
export const encodePageToken = (key: Record<string, unknown> | undefined): string | null =>
  key === undefined ? null : Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');

export const invalidPageToken = (): BadRequestError =>
  new BadRequestError('Invalid nextToken', { fields: ['nextToken'] });

export const decodePageToken = <S extends z.ZodType<Record<string, unknown>>>(
  token: string | null | undefined,
  shape: S,
): z.output<S> | undefined => {
  if (token === undefined || token === null || token === '') return undefined;
  try {
    const parsed = shape.safeParse(JSON.parse(Buffer.from(token, 'base64url').toString('utf8')));
    if (parsed.success) return parsed.data;
  } catch {
    // fall through: malformed base64 or JSON is the same bad token
  }
  throw invalidPageToken();
};
