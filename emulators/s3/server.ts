import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as zlib from 'node:zlib';
import { PayloadTooLargeError, readBody } from '../shared/http.ts';
import { LIST_BUCKET_HEADER } from './list-bucket-header.ts';
import { requestIds, S3_ERRORS, sendS3Error, xmlElement, type S3ErrorSpec } from './errors.ts';
import type { ObjectStore, StoredObject } from './store.ts';

/**
 * The S3 REST API subset local mode's functions use, with path-style addressing
 * (`/<bucket>/<key>`): PutObject, GetObject, HeadObject and DeleteObject on objects, HeadBucket
 * and ListObjectsV2 on buckets, and ListBuckets. Requests arrive through local mode's IAM gate,
 * which has checked the signature and the caller's policy; the gate tells the stand-in with
 * LIST_BUCKET_HEADER whether the caller may list the bucket, which decides how a missing key
 * is answered (GetObject, API Reference: NoSuchKey with s3:ListBucket, AccessDenied without).
 */

export { LIST_BUCKET_HEADER };

/** Larger objects than local mode ever writes are refused, as S3 refuses a PUT above its limit. */
const MAX_OBJECT_BYTES = 16 * 1024 * 1024;
/** "The name for a key is a sequence of Unicode characters whose UTF-8 encoding is at most 1,024 bytes long." */
const MAX_KEY_BYTES = 1024;
const MAX_KEYS = 1000;

class S3Error extends Error {
  constructor(readonly spec: S3ErrorSpec) {
    super(spec.message);
  }
}

/** Base64 of a CRC32 as S3 reports it: the big-endian 4 bytes of the checksum. */
function crc32Base64(body: Buffer): string | undefined {
  const crc32 = (zlib as { crc32?: (data: Buffer) => number }).crc32;
  if (!crc32) return undefined;
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(crc32(body) >>> 0);
  return bytes.toString('base64');
}

/** The checksums this stand-in can compute; CRC32C and CRC64NVME are kept as sent. */
const CHECKSUMS: Record<string, (body: Buffer) => string | undefined> = {
  crc32: crc32Base64,
  sha1: (body) => createHash('sha1').update(body).digest('base64'),
  sha256: (body) => createHash('sha256').update(body).digest('base64'),
};
const CHECKSUM_ALGORITHMS = ['crc32', 'crc32c', 'sha1', 'sha256', 'crc64nvme'];

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
};

/**
 * The payload of an `aws-chunked` upload with unsigned chunks and trailing checksums
 * (x-amz-content-sha256: STREAMING-UNSIGNED-PAYLOAD-TRAILER): the data of each chunk, and
 * the trailer headers. ("Signature Calculations for the Authorization Header: Transferring
 * Payload in Multiple Chunks (Chunked Upload)", Amazon S3 API Reference.)
 */
function decodeChunked(raw: Buffer): { body: Buffer; trailers: Record<string, string> } {
  const chunks: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    if (lineEnd === -1) throw new S3Error(S3_ERRORS.incompleteBody());
    const size = Number.parseInt(raw.subarray(at, lineEnd).toString('latin1').split(';')[0]!, 16);
    if (!Number.isInteger(size) || size < 0)
      throw new S3Error(S3_ERRORS.invalidRequest('Invalid chunk size in the aws-chunked payload'));
    at = lineEnd + 2;
    if (size === 0) break;
    if (at + size + 2 > raw.length) throw new S3Error(S3_ERRORS.incompleteBody());
    chunks.push(raw.subarray(at, at + size));
    at += size + 2;
  }
  const trailers: Record<string, string> = {};
  for (const line of raw.subarray(at).toString('latin1').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) trailers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { body: Buffer.concat(chunks), trailers };
}

/** The object's body and the checksums sent with it (headers or trailers). */
function uploadedBody(req: IncomingMessage, raw: Buffer): { body: Buffer; sent: Record<string, string> } {
  const contentHash = header(req, 'x-amz-content-sha256') ?? '';
  const chunked = (header(req, 'content-encoding') ?? '').split(',').some((part) => part.trim() === 'aws-chunked');
  if (contentHash.startsWith('STREAMING-AWS4-')) {
    // Signed chunks: each chunk's signature would have to be checked; local mode's SDK clients never send them.
    throw new S3Error(S3_ERRORS.notImplemented());
  }
  let body = raw;
  let trailers: Record<string, string> = {};
  if (chunked || contentHash === 'STREAMING-UNSIGNED-PAYLOAD-TRAILER') {
    ({ body, trailers } = decodeChunked(raw));
    const declared = header(req, 'x-amz-decoded-content-length');
    if (declared !== undefined && Number(declared) !== body.length) throw new S3Error(S3_ERRORS.incompleteBody());
  }
  const sent: Record<string, string> = {};
  for (const algorithm of CHECKSUM_ALGORITHMS) {
    const value = header(req, `x-amz-checksum-${algorithm}`) ?? trailers[`x-amz-checksum-${algorithm}`];
    if (value !== undefined) sent[algorithm] = value;
  }
  return { body, sent };
}

