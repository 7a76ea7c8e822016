import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SynthesizedDeployment } from '#local/aws/deployment.ts';
import { localDeployment } from '#local/aws/local-deployment.ts';
import { localResourceNames } from '#local/aws/resolve.ts';
import { Closers } from '#local/closers.ts';
import { templateValues, type LocalEndpoints } from '#local/environment.ts';
import { LOCAL_ACCOUNT_ID, LOCAL_CREDENTIALS } from '#clients/local-stack.ts';
import { functionPrincipal, newCredentials, type FunctionCredentials } from '#local/functions.ts';
import { startIamGate } from '#local/iam/gate.ts';
import { LocalIam } from '#local/iam/policies.ts';
import { s3Rules } from '#local/iam/services.ts';
import { LIST_BUCKET_HEADER, startS3StandIn, type S3StandIn } from '#emulators/s3/index.ts';

/**
 * Local S3 behind its IAM gate, as the functions reach it (path-style, SigV4 with
 * x-amz-content-sha256), held to the function roles' policies from the synthesized template.
 * Errors follow the Amazon S3 API Reference ("Error responses", "List of error codes":
 * https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html), and a missing key is
 * NoSuchKey only for a caller allowed s3:ListBucket (GetObject, "Permissions":
 * https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetObject.html). Signatures as in
 * "Authenticating Requests (AWS Signature Version 4)":
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html.
 */

const REGION = 'us-east-2';
const host = '127.0.0.1';
const RULES_KEY = 'company-rules/rules.csv';
const closers = new Closers();
let root: string;
let deployment: SynthesizedDeployment;
let bucket: string;
let iam: LocalIam;
let standIn: S3StandIn;
let endpoint: string;
const keys: Record<string, FunctionCredentials> = {};

const client = (credentials: FunctionCredentials = LOCAL_CREDENTIALS) => {
  const s3 = new S3Client({ endpoint, region: REGION, credentials, forcePathStyle: true, maxAttempts: 1 });
  closers.add(async () => s3.destroy());
  return s3;
};

/** The service error an SDK call fails with: its name and HTTP status. */
async function failure(
  promise: Promise<unknown>,
): Promise<{ name: string; status: number | undefined; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (!(error instanceof S3ServiceException)) throw error;
    return { name: error.name, status: error.$metadata.httpStatusCode, message: error.message };
  }
  throw new Error('The call succeeded');
}

/** A request signed by hand, for what the SDK never sends. */
async function signedFetch(options: {
  method: string;
  path: string;
  body?: string;
  credentials?: FunctionCredentials;
  headers?: Record<string, string>;
  contentHash?: string;
  /** Added after signing. */
  unsignedHeaders?: Record<string, string>;
}): Promise<Response> {
  const url = new URL(options.path, endpoint);
  const body = options.body ?? '';
  const signer = new SignatureV4({
    credentials: options.credentials ?? LOCAL_CREDENTIALS,
    region: REGION,
    service: 's3',
    sha256: Hash.bind(null, 'sha256'),
    uriEscapePath: false,
  });
  const hash = options.contentHash ?? createHash('sha256').update(body).digest('hex');
  const signed = await signer.sign({
    method: options.method,
    protocol: 'http:',
    hostname: url.hostname,
    port: Number(url.port),
    path: url.pathname,
    query: {},
    headers: { host: url.host, 'x-amz-content-sha256': hash, ...options.headers },
    body,
  });
  const headers = { ...(signed.headers as Record<string, string>), ...options.unsignedHeaders };
  return fetch(url, { method: options.method, headers, ...(options.method === 'PUT' && { body }) });
}

