import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors.ts';
import { findUnsafeJson, MAX_JSON_DEPTH, nestsDeeperThan } from './json-guard.ts';

/** Far above the largest valid request (a contact message of 5,000 characters, escaped). */
const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

const JSON_CONTENT_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

export interface JsonBodyOptions {
  /** @default DEFAULT_MAX_BODY_BYTES */
  readonly maxBytes?: number;
}

/**
 * Reads a JSON body: 413 above the size cap, 415 without a JSON content type, 400 when it
 * does not parse, nests too deep, or holds a `__proto__` key or characters no field accepts.
 * (@middy/http-json-body-parser answers 415 for malformed JSON; the
 * contract here is 400.)
 */
export const jsonBody = <
  E extends Pick<APIGatewayProxyEventV2, 'headers' | 'isBase64Encoded'> & { body?: unknown },
  R,
  C extends Context,
>({ maxBytes = DEFAULT_MAX_BODY_BYTES }: JsonBodyOptions = {}): MiddlewareObj<E, R, Error, C> => ({
  before: async (request) => {
    const { event } = request;
    const raw = typeof event.body === 'string' ? event.body : '';
    const bytes = Buffer.from(raw, event.isBase64Encoded ? 'base64' : 'utf8');
    if (bytes.length > maxBytes) throw new PayloadTooLargeError(maxBytes);
    if (!JSON_CONTENT_TYPE.test(event.headers?.['content-type'] ?? '')) throw new UnsupportedMediaTypeError();
    if (bytes.length === 0) throw new BadRequestError('Request body is required');
    const text = bytes.toString('utf8');
    if (nestsDeeperThan(text, MAX_JSON_DEPTH))
      throw new BadRequestError(`Request body is nested more than ${MAX_JSON_DEPTH} levels deep`);
    let body: unknown;
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      throw new BadRequestError('Request body is not valid JSON');
    }
    const problem = findUnsafeJson(body);
    if (problem?.kind === 'key')
      throw new BadRequestError('Request body must not contain the key "__proto__"', { fields: [problem.path] });
    if (problem?.kind === 'character') {
      const where = problem.path || 'Request body';
      throw new BadRequestError(
        `${where} must not contain control characters, line separators or bidirectional formatting characters`,
        {
          fields: [where],
        },
      );
    }
    event.body = body;
  },
});