function verifyDigests(req: IncomingMessage, body: Buffer, sent: Record<string, string>): void {
  const md5 = header(req, 'content-md5');
  if (md5 !== undefined) {
    const decoded = Buffer.from(md5, 'base64');
    if (decoded.length !== 16 || decoded.toString('base64') !== md5) throw new S3Error(S3_ERRORS.invalidDigest());
    if (!decoded.equals(createHash('md5').update(body).digest())) throw new S3Error(S3_ERRORS.badDigest());
  }
  for (const [algorithm, value] of Object.entries(sent)) {
    const expected = CHECKSUMS[algorithm]?.(body);
    if (expected !== undefined && expected !== value) throw new S3Error(S3_ERRORS.badChecksum(algorithm));
  }
}

const httpDate = (date: Date) => date.toUTCString();

function objectHeaders(object: StoredObject, withChecksums: boolean): Record<string, string | number> {
  const headers: Record<string, string | number> = {
    'content-type': object.contentType,
    'content-length': object.body.length,
    etag: object.etag,
    'last-modified': httpDate(object.lastModified),
    'accept-ranges': 'bytes',
    // The rules bucket encrypts with S3-managed keys (SSE-S3), as every bucket does by default.
    'x-amz-server-side-encryption': 'AES256',
  };
  for (const [name, value] of Object.entries(object.metadata)) headers[`x-amz-meta-${name}`] = value;
  if (withChecksums)
    for (const [algorithm, value] of Object.entries(object.checksums)) headers[`x-amz-checksum-${algorithm}`] = value;
  return headers;
}

