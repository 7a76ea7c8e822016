import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';

/**
 * Checks a request's Signature Version 4 the way AWS does: the Authorization header names
 * the access key, the credential scope (date, region, service) and the signed headers; the
 * signature is computed again with that key's secret over the same canonical request
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html)
 * and must match. The signing itself is the SDK's signer, not a copy of it.
 */

export interface ReceivedRequest {
  readonly method: string;
  /** The request target as sent (path and query, still percent-encoded). */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export type SignatureFailure =
  | 'MissingAuthenticationToken'
  | 'IncompleteSignature'
  | 'UnrecognizedClient'
  | 'InvalidSignature'
  | 'SignatureExpired'
  /** S3: the signed x-amz-content-sha256 is not the hash of the body received. */
  | 'ContentHashMismatch'
  /** S3: a signed request without x-amz-content-sha256. */
  | 'MissingContentHash';

export interface SignatureOptions {
  /** S3 requires x-amz-content-sha256 on every signed request ("Authenticating Requests: Using the Authorization Header"). */
  readonly requirePayloadHash?: boolean;
}

/**
 * Values of x-amz-content-sha256 that stand for no hash of the body: an unsigned payload, and
 * the streaming uploads whose chunks carry their own signatures or trailing checksums.
 */
const PAYLOAD_HASH_PLACEHOLDERS = new Set([
  'UNSIGNED-PAYLOAD',
  'STREAMING-UNSIGNED-PAYLOAD-TRAILER',
  'STREAMING-AWS4-HMAC-SHA256-PAYLOAD',
  'STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER',
]);

export type SignatureCheck =
  | { readonly ok: true; readonly accessKeyId: string; readonly region: string; readonly service: string }
  | { readonly ok: false; readonly failure: SignatureFailure; readonly message: string };

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^/\s,]+)\/(\d{8})\/([a-z0-9-]+)\/([a-z0-9-]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/;
const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;
/** AWS refuses a request signed more than 15 minutes from its own clock. */
const MAX_SKEW_MS = 15 * 60_000;

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : value;
};

export async function checkSignature(
  request: ReceivedRequest,
  secretOf: (accessKeyId: string) => string | undefined,
  expectedService: string,
  now: Date = new Date(),
  options: SignatureOptions = {},
): Promise<SignatureCheck> {
  const authorization = header(request.headers, 'authorization');
  if (!authorization) return { ok: false, failure: 'MissingAuthenticationToken', message: 'Missing Authentication Token' };
  const parts = AUTHORIZATION.exec(authorization.trim());
  const amzDate = header(request.headers, 'x-amz-date');
  const dateParts = amzDate ? AMZ_DATE.exec(amzDate) : null;
  if (!parts || !dateParts) {
    return {
      ok: false,
      failure: 'IncompleteSignature',
      message: `Authorization header requires 'Credential', 'Signature', 'SignedHeaders' parameters and an 'X-Amz-Date' header. Authorization=${authorization.split(' ')[0]}`,
    };
  }
  const [, accessKeyId, scopeDate, region, service, signedHeaderList, signature] = parts as unknown as string[];
  const secret = secretOf(accessKeyId!);
  if (secret === undefined) return { ok: false, failure: 'UnrecognizedClient', message: 'The security token included in the request is invalid.' };
  if (service !== expectedService) {
    return { ok: false, failure: 'InvalidSignature', message: `Credential should be scoped to correct service: '${expectedService}'.` };
  }
  const [, year, month, day, hour, minute, second] = dateParts.map(Number) as number[];
  const signingDate = new Date(Date.UTC(year!, month! - 1, day!, hour!, minute!, second!));
  if (amzDate!.slice(0, 8) !== scopeDate) {
    return { ok: false, failure: 'InvalidSignature', message: `Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '${scopeDate}' != '${amzDate!.slice(0, 8)}'` };
  }
  if (Math.abs(now.getTime() - signingDate.getTime()) > MAX_SKEW_MS) {
    return {
      ok: false,
      failure: 'SignatureExpired',
      message: `Signature expired: ${amzDate} is now earlier than ${new Date(now.getTime() - MAX_SKEW_MS).toISOString().replace(/[-:]|\.\d{3}/g, '')} (${now.toISOString().replace(/[-:]|\.\d{3}/g, '')} - 15 min.)`,
    };
  }

  const signedHeaders = signedHeaderList!.split(';');
  if (!signedHeaders.includes('host')) {
    return { ok: false, failure: 'IncompleteSignature', message: "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization." };
  }
  const headers: Record<string, string> = {};
  for (const name of signedHeaders) {
    const value = header(request.headers, name);
    if (value === undefined) return { ok: false, failure: 'InvalidSignature', message: MISMATCH };
    headers[name] = value;
  }
  // The signer takes a signed x-amz-content-sha256 as the payload's hash: it must be the body's,
  // unless it says the payload is unsigned or streamed in chunks.
  const declaredHash = headers['x-amz-content-sha256'];
  if (options.requirePayloadHash && declaredHash === undefined) {
    const present = header(request.headers, 'x-amz-content-sha256') !== undefined;
    if (!present) return { ok: false, failure: 'MissingContentHash', message: 'Missing required header for this request: x-amz-content-sha256' };
    // Sent but left out of the signed headers: the signature cannot cover the payload.
    return { ok: false, failure: 'InvalidSignature', message: MISMATCH };
  }
  if (declaredHash !== undefined && !PAYLOAD_HASH_PLACEHOLDERS.has(declaredHash)) {
    const actual = createHash('sha256').update(request.body).digest('hex');
    if (declaredHash !== actual) {
      return expectedService === 's3'
        ? { ok: false, failure: 'ContentHashMismatch', message: "The provided 'x-amz-content-sha256' header does not match what was computed." }
        : { ok: false, failure: 'InvalidSignature', message: MISMATCH };
    }
  }
  const queryStart = request.url.indexOf('?');
  const path = queryStart === -1 ? request.url : request.url.slice(0, queryStart);
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(queryStart === -1 ? '' : request.url.slice(queryStart + 1))) {
    const existing = query[key];
    query[key] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  }
  const signer = new SignatureV4({
    credentials: { accessKeyId: accessKeyId!, secretAccessKey: secret },
    region: region!,
    service: service!,
    sha256: Hash.bind(null, 'sha256'),
    // S3 signs the path as sent (encoded once); every other service encodes it again.
    uriEscapePath: service !== 's3',
  });
  const expected = await signer.sign(
    { method: request.method, protocol: 'http:', hostname: headers.host!.split(':')[0]!, path, query, headers, body: request.body },
    { signingDate, signableHeaders: new Set(signedHeaders) },
  );
  const expectedSignature = /Signature=([0-9a-f]{64})/.exec(String(expected.headers.authorization))?.[1] ?? '';
  const matches = expectedSignature.length === signature!.length && timingSafeEqual(Buffer.from(expectedSignature), Buffer.from(signature!));
  if (!matches) return { ok: false, failure: 'InvalidSignature', message: MISMATCH };
  return { ok: true, accessKeyId: accessKeyId!, region: region!, service: service! };
}

const MISMATCH =
  'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.';
