import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Checks a request's Signature Version 4 as AWS does, following the IAM User Guide's
 * "Elements of an AWS API request signature"
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-signing-elements.html) and
 * "Create a signed AWS API request"
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html):
 * the Authorization header names the access key, the credential scope (date, region,
 * service, aws4_request) and the signed headers; the canonical request is built from the
 * request as received, with exactly the headers the client lists in SignedHeaders and the
 * payload hash the client sent (x-amz-content-sha256) or else the body's; the signature is
 * computed again with the key's secret and must match. The request's time must be within the
 * service's window of the gate's clock.
 */

export interface ReceivedRequest {
  readonly method: string;
  /** The request target as sent (path and query, still percent-encoded). */
  readonly url: string;
  /** Each header's values as received (Node's `headersDistinct`; a plain value counts as one). */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly body: Buffer;
}

export type SignatureFailure =
  | 'MissingAuthenticationToken'
  | 'IncompleteSignature'
  | 'UnrecognizedClient'
  | 'InvalidSignature'
  | 'SignatureExpired'
  /** The credential scope names another region than the endpoint's. */
  | 'WrongRegion'
  /** S3: the x-amz-content-sha256 sent is not the hash of the body received. */
  | 'ContentHashMismatch'
  /** S3: a signed request without x-amz-content-sha256. */
  | 'MissingContentHash';

export interface SignatureExpectation {
  /** The signing name of the service (credential scope). */
  readonly service: string;
  /** The endpoint's region: the credential scope must name it. */
  readonly region: string;
  /**
   * S3's rules ("Authenticating Requests (AWS Signature Version 4)", Amazon S3 API Reference):
   * x-amz-content-sha256 is required and may be UNSIGNED-PAYLOAD or a streaming value, the path
   * is signed as sent (not encoded again), and the request time may be 15 minutes off.
   */
  readonly s3?: boolean;
}

export type SignatureCheck =
  | { readonly ok: true; readonly accessKeyId: string; readonly region: string; readonly service: string }
  | {
      readonly ok: false;
      readonly failure: SignatureFailure;
      readonly message: string;
      /** The access key the request named, for the log (never the secret or the signature). */
      readonly accessKeyId?: string;
    };

/**
 * Values of x-amz-content-sha256 that stand for no hash of the body (S3 only): an unsigned
 * payload, and the streaming uploads whose chunks carry their own signatures or trailing checksums.
 */
const S3_PAYLOAD_PLACEHOLDERS = new Set([
  'UNSIGNED-PAYLOAD',
  'STREAMING-UNSIGNED-PAYLOAD-TRAILER',
  'STREAMING-AWS4-HMAC-SHA256-PAYLOAD',
  'STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER',
]);

const ALGORITHM = 'AWS4-HMAC-SHA256';
const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
/** "Elements of an AWS API request signature": a request must reach AWS within five minutes of its time stamp. */
const WINDOW_MS = 5 * 60_000;
/** Amazon S3 allows a request time up to 15 minutes from its own ("RequestTimeTooSkewed"). */
const S3_WINDOW_MS = 15 * 60_000;

const SIGNATURE_MISMATCH =
  'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.';

const sha256Hex = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data, 'utf8').digest();

/** RFC 3986 encoding as SigV4 asks: every byte but A-Z a-z 0-9 - _ . ~ is %XX (upper case). */
function uriEncode(value: string, keepSlash: boolean): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.~]/.test(c) || (keepSlash && c === '/')) out += c;
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Percent-decoding that leaves a malformed escape as it is (AWS signs what it receives). */
function uriDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * The canonical URI: for S3 the path as sent; for every other service the path normalized
 * (no `.`/`..` or empty segments) and URI-encoded once more, since clients encode it before signing.
 */
function canonicalUri(path: string, s3: boolean): string {
  if (path === '') return '/';
  if (s3) return path;
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  const normalized = `/${segments.join('/')}${segments.length > 0 && path.endsWith('/') ? '/' : ''}`;
  return uriEncode(normalized, true);
}

/** Each parameter name and value decoded, URI-encoded, and sorted by name then value. */
function canonicalQuery(query: string): string {
  if (query === '') return '';
  const pairs = query
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const equals = part.indexOf('=');
      const name = equals === -1 ? part : part.slice(0, equals);
      const value = equals === -1 ? '' : part.slice(equals + 1);
      return [uriEncode(uriDecode(name), false), uriEncode(uriDecode(value), false)] as const;
    });
  pairs.sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return pairs.map(([name, value]) => `${name}=${value}`).join('&');
}