async function startStandIn(): Promise<void> {
  standIn = await startS3StandIn({ dataDir: join(root, 's3'), buckets: [bucket], host, port: 0, log: () => undefined });
  const gate = await startIamGate({ rules: s3Rules, iam, upstream: standIn.url, host, port: 0, log: () => undefined });
  endpoint = gate.url;
  closers.add(() => gate.close());
  closers.add(() => standIn.close());
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'local-s3-'));
  deployment = await localDeployment();
  bucket = localResourceNames(deployment.stackName).companyRulesBucket;
  iam = new LocalIam(LOCAL_ACCOUNT_ID);
  iam.add({
    name: 'administrator',
    arn: `arn:aws:iam::${LOCAL_ACCOUNT_ID}:user/local-administrator`,
    ...LOCAL_CREDENTIALS,
  });
  const local: LocalEndpoints = {
    region: REGION,
    siteOrigin: 'http://localhost:4400',
    cognito: {
      endpoint: 'http://127.0.0.1:1',
      userPoolId: 'us-east-2_AbCdEf123',
      clientId: 'client',
      jwks: { keys: [] },
    },
    dynamodbEndpoint: 'http://127.0.0.1:1',
    quicksightEndpoint: 'http://127.0.0.1:1',
    sesEndpoint: 'http://127.0.0.1:1',
  };
  const values = templateValues(deployment, local, 'placeholder');
  for (const key of ['quicksightAdmin', 'companyCheck', 'embed'] as const) {
    keys[key] = newCredentials();
    iam.add(functionPrincipal(deployment.functions[key], deployment.stackName, values, keys[key]));
  }
  // A principal allowed to read the rules but not to list the bucket.
  keys.readOnly = newCredentials();
  iam.add({
    name: 'reader',
    arn: `arn:aws:sts::${LOCAL_ACCOUNT_ID}:assumed-role/reader/reader`,
    ...keys.readOnly,
    policies: [
      {
        name: 'read',
        policy: {
          Version: '2012-10-17',
          Statement: [{ Effect: 'Allow', Action: 's3:GetObject', Resource: `arn:aws:s3:::${bucket}/*` }],
        },
      },
    ],
  });
  await startStandIn();
});

afterAll(async () => {
  await closers.closeAll();
  await rm(root, { recursive: true, force: true });
});

