import { createHash, createHmac } from 'node:crypto';
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { describe, expect, it } from 'vitest';
import { checkSignature, type ReceivedRequest } from '#local/iam/sigv4.ts';

/**
 * The gate's SigV4 verifier on requests signed by the SDK's signer, following
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html and
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-signing-elements.html
 * (S3's own rules: https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html).
 */

const KEY = { accessKeyId: 'AKIDLOCALTEST', secretAccessKey: 'local-test-secret' };
const secretOf = (id: string) => (id === KEY.accessKeyId ? KEY.secretAccessKey : undefined);
const NOW = new Date('2026-11-26T06:00:00Z');

async function signed(options: {
  service?: string;
  region?: string;
  date?: Date;
  path?: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: string;
  s3?: boolean;
}): Promise<ReceivedRequest> {
  const service = options.service ?? 'dynamodb';
  const signer = new SignatureV4({
    credentials: KEY,
    region: options.region ?? 'us-east-2',
    service,
    sha256: Hash.bind(null, 'sha256'),
    uriEscapePath: !options.s3,
  });
  const path = options.path ?? '/';
  const body = options.body ?? '{}';
  const request = await signer.sign(
    {
      method: 'POST',
      protocol: 'http:',
      hostname: '127.0.0.1',
      port: 4409,
      path,
      query: options.query ?? {},
      headers: { host: '127.0.0.1:4409', ...options.headers },
      body,
    },
    { signingDate: options.date ?? NOW },
  );
  const query = new URLSearchParams(options.query ?? {}).toString().replace(/\+/g, '%20');
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), String(value)]),
  );
  return { method: 'POST', url: query ? `${path}?${query}` : path, headers, body: Buffer.from(body) };
}

const expectation = { service: 'dynamodb', region: 'us-east-2' };