const valuesOf = (headers: ReceivedRequest['headers'], name: string): readonly string[] | undefined => {
  const value = headers[name];
  if (value === undefined) return undefined;
  return typeof value === 'string' ? [value] : value;
};
const single = (headers: ReceivedRequest['headers'], name: string): string | undefined =>
  valuesOf(headers, name)?.join(',');

interface ParsedAuthorization {
  readonly accessKeyId: string;
  readonly scopeDate: string;
  readonly region: string;
  readonly service: string;
  readonly terminator: string;
  readonly signedHeaders: string;
  readonly signature: string;
}

/**
 * `AWS4-HMAC-SHA256 Credential=<key>/<date>/<region>/<service>/aws4_request, SignedHeaders=...,
 * Signature=...`. Answers the message AWS gives for what is missing.
 */
function parseAuthorization(authorization: string): ParsedAuthorization | { missing: string } {
  const trimmed = authorization.trim();
  const space = trimmed.indexOf(' ');
  const components = new Map<string, string>();
  if (space !== -1 && trimmed.slice(0, space) === ALGORITHM) {
    for (const part of trimmed.slice(space + 1).split(',')) {
      const equals = part.indexOf('=');
      if (equals !== -1) components.set(part.slice(0, equals).trim(), part.slice(equals + 1).trim());
    }
  }
  const missing = ['Credential', 'Signature', 'SignedHeaders'].filter((name) => !components.get(name));
  if (missing.length > 0) {
    return { missing: missing.map((name) => `Authorization header requires '${name}' parameter.`).join(' ') };
  }
  const credential = components.get('Credential')!.split('/');
  if (credential.length !== 5 || credential.some((part) => part === '')) {
    return {
      missing: `Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term, got '${components.get('Credential')!}'`,
    };
  }
  const [accessKeyId, scopeDate, region, service, terminator] = credential as [string, string, string, string, string];
  return {
    accessKeyId,
    scopeDate,
    region,
    service,
    terminator,
    signedHeaders: components.get('SignedHeaders')!,
    signature: components.get('Signature')!,
  };
}

const compactTime = (time: number): string => new Date(time).toISOString().replace(/[-:]|\.\d{3}/g, '');