function sendXml(res: ServerResponse, xml: string): void {
  const ids = requestIds();
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n${xml}`;
  res.writeHead(200, {
    'content-type': 'application/xml',
    'content-length': Buffer.byteLength(body),
    'x-amz-request-id': ids.requestId,
    'x-amz-id-2': ids.hostId,
  });
  res.end(body);
}

function send(res: ServerResponse, status: number, headers: Record<string, string | number>, body?: Buffer): void {
  const ids = requestIds();
  res.writeHead(status, { ...headers, 'x-amz-request-id': ids.requestId, 'x-amz-id-2': ids.hostId });
  res.end(body);
}

const NAMESPACE = 'http://s3.amazonaws.com/doc/2006-03-01/';

async function listObjectsV2(
  store: ObjectStore,
  res: ServerResponse,
  bucket: string,
  query: URLSearchParams,
): Promise<void> {
  const prefix = query.get('prefix') ?? '';
  const maxKeysText = query.get('max-keys');
  const maxKeys = maxKeysText === null ? MAX_KEYS : Number(maxKeysText);
  if (!Number.isInteger(maxKeys) || maxKeys < 0)
    throw new S3Error(S3_ERRORS.invalidRequest('Provided max-keys not an integer or within integer range'));
  const token = query.get('continuation-token');
  const after = token !== null ? Buffer.from(token, 'base64url').toString('utf8') : (query.get('start-after') ?? '');
  const keys = (await store.keys(bucket, prefix)).filter(
    (key) => Buffer.compare(Buffer.from(key), Buffer.from(after)) > 0,
  );
  const page = keys.slice(0, Math.min(maxKeys, MAX_KEYS));
  const truncated = keys.length > page.length;
  const contents: string[] = [];
  for (const key of page) {
    const object = await store.get(bucket, key);
    if (!object) continue;
    contents.push(
      `<Contents>${xmlElement('Key', key)}${xmlElement('LastModified', object.lastModified.toISOString())}${xmlElement('ETag', object.etag)}` +
        `${xmlElement('Size', String(object.body.length))}${xmlElement('StorageClass', 'STANDARD')}</Contents>`,
    );
  }
  sendXml(
    res,
    `<ListBucketResult xmlns="${NAMESPACE}">${xmlElement('Name', bucket)}${xmlElement('Prefix', prefix)}${xmlElement('KeyCount', String(contents.length))}` +
      `${xmlElement('MaxKeys', String(maxKeys))}${xmlElement('IsTruncated', String(truncated))}${contents.join('')}` +
      `${token !== null ? xmlElement('ContinuationToken', token) : ''}` +
      `${truncated ? xmlElement('NextContinuationToken', Buffer.from(page.at(-1)!, 'utf8').toString('base64url')) : ''}</ListBucketResult>`,
  );
}

export interface S3ListenerOptions {
  readonly store: ObjectStore;
  readonly now?: () => Date;
  readonly onInternalError?: (error: unknown) => void;
}

export function createS3Listener(options: S3ListenerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { store } = options;
  const now = options.now ?? (() => new Date());

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? 'GET';
    const target = new URL(req.url ?? '/', 'http://s3.local');
    const [encodedBucket = '', ...rest] = target.pathname.slice(1).split('/');
    const bucket = decodeURIComponent(encodedBucket);
    const key = decodeURIComponent(rest.join('/'));

    if (bucket === '') {
      if (method !== 'GET') throw new S3Error(S3_ERRORS.methodNotAllowed(method, 'SERVICE'));
      const buckets = store
        .bucketNames()
        .map(
          (name) =>
            `<Bucket>${xmlElement('Name', name)}${xmlElement('CreationDate', new Date(0).toISOString())}</Bucket>`,
        );
      return sendXml(
        res,
        `<ListAllMyBucketsResult xmlns="${NAMESPACE}"><Buckets>${buckets.join('')}</Buckets></ListAllMyBucketsResult>`,
      );
    }
    if (!store.hasBucket(bucket)) throw new S3Error(S3_ERRORS.noSuchBucket(bucket));

    if (key === '') {
      if (method === 'HEAD') return send(res, 200, { 'x-amz-bucket-region': 'us-east-2' });
      if (method === 'GET' && target.searchParams.get('list-type') === '2')
        return listObjectsV2(store, res, bucket, target.searchParams);
      if (method === 'GET' || method === 'PUT' || method === 'DELETE' || method === 'POST')
        throw new S3Error(S3_ERRORS.notImplemented());
      throw new S3Error(S3_ERRORS.methodNotAllowed(method, 'BUCKET'));
    }
    if (Buffer.byteLength(key, 'utf8') > MAX_KEY_BYTES) throw new S3Error(S3_ERRORS.keyTooLong());
    // Sub-resources (tagging, acl, multipart uploads, ...) and copies are not part of the subset.
    const subresources = [...target.searchParams.keys()].filter((name) => name !== 'x-id');
    if (subresources.length > 0 || req.headers['x-amz-copy-source'] !== undefined)
      throw new S3Error(S3_ERRORS.notImplemented());

    switch (method) {
      case 'PUT': {
        let raw: Buffer;
        try {
          raw = await readBody(req, MAX_OBJECT_BYTES + 64 * 1024);
        } catch (error) {
          if (error instanceof PayloadTooLargeError) throw new S3Error(S3_ERRORS.entityTooLarge(MAX_OBJECT_BYTES));
          throw error;
        }
        const { body, sent } = uploadedBody(req, raw);
        if (body.length > MAX_OBJECT_BYTES) throw new S3Error(S3_ERRORS.entityTooLarge(MAX_OBJECT_BYTES));
        verifyDigests(req, body, sent);
        const metadata: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers)) {
          if (name.startsWith('x-amz-meta-') && typeof value === 'string')
            metadata[name.slice('x-amz-meta-'.length)] = value;
        }
        const object: StoredObject = {
          key,
          body,
          contentType: header(req, 'content-type') ?? 'binary/octet-stream',
          etag: `"${createHash('md5').update(body).digest('hex')}"`,
          lastModified: now(),
          checksums: sent,
          metadata,
        };
        await store.put(bucket, object);
        const checksumHeaders = Object.fromEntries(
          Object.entries(sent).map(([algorithm, value]) => [`x-amz-checksum-${algorithm}`, value]),
        );
        return send(res, 200, {
          etag: object.etag,
          'x-amz-server-side-encryption': 'AES256',
          'content-length': 0,
          ...checksumHeaders,
        });
      }
      case 'GET':
      case 'HEAD': {
        const object = await store.get(bucket, key);
        if (!object) {
          // Without s3:ListBucket a caller cannot tell a missing key from one it may not read.
          throw new S3Error(
            header(req, LIST_BUCKET_HEADER) === '0' ? S3_ERRORS.accessDenied() : S3_ERRORS.noSuchKey(key),
          );
        }
        const headers = objectHeaders(object, (header(req, 'x-amz-checksum-mode') ?? '').toUpperCase() === 'ENABLED');
        return send(res, 200, headers, method === 'GET' ? object.body : undefined);
      }
      case 'DELETE':
        await store.delete(bucket, key);
        return send(res, 204, {});
      default:
        throw new S3Error(S3_ERRORS.methodNotAllowed(method, 'OBJECT'));
    }
  };

  return (req, res) => {
    handle(req, res).catch((error: unknown) => {
      const method = req.method ?? 'GET';
      if (error instanceof S3Error) return sendS3Error(res, method, error.spec);
      if (error instanceof URIError)
        return sendS3Error(res, method, S3_ERRORS.invalidRequest('The request path is not valid percent-encoding'));
      options.onInternalError?.(error);
      if (!res.headersSent) sendS3Error(res, method, S3_ERRORS.internalError());
      else res.end();
    });
  };
}