describe('checkSignature', () => {
  it('accepts a request signed over an encoded path and query, and refuses it once a query value changes', async () => {
    const request = await signed({
      service: 'quicksight',
      path: '/accounts/000000000000/namespaces/default/users/a%40example.com',
      query: { 'next-token': 'a b/c', 'max-results': '5' },
    });
    expect(checkSignature(request, secretOf, { service: 'quicksight', region: 'us-east-2' }, NOW)).toMatchObject({
      ok: true,
      accessKeyId: KEY.accessKeyId,
    });
    const changed = { ...request, url: request.url.replace('max-results=5', 'max-results=6') };
    expect(checkSignature(changed, secretOf, { service: 'quicksight', region: 'us-east-2' }, NOW)).toMatchObject({
      ok: false,
      failure: 'InvalidSignature',
    });
  });

  it('checks the credential scope: service, and a date that matches X-Amz-Date', async () => {
    const request = await signed({});
    expect(checkSignature(request, secretOf, { service: 'cognito-idp', region: 'us-east-2' }, NOW)).toMatchObject({
      ok: false,
      failure: 'InvalidSignature',
      message: "Credential should be scoped to correct service: 'cognito-idp'.",
    });
    const otherDay = { ...request, headers: { ...request.headers, 'x-amz-date': '20261125T235959Z' } };
    expect(checkSignature(otherDay, secretOf, expectation, NOW)).toMatchObject({
      ok: false,
      message:
        "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '20261126' != '20261125', from '20261125T235959Z'.",
    });
  });

  it('keeps the 5-minute window for signed services and 15 minutes for S3', async () => {
    const sixMinutes = new Date(NOW.getTime() - 6 * 60_000);
    expect(checkSignature(await signed({ date: sixMinutes }), secretOf, expectation, NOW)).toMatchObject({
      ok: false,
      failure: 'SignatureExpired',
      message: 'Signature expired: 20261126T055400Z is now earlier than 20261126T055500Z (20261126T060000Z - 5 min.)',
    });
    const s3 = await signed({
      service: 's3',
      s3: true,
      date: sixMinutes,
      path: '/bucket/key',
      headers: { 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
    });
    expect(checkSignature(s3, secretOf, { service: 's3', region: 'us-east-2', s3: true }, NOW)).toMatchObject({
      ok: true,
    });
  });

  it('takes UNSIGNED-PAYLOAD from S3 only; elsewhere the signature must cover the body', async () => {
    const unsigned = await signed({ headers: { 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' } });
    expect(checkSignature(unsigned, secretOf, expectation, NOW)).toMatchObject({
      ok: false,
      failure: 'InvalidSignature',
    });
    const s3 = await signed({
      service: 's3',
      s3: true,
      path: '/bucket/a%20key',
      headers: { 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
    });
    expect(
      checkSignature(
        { ...s3, body: Buffer.from('any body') },
        secretOf,
        { service: 's3', region: 'us-east-2', s3: true },
        NOW,
      ),
    ).toMatchObject({ ok: true });
  });

  // "Common Parameters" (e.g. https://docs.aws.amazon.com/STS/latest/APIReference/CommonParameters.html):
  // X-Amz-Date is optional when the Date header is in ISO 8601 basic format (YYYYMMDD'T'HHMMSS'Z'),
  // and X-Amz-Date overrides Date when both are sent. The SDK's signer always sends X-Amz-Date, so
  // this request is signed step by step as "Create a signed AWS API request" lays out.
  it('takes the time from a Date header in ISO 8601 basic format when X-Amz-Date is absent', () => {
    const date = '20261126T055900Z';
    const hash = (data: string) => createHash('sha256').update(data).digest('hex');
    const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
    const body = '{}';
    const canonical = ['POST', '/', '', 'date:' + date, 'host:127.0.0.1:4409', '', 'date;host', hash(body)].join('\n');
    const scope = '20261126/us-east-2/dynamodb/aws4_request';
    const toSign = ['AWS4-HMAC-SHA256', date, scope, hash(canonical)].join('\n');
    let key: Buffer = hmac('AWS4' + KEY.secretAccessKey, '20261126');
    for (const part of ['us-east-2', 'dynamodb', 'aws4_request']) key = hmac(key, part);
    const signature = createHmac('sha256', key).update(toSign).digest('hex');
    const request: ReceivedRequest = {
      method: 'POST',
      url: '/',
      headers: {
        host: '127.0.0.1:4409',
        date,
        authorization: `AWS4-HMAC-SHA256 Credential=${KEY.accessKeyId}/${scope}, SignedHeaders=date;host, Signature=${signature}`,
      },
      body: Buffer.from(body),
    };
    expect(checkSignature(request, secretOf, expectation, NOW)).toMatchObject({ ok: true });

    // X-Amz-Date, when also sent, is the time that counts: here it is out of the window.
    const overridden = { ...request, headers: { ...request.headers, 'x-amz-date': '20261126T054000Z' } };
    expect(checkSignature(overridden, secretOf, expectation, NOW)).toMatchObject({
      ok: false,
      failure: 'SignatureExpired',
    });
    // A Date header in the HTTP format is no signing time.
    const httpDate = { ...request, headers: { ...request.headers, date: 'Thu, 26 Nov 2026 05:59:00 GMT' } };
    expect(checkSignature(httpDate, secretOf, expectation, NOW)).toMatchObject({
      ok: false,
      failure: 'IncompleteSignature',
    });
  });

  it('names what an Authorization header lacks', () => {
    const request: ReceivedRequest = {
      method: 'POST',
      url: '/',
      headers: {
        host: '127.0.0.1:4409',
        'x-amz-date': '20261126T060000Z',
        authorization: 'AWS4-HMAC-SHA256 Credential=AKIDLOCALTEST/20261126/us-east-2/dynamodb/aws4_request',
      },
      body: Buffer.from('{}'),
    };
    expect(checkSignature(request, secretOf, expectation, NOW)).toMatchObject({
      ok: false,
      failure: 'IncompleteSignature',
      message:
        "Authorization header requires 'Signature' parameter. Authorization header requires 'SignedHeaders' parameter. Authorization=AWS4-HMAC-SHA256",
    });
  });
});