export function checkSignature(
  request: ReceivedRequest,
  secretOf: (accessKeyId: string) => string | undefined,
  expected: SignatureExpectation,
  now: Date = new Date(),
): SignatureCheck {
  const s3 = expected.s3 ?? false;
  const authorization = single(request.headers, 'authorization');
  if (!authorization)
    return { ok: false, failure: 'MissingAuthenticationToken', message: 'Missing Authentication Token' };
  const parsed = parseAuthorization(authorization);
  const shown = `Authorization=${authorization.trim().split(' ')[0] ?? ''}`;
  if ('missing' in parsed) return { ok: false, failure: 'IncompleteSignature', message: `${parsed.missing} ${shown}` };
  // "Common Parameters" (every AWS API Reference): X-Amz-Date is optional when the Date header is in
  // ISO 8601 basic format, and overrides Date when both are sent.
  const amzDate = single(request.headers, 'x-amz-date') ?? single(request.headers, 'date');
  const dateParts = amzDate ? AMZ_DATE.exec(amzDate) : null;
  if (!amzDate || !dateParts) {
    return {
      ok: false,
      failure: 'IncompleteSignature',
      message: `Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. ${shown}`,
      accessKeyId: parsed.accessKeyId,
    };
  }
  const { accessKeyId } = parsed;
  const refuse = (failure: SignatureFailure, message: string): SignatureCheck => ({
    ok: false,
    failure,
    message,
    accessKeyId,
  });

  // The credential scope: terminator, date, region, service ("Elements of an AWS API request signature").
  if (parsed.terminator !== 'aws4_request') {
    return refuse(
      'IncompleteSignature',
      `Credential should be scoped with a valid terminator: 'aws4_request', not '${parsed.terminator}'.`,
    );
  }
  const secret = secretOf(accessKeyId);
  if (secret === undefined)
    return refuse('UnrecognizedClient', 'The security token included in the request is invalid.');
  if (amzDate.slice(0, 8) !== parsed.scopeDate) {
    return refuse(
      'InvalidSignature',
      `Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '${parsed.scopeDate}' != '${amzDate.slice(0, 8)}', from '${amzDate}'.`,
    );
  }
  if (parsed.region !== expected.region) {
    return refuse(
      'WrongRegion',
      s3
        ? `The authorization header is malformed; the region '${parsed.region}' is wrong; expecting '${expected.region}'`
        : `Credential should be scoped to a valid region, not '${parsed.region}'.`,
    );
  }
  if (parsed.service !== expected.service) {
    return refuse('InvalidSignature', `Credential should be scoped to correct service: '${expected.service}'.`);
  }

  // The time window.
  const [, year, month, day, hour, minute, second] = dateParts.map(Number) as number[];
  const signed = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
  const window = s3 ? S3_WINDOW_MS : WINDOW_MS;
  const minutes = window / 60_000;
  const current = now.getTime();
  if (signed < current - window) {
    return refuse(
      'SignatureExpired',
      `Signature expired: ${amzDate} is now earlier than ${compactTime(current - window)} (${compactTime(current)} - ${minutes} min.)`,
    );
  }
  if (signed > current + window) {
    return refuse(
      'SignatureExpired',
      `Signature not yet current: ${amzDate} is still later than ${compactTime(current + window)} (${compactTime(current)} + ${minutes} min.)`,
    );
  }

  // The signed headers, exactly as listed.
  const signedHeaders = parsed.signedHeaders.split(';');
  if (!signedHeaders.includes('host')) {
    return refuse('IncompleteSignature', "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.");
  }
  const canonicalHeaders: string[] = [];
  for (const name of signedHeaders) {
    const values = valuesOf(request.headers, name);
    // A listed header that did not arrive cannot have been signed as sent.
    if (values === undefined) return refuse('InvalidSignature', SIGNATURE_MISMATCH);
    canonicalHeaders.push(`${name}:${values.map((value) => value.trim().replace(/\s+/g, ' ')).join(',')}`);
  }

  // The payload hash as sent: x-amz-content-sha256 when the client sent it, else the body's hash.
  const bodyHash = sha256Hex(request.body);
  const declaredHash = single(request.headers, 'x-amz-content-sha256');
  if (s3 && declaredHash === undefined)
    return refuse('MissingContentHash', 'Missing required header for this request: x-amz-content-sha256');
  if (declaredHash !== undefined) {
    if (SHA256_HEX.test(declaredHash)) {
      if (declaredHash !== bodyHash) {
        return s3
          ? refuse(
              'ContentHashMismatch',
              "The provided 'x-amz-content-sha256' header does not match what was computed.",
            )
          : refuse('InvalidSignature', SIGNATURE_MISMATCH);
      }
    } else if (!(s3 && S3_PAYLOAD_PLACEHOLDERS.has(declaredHash))) {
      // Only S3 takes a payload that is not hashed; elsewhere the body's hash is what was signed.
      return refuse('InvalidSignature', SIGNATURE_MISMATCH);
    }
  }
  const payloadHash = declaredHash ?? bodyHash;

  const queryStart = request.url.indexOf('?');
  const path = queryStart === -1 ? request.url : request.url.slice(0, queryStart);
  const query = queryStart === -1 ? '' : request.url.slice(queryStart + 1);
  const canonicalRequest = [
    request.method.toUpperCase(),
    canonicalUri(path, s3),
    canonicalQuery(query),
    `${canonicalHeaders.join('\n')}\n`,
    parsed.signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${parsed.scopeDate}/${parsed.region}/${parsed.service}/aws4_request`;
  const stringToSign = [ALGORITHM, amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(
    hmac(hmac(hmac(`AWS4${secret}`, parsed.scopeDate), parsed.region), parsed.service),
    'aws4_request',
  );
  const expectedSignature = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');
  const given = Buffer.from(parsed.signature);
  const matches = given.length === expectedSignature.length && timingSafeEqual(given, Buffer.from(expectedSignature));
  if (!matches) return refuse('InvalidSignature', SIGNATURE_MISMATCH);
  return { ok: true, accessKeyId, region: parsed.region, service: parsed.service };
}
