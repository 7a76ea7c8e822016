import { randomBytes, randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';

/**
 * S3's error responses (Amazon S3 API Reference, "Error responses"): an XML `Error` element
 * with Code, Message, the resource's details and the request ids, and the HTTP status of the
 * code's row in the list of error codes. A HEAD request gets the status and no body.
 */

export interface S3ErrorSpec {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  /** Further elements S3 adds for the code (Key, BucketName, Resource...). */
  readonly details?: Readonly<Record<string, string>>;
}

const escapeXml = (text: string): string =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

export const xmlElement = (name: string, value: string): string => `<${name}>${escapeXml(value)}</${name}>`;

/** The request ids every S3 response carries (x-amz-request-id, x-amz-id-2). */
export function requestIds(): { requestId: string; hostId: string } {
  return {
    requestId: randomUUID().replaceAll('-', '').slice(0, 16).toUpperCase(),
    hostId: randomBytes(48).toString('base64'),
  };
}

function errorBody(error: S3ErrorSpec, ids: { requestId: string; hostId: string }): string {
  const details = Object.entries(error.details ?? {})
    .map(([name, value]) => xmlElement(name, value))
    .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<Error>${xmlElement('Code', error.code)}${xmlElement('Message', error.message)}${details}` +
    `${xmlElement('RequestId', ids.requestId)}${xmlElement('HostId', ids.hostId)}</Error>`
  );
}

export function sendS3Error(res: ServerResponse, method: string, error: S3ErrorSpec): void {
  const ids = requestIds();
  const headers: Record<string, string | number> = { 'x-amz-request-id': ids.requestId, 'x-amz-id-2': ids.hostId };
  if (method === 'HEAD') {
    res.writeHead(error.status, headers);
    res.end();
    return;
  }
  const body = errorBody(error, ids);
  res.writeHead(error.status, {
    ...headers,
    'content-type': 'application/xml',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** The errors of the codes this stand-in answers with, worded as S3 words them. */
export const S3_ERRORS = {
  noSuchKey: (key: string): S3ErrorSpec => ({
    status: 404,
    code: 'NoSuchKey',
    message: 'The specified key does not exist.',
    details: { Key: key },
  }),
  noSuchBucket: (bucket: string): S3ErrorSpec => ({
    status: 404,
    code: 'NoSuchBucket',
    message: 'The specified bucket does not exist',
    details: { BucketName: bucket },
  }),
  accessDenied: (message = 'Access Denied'): S3ErrorSpec => ({ status: 403, code: 'AccessDenied', message }),
  keyTooLong: (): S3ErrorSpec => ({ status: 400, code: 'KeyTooLongError', message: 'Your key is too long' }),
  invalidDigest: (): S3ErrorSpec => ({
    status: 400,
    code: 'InvalidDigest',
    message: 'The Content-MD5 you specified was invalid.',
  }),
  badDigest: (): S3ErrorSpec => ({
    status: 400,
    code: 'BadDigest',
    message: 'The Content-MD5 you specified did not match what we received.',
  }),
  badChecksum: (algorithm: string): S3ErrorSpec => ({
    status: 400,
    code: 'BadDigest',
    message: `The ${algorithm.toUpperCase()} you specified did not match the calculated checksum.`,
  }),
  invalidRequest: (message: string): S3ErrorSpec => ({ status: 400, code: 'InvalidRequest', message }),
  incompleteBody: (): S3ErrorSpec => ({
    status: 400,
    code: 'IncompleteBody',
    message: 'You did not provide the number of bytes specified by the Content-Length HTTP header',
  }),
  entityTooLarge: (limit: number): S3ErrorSpec => ({
    status: 400,
    code: 'EntityTooLarge',
    message: 'Your proposed upload exceeds the maximum allowed size',
    details: { MaxSizeAllowed: String(limit) },
  }),
  notImplemented: (): S3ErrorSpec => ({
    status: 501,
    code: 'NotImplemented',
    message: 'A header you provided implies functionality that is not implemented',
  }),
  methodNotAllowed: (method: string, resourceType: string): S3ErrorSpec => ({
    status: 405,
    code: 'MethodNotAllowed',
    message: 'The specified method is not allowed against this resource.',
    details: { Method: method, ResourceType: resourceType },
  }),
  internalError: (): S3ErrorSpec => ({
    status: 500,
    code: 'InternalError',
    message: 'We encountered an internal error. Please try again.',
  }),
} as const;
