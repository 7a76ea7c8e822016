import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors.ts';

/** Far above the largest valid request (a contact message of 5,000 characters, escaped). */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

const JSON_CONTENT_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

export interface JsonBodyOptions {
  /** @default DEFAULT_MAX_BODY_BYTES */
  readonly maxBytes?: number;
}

/**
 * Reads a JSON body: 413 above the size cap, 415 without a JSON content type, 400 when it
 * does not parse. (@middy/http-json-body-parser answers 415 for malformed JSON; the
 * contract here is 400.)
 */
export const jsonBody = <E extends Pick<APIGatewayProxyEventV2, 'headers' | 'isBase64Encoded'> & { body?: unknown }, R, C extends Context>({
  maxBytes = DEFAULT_MAX_BODY_BYTES,
}: JsonBodyOptions = {}): MiddlewareObj<E, R, Error, C> => ({
  before: async (request) => {
    const { event } = request;
    const raw = typeof event.body === 'string' ? event.body : '';
    const bytes = Buffer.from(raw, event.isBase64Encoded ? 'base64' : 'utf8');
    if (bytes.length > maxBytes) throw new PayloadTooLargeError(maxBytes);
    if (!JSON_CONTENT_TYPE.test(event.headers?.['content-type'] ?? '')) throw new UnsupportedMediaTypeError();
    if (bytes.length === 0) throw new BadRequestError('Request body is required');
    try {
      event.body = JSON.parse(bytes.toString('utf8')) as unknown;
    } catch {
      throw new BadRequestError('Request body is not valid JSON');
    }
  },
});