describe('local S3', () => {
  it('names the template’s rules bucket after the stack, as a valid bucket name', () => {
    expect(bucket).toBe(`${deployment.stackName.toLowerCase()}-company-rules`);
    expect(bucket).toMatch(/^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/);
  });

  it('stores what the QuickSight management function puts under company-rules/ and gives it back', async () => {
    const s3 = client(keys.quicksightAdmin);
    const csv =
      'GroupArn,company\narn:aws:quicksight:us-east-2:000000000000:group/default/p-company-1,"Northwind, Inc."\n';
    const put = await s3.send(
      new PutObjectCommand({ Bucket: bucket, Key: RULES_KEY, Body: csv, ContentType: 'text/csv' }),
    );
    expect(put.ETag).toMatch(/^"[0-9a-f]{32}"$/);
    const got = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: RULES_KEY }));
    expect(got.ContentType).toBe('text/csv');
    expect(got.ETag).toBe(put.ETag);
    expect(got.ServerSideEncryption).toBe('AES256');
    expect(await got.Body?.transformToString('utf-8')).toBe(csv);
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: RULES_KEY }));
    expect(head.ContentLength).toBe(Buffer.byteLength(csv));
    // The daily check reads it too; the emulator's reader sees the same text.
    const checked = await client(keys.companyCheck).send(new GetObjectCommand({ Bucket: bucket, Key: RULES_KEY }));
    expect(await checked.Body?.transformToString('utf-8')).toBe(csv);
    expect(await standIn.readObject(bucket, RULES_KEY)).toBe(csv);
    expect(await standIn.listObjects(bucket, 'company-rules/')).toContain(RULES_KEY);
  });

  it('answers a missing key with NoSuchKey to a caller allowed to list the bucket, AccessDenied to one that is not', async () => {
    const missing = 'company-rules/none.csv';
    expect(
      await failure(client(keys.companyCheck).send(new GetObjectCommand({ Bucket: bucket, Key: missing }))),
    ).toMatchObject({ name: 'NoSuchKey', status: 404 });
    expect(
      await failure(client(keys.readOnly).send(new GetObjectCommand({ Bucket: bucket, Key: missing }))),
    ).toMatchObject({ name: 'AccessDenied', status: 403 });
    // HEAD has no body: the status says it.
    expect(
      await failure(client(keys.quicksightAdmin).send(new HeadObjectCommand({ Bucket: bucket, Key: missing }))),
    ).toMatchObject({ status: 404 });
    expect(await standIn.readObject(bucket, missing)).toBeUndefined();
  });

  it('words errors as S3 does: an XML Error with Code, Message, the key and the request ids', async () => {
    const response = await signedFetch({ method: 'GET', path: `/${bucket}/company-rules/absent.csv` });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/xml');
    expect(response.headers.get('x-amz-request-id')).toMatch(/^[0-9A-F]{16}$/);
    const xml = await response.text();
    expect(xml).toMatch(
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<Error><Code>NoSuchKey<\/Code><Message>The specified key does not exist\.<\/Message><Key>company-rules\/absent\.csv<\/Key><RequestId>[0-9A-F]{16}<\/RequestId><HostId>[^<]+<\/HostId><\/Error>$/,
    );
  });

  it('answers a bucket that does not exist with NoSuchBucket', async () => {
    const error = await failure(
      client().send(new GetObjectCommand({ Bucket: 'no-such-rules-bucket', Key: RULES_KEY })),
    );
    expect(error).toMatchObject({ name: 'NoSuchBucket', status: 404 });
    expect(await standIn.readObject('no-such-rules-bucket', RULES_KEY)).toBeUndefined();
  });

  it('refuses with AccessDenied what the caller’s policy does not grant: another prefix, another bucket, a function without S3', async () => {
    const admin = client(keys.quicksightAdmin);
    const outside = await failure(
      admin.send(new PutObjectCommand({ Bucket: bucket, Key: 'elsewhere/rules.csv', Body: 'x' })),
    );
    expect(outside).toMatchObject({ name: 'AccessDenied', status: 403 });
    expect(outside.message).toContain(`s3:PutObject on resource: arn:aws:s3:::${bucket}/elsewhere/rules.csv`);
    expect(await failure(admin.send(new GetObjectCommand({ Bucket: 'another-bucket', Key: RULES_KEY })))).toMatchObject(
      { name: 'AccessDenied', status: 403 },
    );
    // The check is read-only: it may not write the rules file.
    expect(
      await failure(
        client(keys.companyCheck).send(new PutObjectCommand({ Bucket: bucket, Key: RULES_KEY, Body: 'x' })),
      ),
    ).toMatchObject({ name: 'AccessDenied' });
    expect(
      await failure(client(keys.embed).send(new GetObjectCommand({ Bucket: bucket, Key: RULES_KEY }))),
    ).toMatchObject({ name: 'AccessDenied', status: 403 });
    // Nothing refused reached the stand-in.
    expect(await standIn.readObject(bucket, 'elsewhere/rules.csv')).toBeUndefined();
    expect(await standIn.readObject(bucket, RULES_KEY)).not.toBe('x');
  });

  it('ignores a caller’s own copy of the gate’s list-bucket answer', async () => {
    const response = await signedFetch({
      method: 'GET',
      path: `/${bucket}/company-rules/absent.csv`,
      credentials: keys.readOnly,
      headers: { [LIST_BUCKET_HEADER]: '1' },
    });
    // The header was signed and then dropped by the gate: the signature no longer matches.
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
    // Unsigned, it is dropped too: the gate's own answer (no s3:ListBucket) decides.
    const unsigned = await signedFetch({
      method: 'GET',
      path: `/${bucket}/company-rules/absent.csv`,
      credentials: keys.readOnly,
      unsignedHeaders: { [LIST_BUCKET_HEADER]: '1' },
    });
    expect(unsigned.status).toBe(403);
    expect(await unsigned.text()).toContain('<Code>AccessDenied</Code>');
  });

  it('checks signatures: unknown keys, wrong secrets, unsigned requests and a payload hash that is not the body’s', async () => {
    const unknown = await failure(
      client({ accessKeyId: 'ASIAUNKNOWNKEY', secretAccessKey: 'x' }).send(
        new GetObjectCommand({ Bucket: bucket, Key: RULES_KEY }),
      ),
    );
    expect(unknown).toMatchObject({ name: 'InvalidAccessKeyId', status: 403 });
    const wrong = await failure(
      client({ ...keys.quicksightAdmin!, secretAccessKey: 'not-the-secret' }).send(
        new GetObjectCommand({ Bucket: bucket, Key: RULES_KEY }),
      ),
    );
    expect(wrong).toMatchObject({ name: 'SignatureDoesNotMatch', status: 403 });
    const anonymous = await fetch(new URL(`/${bucket}/${RULES_KEY}`, endpoint));
    expect(anonymous.status).toBe(403);
    expect(await anonymous.text()).toContain('<Code>AccessDenied</Code>');
    const mismatch = await signedFetch({
      method: 'PUT',
      path: `/${bucket}/company-rules/hash.csv`,
      body: 'a,b\n',
      contentHash: 'a'.repeat(64),
    });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain('<Code>XAmzContentSHA256Mismatch</Code>');
    const unsignedPayload = await signedFetch({
      method: 'PUT',
      path: `/${bucket}/company-rules/unsigned.csv`,
      body: 'a,b\n',
      contentHash: 'UNSIGNED-PAYLOAD',
    });
    expect(unsignedPayload.status).toBe(200);
    expect(await standIn.readObject(bucket, 'company-rules/unsigned.csv')).toBe('a,b\n');
  });

  it('refuses a body that does not match its Content-MD5 or its checksum, and stores nothing', async () => {
    const key = 'company-rules/digest.csv';
    const badMd5 = await signedFetch({
      method: 'PUT',
      path: `/${bucket}/${key}`,
      body: 'a\n',
      headers: { 'content-md5': Buffer.alloc(16).toString('base64') },
    });
    expect(badMd5.status).toBe(400);
    expect(await badMd5.text()).toContain('<Code>BadDigest</Code>');
    const badChecksum = await signedFetch({
      method: 'PUT',
      path: `/${bucket}/${key}`,
      body: 'a\n',
      headers: { 'x-amz-checksum-sha256': Buffer.alloc(32).toString('base64') },
    });
    expect(badChecksum.status).toBe(400);
    expect(await badChecksum.text()).toContain('<Code>BadDigest</Code>');
    expect(await standIn.readObject(bucket, key)).toBeUndefined();
  });

  it('lists and deletes for the administrator', async () => {
    const s3 = client();
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'company-rules/' }));
    expect(listed.Contents?.map((object) => object.Key)).toContain(RULES_KEY);
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'company-rules/old.csv', Body: 'old' }));
    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: 'company-rules/old.csv' }));
    expect(
      await failure(s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'company-rules/old.csv' }))),
    ).toMatchObject({ name: 'NoSuchKey' });
  });

  it('keeps objects across a restart', async () => {
    const before = await standIn.readObject(bucket, RULES_KEY);
    expect(before).toContain('Northwind');
    await closers.closeAll();
    await startStandIn();
    expect(await standIn.readObject(bucket, RULES_KEY)).toBe(before);
    const got = await client(keys.companyCheck).send(new GetObjectCommand({ Bucket: bucket, Key: RULES_KEY }));
    expect(await got.Body?.transformToString('utf-8')).toBe(before);
  });
});
